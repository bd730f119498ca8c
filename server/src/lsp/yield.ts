/**
 * Letting the requests that came in run before the rest of long work (an analysis, a
 * publish of many files). A timer, not `setImmediate`: the JSON-RPC connection
 * dispatches each message it reads from an immediate queued in the poll phase, which
 * runs after an immediate queued before the poll but before the next timers phase.
 */
export const yieldToRequests = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The next turn of the event loop, for work that only must not hold it (not requests waiting behind it). */
export const yieldToEvents = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** How long work runs before it lets requests in: a hover waits for at most about this. */
const SLICE_MS = 8;

/** A yield taken only once `SLICE_MS` have passed since the last: for loops of many short steps. */
export function timeSlicer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < SLICE_MS) return undefined;
    return yieldToRequests().then(() => {
      since = performance.now();
    });
  };
}

import type { Access, Finding, RelatedLocation, Severity, SourceRange } from '../model';
import type { AccessReach, EntryPoint } from '../model/entry-point';
import { isOneOffEntry } from '../model/entry-point';

/**
 * How a path is reached decides how hot it is (docs/entry-points.md). A pure function
 * of the finding and the plain data the reachability pass attached to its access:
 *
 * - reached only from schedules (tests and scripts aside): a cold path, `info` at most,
 *   saying how often it runs;
 * - reached from a route, a consumer or another trigger: stays as it is and names them;
 * - in a queue or stream consumer, made outside the loop over the batch's records on
 *   every path: once per batch, one level lower;
 * - reached from nothing in a project whose entry points are all known: `info`;
 * - reached only from tests and scripts: `info`, as a test or a script file is.
 */

/** `file:line` of a place, as the messages write it (relative to the workspace root). */
export type Where = (at: SourceRange) => string;

const LOWER: Record<Severity, Severity> = { error: 'warning', warning: 'info', info: 'info' };
/** The hottest ways in first, so a message names the path that makes the key hot. */
const HEAT: Record<EntryPoint['kind'], number> = {
  api: 0,
  websocket: 1,
  queue: 2,
  stream: 3,
  event: 4,
  unknown: 5,
  schedule: 6,
  script: 7,
  test: 8,
};
/** At most this many entry points are named in a message; the related locations hold them all. */
const NAMED = 3;

export function placeByReach(f: Finding, reach: AccessReach | undefined, where: Where): Finding {
  if (!reach) return f;
  if (reach.unreached)
    return {
      ...f,
      severity: 'info',
      message: `${f.message} Reach: no entry point reaches this call (nothing names its function, and the project's entry points are all known).`,
    };
  const entries = reach.entryPoints;
  if (!entries.length) return f;
  const related = [...f.related, ...entries.map((e) => relatedOf(e, where))];
  const running = entries.filter((e) => !isOneOffEntry(e.kind));
  if (!running.length)
    return {
      ...f,
      severity: 'info',
      message: `${f.message} Reach: only from ${list(entries, where)}, which run${entries.length === 1 ? 's' : ''} once rather than per request.`,
      related,
    };
  if (running.every((e) => e.kind === 'schedule')) {
    const rate = running.every((e) => e.ratePerHour !== null)
      ? `, at most ${perHour(running.reduce((s, e) => s + e.ratePerHour!, 0))}`
      : '';
    return {
      ...f,
      severity: 'info',
      message: `${f.message} Cold path: runs on ${list(running, where)}${rate}.`,
      related,
    };
  }
  if (reach.oncePerBatch)
    return {
      ...f,
      severity: LOWER[f.severity],
      message: `${f.message} Once per batch: ${list(running, where)} makes this call outside the loop over the batch's records, so it runs once per batch, not per record.`,
      related,
    };
  // A handler no infrastructure names is where code runs, not how often: nothing to add.
  const named = running.filter((e) => e.kind !== 'unknown').sort((a, b) => HEAT[a.kind] - HEAT[b.kind]);
  if (!named.length) return f;
  return { ...f, message: `${f.message} Reached from ${list(named, where)}.`, related };
}

function list(entries: EntryPoint[], where: Where): string {
  const named = entries.slice(0, NAMED).map((e) => `${label(e)} (${where(e.source)})`);
  const more = entries.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(entries.length === 2 ? ' and ' : ', ');
}

function label(e: EntryPoint): string {
  switch (e.kind) {
    case 'api':
    case 'schedule':
      return e.trigger;
    case 'websocket':
      return `the WebSocket route ${e.name}`;
    case 'unknown':
      return `the Lambda handler ${e.functionName ?? e.name}`;
    case 'test':
      return 'test code';
    case 'script':
      return 'a script';
    default:
      // A state machine's step says which machine and what starts it (`Step Functions Flow, started by ...`).
      return e.stateMachine ? e.trigger : `the ${e.kind} consumer ${e.functionName ?? e.name}`;
  }
}

function relatedOf(e: EntryPoint, where: Where): RelatedLocation {
  return { file: e.source.file, span: e.source.span, message: `Entry point: ${label(e)} (${where(e.source)})` };
}

/** `2 requests/hour`, `1 request/hour`, `0.04 requests/hour` (once a day). */
function perHour(n: number): string {
  const shown = Number.isInteger(n) ? String(n) : n < 1 ? n.toFixed(2).replace(/0+$/, '') : n.toFixed(1);
  return `${shown} request${shown === '1' ? '' : 's'}/hour`;
}

/** The access with its reach attached (a new object; the original stays as the analysis made it). */
export function withReach(a: Access, reach: AccessReach | undefined): Access {
  return reach ? { ...a, reach } : a;
}

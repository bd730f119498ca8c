/**
 * Whether the panel can ask the language server for its data, from the client's state,
 * and when the open pages must ask again. No `vscode` import: tested in plain Node.
 *
 * The view in the activity bar is often resolved while the client is still starting (the
 * page loads with the window, before the server's `initialize` answer). A request made then
 * waits for the start (vscode-languageclient queues it), so a starting client is asked like a
 * running one; and each time the client reaches `Running` (first start, restart, or its own
 * restart after a crash) or stops, the pages are refreshed, so none keeps an answer given
 * while the server was down.
 */

/** vscode-languageclient's `State` values (its enum, which needs `vscode` to import). */
export const ClientState = { Stopped: 1, Running: 2, Starting: 3, StartFailed: 4 } as const;

export const NOT_RUNNING =
  'The ShardLens language server is not running. Run "ShardLens: Restart Language Server" (its log: "ShardLens: Show Output").';

/** A client that can be asked now: running, or starting (the request waits for the start). */
export function canAsk(state: number | null): boolean {
  return state === ClientState.Running || state === ClientState.Starting;
}

/** A state change after which every open page gets its keys and heat again. */
export function refreshesPages(next: number): boolean {
  return next === ClientState.Running || next === ClientState.Stopped || next === ClientState.StartFailed;
}

/**
 * The server's log as the output channel shows it: live heat refreshes every minute or
 * so, and a table's problem would otherwise be written again at each refresh, burying
 * everything else. A line is written when it is new for its subject (what comes before
 * its first ": ", e.g. `live heat, orders`), so a change — another problem, or the same
 * one back after a different one — is still seen.
 */
export function changesOnly(write: (line: string) => void): (line: string) => void {
  const last = new Map<string, string>();
  return (line) => {
    const cut = line.indexOf(': ');
    const subject = cut > 0 ? line.slice(0, cut) : line;
    if (last.get(subject) === line) return;
    last.set(subject, line);
    write(line);
  };
}

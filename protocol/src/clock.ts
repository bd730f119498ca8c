/**
 * `14:05:09`: a time of today in the machine's time zone, as the editor's user reads the clock.
 * One format wherever ShardLens says when live heat was read (the hover's live line, the
 * status bar's tooltip), so the two can be compared at a glance.
 */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

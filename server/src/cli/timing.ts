/**
 * Where a check's time went, phase by phase, written to stderr after the report when
 * `SHARDLENS_TIMING=1` is set (as ESLint's `TIMING=1` lists its rules' times). A slow CI
 * step can then be told apart: Node's start-up, the walk, the cache read, the files
 * analysed, the passes over the whole workspace, the cache written, the findings, the
 * report. The output on stdout does not change.
 */
export class PhaseTimes {
  private readonly rows: Array<[phase: string, ms: number]> = [];
  /** `performance.now()` counts from the process's start: the first phase is Node's start-up and the bundle's load. */
  private last = 0;

  constructor(readonly on: boolean) {}

  /** Ends the phase running since the last mark, under this name. */
  mark(phase: string): void {
    if (!this.on) return;
    const now = performance.now();
    this.rows.push([phase, now - this.last]);
    this.last = now;
  }

  /** The phases as a table, longest name first column wide; empty when timing is off or nothing was marked. */
  format(): string {
    if (!this.on || this.rows.length === 0) return '';
    const width = Math.max(...this.rows.map(([p]) => p.length), 'total'.length);
    const line = (phase: string, ms: number) => `  ${phase.padEnd(width)}  ${ms.toFixed(1).padStart(8)} ms\n`;
    const total = this.rows.reduce((sum, [, ms]) => sum + ms, 0);
    return `shardlens: time by phase (SHARDLENS_TIMING)\n${this.rows.map(([p, ms]) => line(p, ms)).join('')}${line('total', total)}`;
  }
}

/** On when the variable is set to anything but empty, 0 or false. */
export function phaseTimesFromEnv(env: NodeJS.ProcessEnv = process.env): PhaseTimes {
  const v = env.SHARDLENS_TIMING;
  return new PhaseTimes(!!v && v !== '0' && v.toLowerCase() !== 'false');
}

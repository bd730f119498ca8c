import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Runs the built CLI as a user does (`bin/shardlens.js`, which loads `dist/cli.js`), with
 * a timeout: the CLI tests and the fuzz suite share it. A bundle older than the sources
 * would test old code, so it is rebuilt first when it is stale.
 */
export const ROOT = path.resolve(__dirname, '..');
export const BIN = path.join(ROOT, 'bin', 'shardlens.js');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

export function ensureBuilt(): void {
  const bundle = path.join(ROOT, 'dist', 'cli.js');
  const dirs = ['server/src', 'protocol/src'].map((d) => path.join(ROOT, d));
  const sources = Math.max(...dirs.map(newest));
  if (fs.existsSync(bundle) && fs.statSync(bundle).mtimeMs >= sources) return;
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`dist/cli.js is older than the sources and the build failed:\n${r.stderr}${r.stdout}`);
}

export interface CliRun {
  /** null when the process was killed (by the timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export interface RunOptions {
  cwd?: string;
  timeoutMs?: number;
  /** Run as this user and group (root can drop to `nobody` to meet permissions). */
  uid?: number;
  gid?: number;
}

export function runCli(args: string[], options: RunOptions = {}): CliRun {
  const started = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: options.timeoutMs ?? 30_000,
    killSignal: 'SIGKILL',
    maxBuffer: 256 * 1024 * 1024,
    uid: options.uid,
    gid: options.gid,
  });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', timedOut, ms: performance.now() - started };
}

/**
 * A small service as a user's project is laid out: a package.json (one project) and the
 * given files (path relative to the service → text), in a fresh folder that is removed
 * after `use` returns.
 */
export function withService<T>(files: Record<string, string>, use: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-service-'));
  try {
    const all = { 'package.json': JSON.stringify({ name: 'service', private: true }), ...files };
    for (const [name, text] of Object.entries(all)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return use(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A crash by the CLI's own contract: exit codes 0 and 1 are results, 2 a usage error; anything else, or a stack trace, is a bug. */
export function crashOf(r: CliRun): string | null {
  if (r.timedOut) return null;
  if (r.code !== 0 && r.code !== 1) return `exit ${r.code}: ${firstLine(r.stderr)}`;
  if (/internal error|\n\s+at .+\(.+:\d+:\d+\)/.test(r.stderr)) return `stack trace: ${firstLine(r.stderr)}`;
  return null;
}

function firstLine(s: string): string {
  return s.split('\n').find((l) => l.trim()) ?? '(no output)';
}

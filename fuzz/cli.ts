import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { crashOf, ensureBuilt, ROOT, runCli } from './cli-runner';
import { mutate } from './mutate';
import { inputRandom, type Failure, type PartOptions, type PartResult } from './random';

/**
 * The CLI part of the fuzz suite: each input is a small folder of mutated copies of the
 * example sources, checked by the built CLI in one of its formats. A crash is an exit
 * code other than 0 or 1, a stack trace on stderr, or output that is not what the format
 * promises (JSON that does not parse); a hang is a run past the timeout.
 */

const FILES_PER_INPUT = 6;
const TIMEOUT_MS = 20_000;
const FORMATS = ['json', 'sarif', 'text'] as const;

function exampleSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|js|py)$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(ROOT, 'examples'));
  return out.sort();
}

/** Writes input `n` of `seed` into a fresh folder; returns it with the arguments to run. */
export function makeInput(seed: number, n: number, sources: string[], parent: string) {
  const r = inputRandom(seed, n);
  const dir = fs.mkdtempSync(path.join(parent, `in${n}-`));
  const applied: string[] = [];
  for (let i = 0; i < FILES_PER_INPUT; i++) {
    const src = r.pick(sources);
    const m = mutate(fs.readFileSync(src), r);
    applied.push(`${path.basename(src)}: ${m.applied.join('+')}`);
    // Sometimes the other language's extension: a parser meeting the wrong language.
    const ext = r.chance(0.15) ? r.pick(['.ts', '.tsx', '.js', '.py']) : path.extname(src);
    fs.writeFileSync(path.join(dir, `f${i}${ext}`), m.bytes);
  }
  const format = r.pick(FORMATS);
  return { dir, args: ['check', '.', '--format', format, '--fail-on', 'never'], format, applied };
}

function keep(dir: string, seed: number, n: number): string {
  const dest = path.join(ROOT, '.cache', 'fuzz', `cli-seed${seed}-input${n}`);
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.cpSync(dir, dest, { recursive: true });
  return path.relative(ROOT, dest);
}

export async function run(options: PartOptions): Promise<PartResult> {
  ensureBuilt();
  const sources = exampleSources();
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-fuzz-'));
  const result: PartResult = { inputs: 0, crashes: [], hangs: [], notes: [] };
  const deadline = Date.now() + options.seconds * 1000;
  let slowest = 0;
  try {
    const more = (n: number) => n < (options.minInputs ?? 0) || Date.now() < deadline;
    for (let n = options.input ?? 0; options.input !== undefined ? n === options.input : more(n); n++) {
      const input = makeInput(options.seed, n, sources, parent);
      const r = runCli(input.args, { cwd: input.dir, timeoutMs: TIMEOUT_MS });
      result.inputs++;
      slowest = Math.max(slowest, r.ms);
      let what = crashOf(r);
      if (!what && !r.timedOut && input.format !== 'text') {
        try {
          JSON.parse(r.stdout);
        } catch (e) {
          what = `--format ${input.format} printed invalid JSON: ${(e as Error).message}`;
        }
      }
      const failure = (w: string): Failure => ({
        input: n,
        what: `${w} [${input.applied.join('; ')}]`,
        repro: `${keep(input.dir, options.seed, n)} (shardlens ${input.args.join(' ')})`,
      });
      if (r.timedOut) result.hangs.push(failure(`no answer within ${TIMEOUT_MS / 1000} s`));
      else if (what) result.crashes.push(failure(what));
      fs.rmSync(input.dir, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(parent, { recursive: true, force: true });
  }
  result.notes.push(`${FILES_PER_INPUT} mutated files per input; slowest run ${Math.round(slowest)} ms`);
  return result;
}

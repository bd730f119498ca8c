// The language-server part of the fuzz suite: random edit sequences (inserts, deletes,
// multi-line text, CRLF and lone CR, surrogate pairs whole and split, ranges reversed,
// past a line's end, past the last line, negative or huge, whole-text replacements),
// sent to the real server bundle over stdio. After each sequence the server must hold
// the client's text (its document's and its syntax tree's, read back through the
// test-only request SHARDLENS_TEST_REQUESTS=1 registers) and publish the diagnostics
// of a fresh open of the final text. The check itself is test/integration/lsp-edits.ts,
// shared with the property test in `npm test`.
//
// A crash is a mismatch, an error the server logged, or the server exiting; a hang is
// a request it did not answer within INPUT_TIMEOUT_MS. One server serves many inputs
// (starting one costs ~0.3 s); every RESTART_EVERY-th input starts a fresh one and
// sends its edits while it is still loading its grammars.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type Session } from '../test/integration/lsp-client';
import {
  DAMAGE,
  FRAGMENTS,
  Hang,
  INITIAL_TEXTS,
  play,
  type EditSpec,
  type Scenario,
} from '../test/integration/lsp-edits';
import { ensureBuilt } from './cli-runner';
import { inputRandom, type PartOptions, type PartResult, type Random } from './random';

const ROOT = path.join(__dirname, '..');
const CACHE = path.join(ROOT, '.cache', 'fuzz');
const INPUT_TIMEOUT_MS = 10000;
const RESTART_EVERY = 25;

function editOf(r: Random): EditSpec {
  const parts = Array.from({ length: r.int(5) }, () => r.pick(FRAGMENTS));
  // Now and then a long run of one piece: many lines, many surrogates.
  if (r.chance(0.05)) parts.push(r.pick(FRAGMENTS).repeat(r.between(50, 400)));
  return {
    full: r.chance(0.04),
    at: r.next(),
    length: r.pick([0, 0, 1, 2, r.int(10), r.int(80), r.int(2000)]),
    damage: r.chance(0.5) ? 'none' : r.pick(DAMAGE),
    text: parts.join(''),
  };
}

/** Input `n` of a seed, from its own generator. */
export function scenarioOf(seed: number, n: number): Scenario {
  const r = inputRandom(seed, n);
  return {
    initial: r.int(INITIAL_TEXTS.length),
    batches: Array.from({ length: r.between(1, 20) }, () => ({
      edits: Array.from({ length: r.between(1, 6) }, () => editOf(r)),
      check: r.chance(0.3),
    })),
  };
}

function writeRepro(seed: number, n: number, s: Scenario): string {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `lsp-${seed}-${n}.json`);
  fs.writeFileSync(file, JSON.stringify(s, null, 1));
  return `${path.relative(ROOT, file)} (npm run fuzz -- --only lsp --seed ${seed} --input ${n})`;
}

export async function run(options: PartOptions): Promise<PartResult> {
  const result: PartResult = { inputs: 0, crashes: [], hangs: [], notes: [] };
  // The server bundle too: startServer refuses one older than the sources.
  ensureBuilt();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-fuzz-lsp-'));
  const deadline = Date.now() + options.seconds * 1000;
  let session: Session | null = null;
  try {
    const one = options.input;
    for (let n = one ?? 0; one !== undefined ? n === one : Date.now() < deadline; n++) {
      const scenario = scenarioOf(options.seed, n);
      // Whether input n races a starting server depends on n alone: reproducible by itself.
      const racing = n % RESTART_EVERY === 0;
      if (racing || !session) {
        session?.stop();
        session = startServer(folder, { testRequests: true });
        await session.initialize();
      }
      const s = session;
      result.inputs++;
      let failure: string | null;
      let hang = false;
      try {
        failure = await play(s, folder, `fuzz-${n}`, scenario, { racing, timeoutMs: INPUT_TIMEOUT_MS });
      } catch (e) {
        failure = String(e);
        hang = e instanceof Hang;
      }
      if (failure) {
        const f = {
          input: n,
          what: failure.replace(/\s*\n\s*/g, ' | ').slice(0, 600),
          repro: writeRepro(options.seed, n, scenario),
        };
        (hang ? result.hangs : result.crashes).push(f);
        // The server's state is unknown after a failure (documents left open): start afresh.
        s.stop();
        session = null;
      }
    }
    result.notes.push(
      `every ${RESTART_EVERY}th input (and the first) on a fresh server, edits sent while it loads its grammars`,
    );
  } finally {
    session?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
  return result;
}

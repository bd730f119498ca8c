// The calculated shard's hash helper, as generated into user files, gives the same
// number in TypeScript, JavaScript and Python: each generated helper is run by its
// real runtime (the TypeScript one compiled by the TypeScript compiler, then node;
// the Python one by python3) over the same 12,000 strings, many of them non-ASCII.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import ts from 'typescript';
import { hashHelperSource, HASH_NAME } from '../../server/src/features/fixes/hash-helper';

/** A small seeded generator, so a failure names inputs that can be reproduced. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Code points from ASCII to astral planes; never a lone surrogate (not valid UTF-8). */
const RANGES: Array<[number, number]> = [
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x590, 0x6ff],
  [0x900, 0x97f],
  [0x3040, 0x30ff],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0xe000, 0xf8ff],
  [0x1f300, 0x1faff],
  [0x20000, 0x2a6df],
];

function inputs(n: number): string[] {
  const rnd = prng(20261201);
  const out = ['', 'a', 'foobar', 'player-1', 'Zoë', '東京', '🎮🏆', 'e\u0301' /* e + combining acute */];
  while (out.length < n) {
    const len = Math.floor(rnd() * 24);
    let s = '';
    for (let i = 0; i < len; i++) {
      const [lo, hi] = RANGES[Math.floor(rnd() * RANGES.length)];
      s += String.fromCodePoint(lo + Math.floor(rnd() * (hi - lo + 1)));
    }
    out.push(s);
  }
  return out;
}

let dir = '';
let input = '';
const N = 12_000;
const strings = inputs(N);
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-hash-'));
  input = path.join(dir, 'inputs.json');
  fs.writeFileSync(input, JSON.stringify(strings));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function runNode(source: string): number[] {
  const file = path.join(dir, `run-${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(file, source);
  return JSON.parse(execFileSync(process.execPath, [file, input], { maxBuffer: 1 << 26 }).toString());
}

const JS_MAIN = `
const inputs = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
process.stdout.write(JSON.stringify(inputs.map((s) => ${HASH_NAME.js}(s))));
`;

function tsHashes(): number[] {
  const source = `${hashHelperSource('typescript')}\ndeclare const require: any, process: any;\n${JS_MAIN}`;
  const out = ts.transpileModule(source, {
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS, strict: true },
  });
  assert.deepEqual(out.diagnostics ?? [], []);
  return runNode(out.outputText);
}

function pyHashes(): number[] {
  const file = path.join(dir, 'run.py');
  fs.writeFileSync(
    file,
    `import json, sys\n\n\n${hashHelperSource('python')}\n\n\n` +
      `with open(sys.argv[1], encoding="utf-8") as f:\n    inputs = json.load(f)\n` +
      `sys.stdout.write(json.dumps([${HASH_NAME.python}(s) for s in inputs]))\n`,
  );
  // PYTHONHASHSEED differs per run: the helper must not depend on it (it does not use hash()).
  return JSON.parse(
    execFileSync('python3', [file, input], {
      maxBuffer: 1 << 26,
      env: { ...process.env, PYTHONHASHSEED: 'random' },
    }).toString(),
  );
}

test(`the TypeScript, JavaScript and Python helpers agree on ${N.toLocaleString('en-US')} strings`, () => {
  const fromTs = tsHashes();
  const fromJs = runNode(`${hashHelperSource('javascript')}\n${JS_MAIN}`);
  const fromPy = pyHashes();
  assert.equal(fromTs.length, N);
  assert.ok(strings.filter((s) => /[^ -~]/.test(s)).length > N / 2, 'most inputs are non-ASCII');
  assert.ok(
    strings.some((s) => [...s].some((c) => c.codePointAt(0)! > 0xffff)),
    'astral characters included',
  );
  for (let i = 0; i < N; i++) {
    assert.equal(fromJs[i], fromTs[i], `JS vs TS on ${JSON.stringify(strings[i])}`);
    assert.equal(fromPy[i], fromTs[i], `Python vs TS on ${JSON.stringify(strings[i])}`);
  }
  // FNV-1a 32-bit reference values.
  assert.equal(fromTs[0], 0x811c9dc5);
  assert.equal(fromTs[1], 0xe40c292c);
  assert.equal(fromTs[2], 0xbf9cf968);
  // The values spread over shards: every one of 10 shards gets between half and twice its share.
  const perShard = new Array(10).fill(0);
  for (const h of fromTs) perShard[h % 10]++;
  for (const n of perShard) assert.ok(n > N / 20 && n < N / 5, `shard sizes ${perShard.join(', ')}`);
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeInput, run } from '../../fuzz/cli';

/**
 * The fast part of the fuzz suite (`npm run fuzz` runs it for minutes): a few seconds of
 * mutated sources through the built CLI with a fixed seed, and the seed's promise that
 * an input can be made again from its number alone.
 */

test('input n of a seed is the same files and arguments every time, and differs from input n+1', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-fuzz-smoke-'));
  const sources = ['examples/leaderboard/src/scores.ts', 'examples/event-log/py/events.py'];
  const contents = (dir: string) =>
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => `${f}:${fs.readFileSync(path.join(dir, f)).toString('base64')}`);
  const a = makeInput(3, 5, sources, parent);
  const b = makeInput(3, 5, sources, parent);
  const c = makeInput(3, 6, sources, parent);
  assert.deepEqual([contents(a.dir), a.args, a.applied], [contents(b.dir), b.args, b.applied]);
  assert.notDeepEqual(contents(a.dir), contents(c.dir));
  fs.rmSync(parent, { recursive: true, force: true });
});

test('six seconds (and at least three inputs) of mutated sources through the CLI: no crash, no hang', async () => {
  // At least three inputs however loaded the machine is: fewer seconds of CPU must not mean fewer inputs checked.
  const r = await run({ seed: 20260101, seconds: 6, minInputs: 3 });
  assert.ok(r.inputs >= 3, `only ${r.inputs} inputs ran`);
  assert.deepEqual(r.crashes, []);
  assert.deepEqual(r.hangs, []);
});

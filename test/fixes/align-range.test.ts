// SL007 repair: a reader looping 0..9 over keys written 1..10 is rewritten to loop
// over the writers' shards, bounded by the writers' constant when it can name it
// (imported into the reader), else the reader's own constant of the same value.
// The fixed workspace parses, type-checks / compiles, and SL007 is gone with
// nothing new in its place.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { writeFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, findingIds, indexWorkspace, pythonErrors, ROOT, typeErrors } from './helpers-write';

const ALIGN = path.join(__dirname, 'fixtures', 'align');
const dirs: string[] = [];
after(() => dirs.forEach(cleanup));

function copy(name: string): string {
  const dir = path.join(ROOT, 'test-output', 'fixes', `align-${name}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.join(ALIGN, name), dir, { recursive: true });
  dirs.push(dir);
  return dir;
}

const cases = [
  {
    name: 'ts-ts',
    reader: 'reader.ts',
    expect: /for \(let s = 1; s <= BOARD_SHARDS; s\+\+\)/,
    imports: /import \{ TABLE, BOARD_SHARDS \} from "\.\/config";/,
  },
  {
    name: 'ts-py',
    reader: 'reader.py',
    expect: /for shard in range\(1, SHARD_COUNT \+ 1\):/,
    imports: /from settings import SHARD_COUNT/,
  },
];

for (const c of cases) {
  test(`${c.name}: the reader's range is aligned with the writers' and SL007 is gone`, async () => {
    const dir = copy(c.name);
    const original = await indexWorkspace(dir);
    assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], []);
    const finding = original.findings.find((f) => f.rule === 'SL007');
    assert.ok(finding, findingIds(original.findings).join(', '));
    const actions = writeFixes.flatMap((p) => p(finding, original.ctx)).filter((a) => a.id === 'align-shard-range');
    assert.equal(actions.length, 1);
    assert.equal(actions[0].safe, false);
    applyAction(original.ctx, actions[0]);
    const text = fs.readFileSync(path.join(dir, c.reader), 'utf8');
    assert.match(text, c.expect);
    assert.match(text, c.imports);

    const fixed = await indexWorkspace(dir);
    for (const r of fixed.index.results()) assert.equal(r.syntaxErrors, false);
    assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], []);
    assert.deepEqual(findingIds(fixed.findings), [], 'no SL007 and nothing new');
    const reader = fixed.index.results().find((r) => r.file.endsWith(c.reader))!.accesses[0];
    const hole = reader.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
    assert.ok(hole && 'hole' in hole);
    assert.deepEqual(hole.hole.shards?.values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Idempotent: nothing left to align.
    assert.deepEqual(
      fixed.findings.flatMap((f) => writeFixes.flatMap((p) => p(f, fixed.ctx))),
      [],
    );
  });
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';
import { assertSameText } from '../unit/same-text';

/**
 * The language server indexes files in whatever order they open and change; the CLI in
 * path order. What the index says of a workspace must not depend on it. Each fixture tree
 * below is one workspace of many projects (templates, Terraform, CDK, handlers sharing
 * variable names like `TABLE_NAME`), indexed in path order, reversed and shuffled.
 */
const ROOT = path.join(__dirname, '..', '..');
const TREES = ['test/fixtures/infra', 'test/fixtures/entry'];

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const a = [...xs];
  let s = seed;
  for (let i = a.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

async function indexed(files: readonly string[], infrastructure: readonly string[]): Promise<string> {
  const index = new WorkspaceIndex({ root: ROOT, maxBytes: 2 << 20 });
  await indexWorkspace(index, { files, infrastructure }, { maxBytes: 2 << 20 });
  const out = index.results().map((r) => ({
    file: r.file,
    accesses: r.accesses.map((a) => [
      a.span,
      a.operation,
      a.table,
      a.index,
      a.partitionKey?.attribute,
      a.partitionKey?.template,
    ]),
    findings: index.findingsFor(r.file).map((f) => [f.rule, f.severity, f.span, f.message]),
  }));
  return JSON.stringify(out, null, 1);
}

for (const tree of TREES) {
  test(`${tree}: the same findings whatever order the files are indexed in`, async () => {
    await initParsers();
    const list = collectFiles([path.join(ROOT, tree)]);
    const inPathOrder = await indexed(list.files, list.infrastructure);
    // (assert.ok, not assert.match: a failing match would carry the whole text into the report.)
    assert.ok(inPathOrder.includes('"SL013"'), 'the tree has definition findings naming a hot key');
    assertSameText(await indexed([...list.files].reverse(), list.infrastructure), inPathOrder, 'reversed');
    for (const seed of [1, 2])
      assertSameText(await indexed(shuffled(list.files, seed), list.infrastructure), inPathOrder, `shuffled ${seed}`);
  });
}

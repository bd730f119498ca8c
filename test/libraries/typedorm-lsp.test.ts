/**
 * The TypeDORM shard fix over LSP, as an editor takes it: the hover on a key no fix can
 * shard says why, and the light bulb on the leaderboard's constant board offers the
 * calculated shard, whose WorkspaceEdit, written to disk, is the fix the provider computes
 * (the entity's template and shard attribute, the shard given at every point call, the
 * reader in place of the find).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allFixes } from '../../server/src/features/fixes';
import {
  codeActionsAt,
  hoverText,
  openDocument,
  serveFixture,
  textsAfter,
  writeWorkspaceEdit,
} from '../integration/lsp-actions';
import { indexWorkspace } from '../fixes/helpers-write';
import { ROOT } from './helpers';

// The entities and the db module are in files no editor opened: wait for the workspace index.
const lsp = serveFixture('typedorm-fix', path.join(ROOT, 'test', 'fixtures', 'libraries'), { waitForIndex: true });

test('the hover on a key no fix can shard says why', async () => {
  const config = path.join(lsp.dir, 'config.ts');
  const ds = await openDocument(lsp.session, config);
  const hot = ds.find((d) => d.code === 'SL001' && /CONFIG#web/.test(d.message))!;
  assert.ok(hot, JSON.stringify(ds.map((d) => d.message)));
  const md = await hoverText(lsp.session, config, hot.range.start);
  assert.match(
    md,
    /\*\*No shard fix:\*\* random shard: the findOne at config\.ts:14 finds one item by its key, which a random shard would lose; calculated shard: the sort key of Config holds no attribute/,
  );
});

test('the light bulb on the constant board offers the calculated shard, and applies it', async () => {
  const scores = path.join(lsp.dir, 'scores.ts');
  const ws = await indexWorkspace(lsp.dir);
  const finding = ws.findings.find((f) => f.rule === 'SL001' && f.file === scores && f.span.startLine === 7)!;
  const expected = allFixes(finding, ws.ctx).find((a) => a.id === 'typedorm-calculated-shard')!;
  const want = textsAfter(ws.ctx, expected);

  const ds = await openDocument(lsp.session, scores);
  const hot = ds.find((d) => d.code === 'SL001' && d.range.start.line === 7)!;
  assert.ok(hot, JSON.stringify(ds.map((d) => d.message)));
  const actions = await codeActionsAt(lsp.session, scores, hot.range);
  const titles = actions.map((a) => a.title);
  assert.ok(titles.includes(expected.title), titles.join('\n'));
  assert.ok(!titles.some((t) => /random shard attribute/.test(t)), titles.join('\n'));

  const fix = actions.find((a) => a.title === expected.title)!;
  assert.deepEqual(writeWorkspaceEdit(fix.edit!.changes!).sort(), ['score.entity.ts', 'scores.ts']);
  for (const [file, text] of want) assert.equal(fs.readFileSync(file, 'utf8'), text, path.basename(file));
  assert.match(fs.readFileSync(path.join(lsp.dir, 'score.entity.ts'), 'utf8'), /'BOARD#\{\{board\}\}#\{\{shard\}\}'/);
  assert.match(fs.readFileSync(scores, 'utf8'), /findScoreShards\(entityManager, \{ board: 'global' \}\)/);
});

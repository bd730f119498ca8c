/**
 * The dynamodb-toolbox v0 shard fix over LSP: the light bulb on the Score entity's
 * constant default offers the calculated shard only (a get, an update and a delete find
 * items by their key), and its WorkspaceEdit, written to disk, is the fix the provider
 * computes (the default pair and the query of the key rewritten).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allFixes } from '../../server/src/features/fixes';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { codeActionsAt, openDocument, serveFixture, writeWorkspaceEdit } from '../integration/lsp-actions';
import { indexWorkspace } from '../fixes/helpers-write';
import { ROOT } from './helpers';

// The query is in a file no editor opened: the test waits for the workspace index.
const lsp = serveFixture('dynamodb-toolbox-v0-fixes', path.join(ROOT, 'test', 'fixtures', 'libraries'), {
  waitForIndex: true,
});

test('v0: the light bulb on a constant default offers the calculated shard, and applies it', async () => {
  const entities = path.join(lsp.dir, 'entities.ts');
  const ws = await indexWorkspace(lsp.dir);
  const finding = ws.findings.find((f) => f.access.library?.entity === 'Score' && f.access.library.schema)!;
  const expected = allFixes(finding, ws.ctx).find((a) => a.id === 'add-calculated-shard')!;
  const want = new Map(
    [...new Set(expected.changes.map((c) => c.file))].map((file) => [
      file,
      applyChanges(
        ws.ctx.textOf(file)!,
        expected.changes.filter((c) => c.file === file),
      ),
    ]),
  );

  const ds = await openDocument(lsp.session, entities);
  const hot = ds.find((d) => d.code === 'SL001' && d.range.start.line === finding.span.startLine)!;
  assert.ok(hot, JSON.stringify(ds.map((d) => d.message)));
  const titles = (await codeActionsAt(lsp.session, entities, hot.range)).map((a) => a.title);
  assert.ok(titles.includes(expected.title), titles.join('\n'));
  assert.ok(!titles.some((t) => t.startsWith('Add a random write-shard suffix to Score')), titles.join('\n'));

  const actions = await codeActionsAt(lsp.session, entities, hot.range);
  const calculated = actions.find((a) => a.title === expected.title)!;
  assert.deepEqual(writeWorkspaceEdit(calculated.edit!.changes!).sort(), ['entities.ts', 'scores.ts']);
  for (const [file, text] of want) assert.equal(fs.readFileSync(file, 'utf8'), text, path.basename(file));
  assert.match(
    fs.readFileSync(entities, 'utf8'),
    /default: \(data: \{ playerId: unknown \}\) => `LEADERBOARD#weekly#\$\{shardlensHash/,
  );
});

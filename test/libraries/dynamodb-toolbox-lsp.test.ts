/**
 * The dynamodb-toolbox shard fix over LSP, as an editor takes it: the light bulb on the
 * entity's constant default lists the random and the calculated shard, and the random
 * one's WorkspaceEdit, written to disk, is the fix the provider computes (the entity's
 * default and both queries of the key rewritten).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Hover } from 'vscode-languageserver';
import { allFixes } from '../../server/src/features/fixes';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { codeActionsAt, openDocument, serveFixture, writeWorkspaceEdit } from '../integration/lsp-actions';
import { indexWorkspace } from '../fixes/helpers-write';
import { ROOT } from './helpers';

// The queries are in a file no editor opened: the tests wait for the workspace index.
const lsp = serveFixture('dynamodb-toolbox-fixes', path.join(ROOT, 'test', 'fixtures', 'libraries'), {
  waitForIndex: true,
});

test('the hover on a key no fix can shard says why, as the toolbox fix sees it', async () => {
  const entities = path.join(lsp.dir, 'entities.ts');
  const ds = await openDocument(lsp.session, entities);
  const settings = ds.find((d) => d.code === 'SL001' && /"SETTINGS"/.test(d.message))!;
  assert.ok(settings, JSON.stringify(ds.map((d) => d.message)));
  const hover = (await lsp.session.conn.sendRequest('textDocument/hover', {
    textDocument: { uri: pathToFileURL(entities).toString() },
    position: settings.range.start,
  })) as Hover;
  const md = (hover.contents as { value: string }).value.replace(/\\(.)/g, '$1');
  assert.match(
    md,
    /\*\*No shard fix:\*\* random shard: the GetItem at scores\.ts:32 finds one item by its key, which a random shard would lose; calculated shard: no other key attribute of Settings/,
  );
});

test('the light bulb on a constant default offers the library-style shard fixes, and applies them', async () => {
  const entities = path.join(lsp.dir, 'entities.ts');
  const ws = await indexWorkspace(lsp.dir);
  const finding = ws.findings.find((f) => f.access.library?.entity === 'Activity' && f.access.library.schema)!;
  const expected = allFixes(finding, ws.ctx).find((a) => a.id === 'add-random-shard')!;
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
  const actions = await codeActionsAt(lsp.session, entities, hot.range);
  const titles = actions.map((a) => a.title);
  assert.ok(titles.includes(expected.title), titles.join('\n'));
  assert.ok(
    titles.some((t) => t.startsWith('Add a calculated shard suffix to Activity.feed')),
    titles.join('\n'),
  );

  const random = actions.find((a) => a.title === expected.title)!;
  assert.deepEqual(writeWorkspaceEdit(random.edit!.changes!).sort(), ['activity.ts', 'entities.ts']);
  for (const [file, text] of want) assert.equal(fs.readFileSync(file, 'utf8'), text, path.basename(file));
  assert.match(fs.readFileSync(entities, 'utf8'), /default\(\(\) => `ACTIVITY#home#\$\{Math\.floor/);
});

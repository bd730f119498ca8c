import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Hover } from 'vscode-languageserver';
import { copyFixture, cleanup } from '../fixes/helpers-write';
import { codeActionsAt, indexed, openDocument, writeWorkspaceEdit } from './lsp-actions';
import { assertFreshBundle, startServer, until, type Session } from './lsp-client';

/**
 * The ElectroDB shard fix over LSP, as an editor takes it: offered at the hot write, its
 * WorkspaceEdit changes the schema module and the calls in another file, and the server's
 * diagnostics then drop the key; where no fix can be written, the light bulb and the hover
 * say why.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'libraries', 'electrodb-fixes');

let session: Session;
const dirs: string[] = [];

before(async () => {
  assertFreshBundle();
});
after(() => {
  session?.stop();
  dirs.forEach(cleanup);
});

async function open(fixture: string, name: string) {
  const dir = copyFixture(fixture, FIXTURES);
  dirs.push(dir);
  session?.stop();
  session = startServer(dir);
  await session.initialize();
  await indexed(session);
  const file = path.join(dir, name);
  return { dir, file, diagnostics: await openDocument(session, file) };
}

test('the calculated shard is offered at a hot ElectroDB write and, applied, leaves no finding on the key', async () => {
  const { dir, file, diagnostics } = await open('scores', 'scores.ts');
  const hot = diagnostics.find((d) => d.code === 'SL001' && d.range.start.line === 3)!;
  assert.ok(hot, JSON.stringify(diagnostics.map((d) => `${d.code} ${d.range.start.line}`)));
  const actions = await codeActionsAt(session, file, hot.range);
  const fix = actions.find((a) =>
    a.title.startsWith('Add a calculated shard attribute, hash(player) mod 10, to score.byBoard'),
  );
  assert.ok(fix, actions.map((a) => a.title).join('\n'));
  assert.deepEqual(writeWorkspaceEdit(fix.edit!.changes!).sort(), ['entities.ts', 'scores.ts']);
  assert.match(fs.readFileSync(path.join(dir, 'entities.ts'), 'utf8'), /composite: \['board', 'shard'\]/);
  const uri = pathToFileURL(file).toString();
  // The schema's module is not open: the editor's file watcher reports it written.
  await session.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(path.join(dir, 'entities.ts')).toString(), type: 2 }],
  });
  await session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: fs.readFileSync(file, 'utf8') }],
  });
  await until('the key to leave the diagnostics', () =>
    session.diagnostics.get(uri)?.every((d) => !JSON.stringify(d.message).includes('$games#board_global'))
      ? true
      : undefined,
  );
});

test('where the schema cannot take a shard, the light bulb and the hover say why', async () => {
  const { file, diagnostics } = await open('blocked', 'chat.ts');
  const hot = diagnostics.find((d) => d.code === 'SL001' && d.range.start.line === 12)!;
  assert.ok(hot);
  const titles = (await codeActionsAt(session, file, hot.range)).map((a) => a.title);
  const why = "member.byTeam is in the collection 'team', whose entities share its partition key";
  assert.ok(
    titles.some((t) => t.startsWith(`No shard fix: ${why}`)),
    titles.join('\n'),
  );
  assert.ok(!titles.some((t) => t.startsWith('Add a')), titles.join('\n'));
  const hover = (await session.conn.sendRequest('textDocument/hover', {
    textDocument: { uri: pathToFileURL(file).toString() },
    position: hot.range.start,
  })) as Hover;
  const md = (hover.contents as { value: string }).value.replace(/\\(.)/g, '$1');
  assert.ok(md.includes(`**No shard fix:** ${why}`), md);
});

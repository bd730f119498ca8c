import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer, until, type Session } from '../integration/lsp-client';

/**
 * The language server reads the workspace's templates and judges again when one
 * changes on disk: a template edit that changes a table's key schema moves the finding,
 * deleting the template unbinds the variable.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-infra-lsp-')));
let session: Session | null = null;
after(() => {
  session?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('language server: a template names the table of $TABLE_NAME, and a changed template re-judges', async () => {
  fs.cpSync(path.join(FIXTURES, 'sam-app'), dir, { recursive: true });
  session = startServer(dir);
  await session.initialize();
  const s = session;
  const uri = (rel: string) => pathToFileURL(path.join(dir, rel)).toString();
  const votes = () => (s.diagnostics.get(uri('src/lib/votes.ts')) ?? []).map((d) => `${d.code} ${d.message}`);
  const sl001 = await until('SL001 on the votes table', () => votes().find((m) => m.startsWith('SL001')), votes);
  assert.match(sl001, /POLL#current" on table \{\$Stage\}-poll-votes/);

  // The table's partition key becomes `voter`: the constant `poll` is no longer the key.
  const template = path.join(dir, 'template.yaml');
  const text = fs.readFileSync(template, 'utf8');
  const swapped = text.replace(
    /- AttributeName: poll\n(\s+)KeyType: HASH\n(\s+)- AttributeName: voter\n(\s+)KeyType: RANGE/,
    '- AttributeName: voter\n$1KeyType: HASH\n$2- AttributeName: poll\n$3KeyType: RANGE',
  );
  assert.notEqual(swapped, text);
  fs.writeFileSync(template, swapped);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uri('template.yaml'), type: 2 }],
  });
  await until('SL001 to go', () => !votes().some((m) => m.startsWith('SL001')), votes);

  // The tally counter's table is a !Ref table: its finding names the variable, and keeps it when the template goes.
  const tally = () => (s.diagnostics.get(uri('src/handlers/tally.js')) ?? []).map((d) => `${d.code} ${d.message}`);
  await until('SL004 on the tally counter', () => tally().find((m) => m.startsWith('SL004')), tally);
  const tallyUri = uri('src/handlers/tally.js');
  const tallyText = fs.readFileSync(path.join(dir, 'src/handlers/tally.js'), 'utf8');
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: tallyUri, languageId: 'javascript', version: 1, text: tallyText },
  });
  const line = tallyText.split('\n').findIndex((l) => l.includes("'TALLY#all'"));
  const hover = (await s.conn.sendRequest('textDocument/hover', {
    textDocument: { uri: tallyUri },
    position: { line, character: tallyText.split('\n')[line].indexOf("'TALLY#all'") + 2 },
  })) as { contents: { value: string } } | null;
  assert.match(
    hover?.contents.value ?? '',
    /`\$TABLE_NAME` names the table `TalliesTable` of `\.\.\/\.\.\/template\.yaml`, which states no `TableName`/,
  );
  await s.conn.sendNotification('textDocument/didClose', { textDocument: { uri: tallyUri } });
  fs.rmSync(template);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uri('template.yaml'), type: 3 }],
  });
  await until('the votes key read from the item again', () => votes().length === 0, votes);
  assert.deepEqual(s.errors, []);
});

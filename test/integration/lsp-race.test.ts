import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { startServer, until, type Session } from './lsp-client';

/**
 * A client opens a document and edits it at once, right after `initialize`: the
 * server is still loading its grammars then. Every edit must land, in order, on the
 * text the client has — an edit lost then puts every later incremental edit in the
 * wrong place for as long as the document stays open.
 */

const TEXT = `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from({} as never);
const GLOBAL_BOARD = 'LEADERBOARD#GLOBAL';

export async function submitScore(playerId: string, score: number): Promise<void> {
  await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: GLOBAL_BOARD, SK: playerId, score } }));
}
`;
const KEY_LINE = 6; // `  await ddb.send(new PutCommand({ ... PK: GLOBAL_BOARD ... }));`

let session: Session | undefined;
let folder: string | undefined;

after(() => {
  session?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

test('edits sent while the server loads its grammars are applied, in version order', async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-race-'));
  // Not on disk: the open buffer is the only source of this file's findings.
  const uri = pathToFileURL(path.join(folder, 'scores.ts')).toString();
  session = startServer(folder);
  const s = session;
  const lines = () => (s.diagnostics.get(uri) ?? []).map((d) => `${d.range.start.line} ${d.code}`);
  await s.initialize();
  // No await between them: both are on the wire before the server can have loaded a grammar.
  void s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text: TEXT },
  });
  void s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// scores\n' },
    ],
  });
  // The finding moves down with the inserted line: the edit was applied.
  await until('SL001 one line lower', () => lines().includes(`${KEY_LINE + 1} SL001`), lines, 10000);

  // A later edit, at positions in the version-2 text: shard the key where it is used.
  const column = TEXT.split('\n')[KEY_LINE].indexOf('GLOBAL_BOARD');
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 3 },
    contentChanges: [
      {
        range: {
          start: { line: KEY_LINE + 1, character: column },
          end: { line: KEY_LINE + 1, character: column + 'GLOBAL_BOARD'.length },
        },
        text: '`${GLOBAL_BOARD}#${Math.floor(Math.random() * 10)}`',
      },
    ],
  });
  await until('the SL001 to go once the key is sharded', () => s.diagnostics.get(uri)?.length === 0, lines, 10000);
  const hover = (await s.conn.sendRequest('textDocument/hover', {
    textDocument: { uri },
    position: { line: KEY_LINE + 1, character: column + 4 },
  })) as Hover | null;
  assert.ok(hover, 'no hover on the edited key');
  assert.match((hover.contents as MarkupContent).value, /`LEADERBOARD#GLOBAL#\{shard 0\.\.9\}`/);
});

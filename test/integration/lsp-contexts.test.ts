import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer, until, type Session } from './lsp-client';

/**
 * `shardlens.contexts` reaches the analysis: the same hot key written by app code and by a
 * test is reported in both with every context checked, and only in the app once the
 * setting names `app` alone — for a file on disk and for one open in the editor.
 */

const WRITE = `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from({} as never);
`;
const APP = `${WRITE}
export async function submit(playerId: string): Promise<void> {
  await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: 'BOARD#global', SK: playerId } }));
}
`;
const TEST = `import { test } from 'node:test';
${WRITE}
test('submits a score', async () => {
  await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: 'BOARD#global', SK: 'PLAYER#1' } }));
});
`;

let session: Session;
let folder: string;
const uri = (rel: string) => pathToFileURL(path.join(folder, rel)).toString();
const codes = (rel: string) => (session.diagnostics.get(uri(rel)) ?? []).map((d) => `${d.code} ${d.severity}`);

before(async () => {
  folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-contexts-')));
  for (const [rel, text] of [
    ['src/app.ts', APP],
    ['test/app.test.ts', TEST],
    ['test/other.test.ts', TEST],
  ]) {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), text);
  }
  session = startServer(folder);
  await session.initialize();
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: uri('test/app.test.ts'), languageId: 'typescript', version: 1, text: TEST },
  });
});

after(() => {
  session?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('every context by default; only app code when shardlens.contexts is ["app"]; back again', async () => {
  await until(
    'findings in the tests',
    () => codes('test/other.test.ts').length > 0 && codes('test/app.test.ts').length > 0,
  );
  assert.ok(codes('src/app.ts').includes('SL001 1'), codes('src/app.ts').join());
  // A test runs once: reported, at info at most.
  assert.ok(
    codes('test/other.test.ts').every((c) => c.endsWith(' 3')),
    codes('test/other.test.ts').join(),
  );

  session.settings = { contexts: ['app'] };
  await session.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await until(
    'the tests to lose their findings',
    () => codes('test/other.test.ts').length === 0 && codes('test/app.test.ts').length === 0,
    () => [codes('test/other.test.ts'), codes('test/app.test.ts')],
  );
  assert.ok(codes('src/app.ts').includes('SL001 1'), 'app code is still checked');

  session.settings = {};
  await session.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await until(
    'the findings to return',
    () => codes('test/other.test.ts').length > 0 && codes('test/app.test.ts').length > 0,
  );
});

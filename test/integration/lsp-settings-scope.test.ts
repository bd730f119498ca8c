import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { startServer, until, type Session } from './lsp-client';

/**
 * The server asks the client for its settings once per workspace folder, not once per
 * file, and still gives each folder of a multi-root workspace its own: here the client
 * turns ShardLens off in one folder and leaves it on in the other.
 */

const sessions: Session[] = [];
const dirs: string[] = [];
after(() => {
  for (const s of sessions) s.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const WRITER = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function recordScore(player: string, score: number): Promise<void> {
  await doc.send(new PutCommand({ TableName: 'Scores', Item: { pk: 'LEADERBOARD', sk: player, score } }));
}
`;

/** A folder with the constant-key writer and `n` ordinary modules beside it. */
function folderWith(root: string, name: string, n: number): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'scores.ts'), WRITER);
  for (let i = 0; i < n; i++)
    fs.writeFileSync(
      path.join(dir, 'src', `util${i}.ts`),
      `export function clamp${i}(x: number): number {\n  return Math.max(${i}, Math.min(x, ${i + 100}));\n}\n`,
    );
  return dir;
}

test('settings are asked for once per workspace folder, and each folder keeps its own', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-settings-scope-'));
  dirs.push(root);
  const on = folderWith(root, 'on', 40);
  const off = folderWith(root, 'off', 40);
  const s = startServer(on);
  sessions.push(s);
  const scopes: string[] = [];
  const offUri = pathToFileURL(off).toString();
  s.conn.onRequest('workspace/configuration', (p: { items: Array<{ scopeUri?: string }> }) =>
    p.items.map((item) => {
      scopes.push(item.scopeUri ?? '');
      return item.scopeUri?.startsWith(offUri) ? { enable: false } : {};
    }),
  );
  await s.conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: [on, off].map((f) => ({ uri: pathToFileURL(f).toString(), name: path.basename(f) })),
    capabilities: { workspace: { configuration: true }, window: { workDoneProgress: true } },
  });
  await s.conn.sendNotification('initialized', {});
  await until('the index done', () => s.statuses.some((x) => !x.indexing));
  await until('the writer of the folder left on published', () =>
    [...s.diagnostics.keys()].find((u) => u.endsWith('/on/src/scores.ts')),
  );
  const published = [...s.diagnostics].filter(([, d]) => d.length > 0).map(([u]) => u);
  assert.deepEqual(
    published.map((u) => path.relative(root, new URL(u).pathname)),
    [path.join('on', 'src', 'scores.ts')],
  );
  assert.match(JSON.stringify(s.diagnostics.get(published[0])), /LEADERBOARD/);
  // 82 files: one request per folder (and one for the workspace-wide settings), not one per file.
  const asked = new Set(scopes);
  assert.ok(scopes.length <= 4, `${scopes.length} configuration items asked: ${[...asked].join(', ')}`);
  assert.ok(asked.has(offUri) && asked.has(pathToFileURL(on).toString()));
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { AnalysisCache, stampsBefore } from '../../server/src/engine/workspace/cache';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

/** What the analysis-cache tests share: the two ways to index a workspace, temp folders, a workspace. */

/** The CLI's default --max-file-size. */
export const MAX = 2048 * 1024;

/** Temp folders named `shardlens-<prefix>-<name>-…`, removed after the test file's tests. */
export function tempDirs(prefix: string): (name: string) => string {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  return (name) => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), `shardlens-${prefix}-${name}-`));
    dirs.push(d);
    return d;
  };
}

/** The index built without a cache, as `analyzeAll` builds it: its results as JSON. */
export async function plainResults(root: string): Promise<string> {
  await initParsers();
  const index = new WorkspaceIndex({ root, maxBytes: MAX });
  index.analyzeAll(collectFiles([root]).files);
  return JSON.stringify(index.results());
}

/**
 * The index built the CLI's way with a cache in `dir`: its results as JSON, the files restored
 * from the cache, the files read to be hashed, how many files there were and the notices.
 * `stampsFirst`: the files are stat'ed before the cache is read, as the CLI does for many
 * files (`stampsBefore`); `changed` is what that said.
 */
export async function cachedResults(
  root: string,
  dir: string,
  key: { version?: string; options?: Record<string, unknown>; stampsFirst?: boolean } = {},
) {
  const notices: string[] = [];
  const files = collectFiles([root]).files;
  const index = new WorkspaceIndex({ root, maxBytes: MAX });
  const before = key.stampsFirst ? stampsBefore(dir, 'check', files) : null;
  const cache = new AnalysisCache({
    dir,
    name: 'check',
    key: { version: key.version ?? 'v1', root, options: key.options ?? {} },
    notice: (l) => notices.push(l),
    stamps: before?.stamps,
  });
  await indexWorkspace(index, { files, infrastructure: [] }, { maxBytes: MAX, cache });
  const json = JSON.stringify(index.results());
  return { json, hits: cache.hits, reads: cache.reads, files: files.length, notices, changed: before?.changed };
}

/**
 * A writer whose key is built from another module's constant (src/prefix.ts → src/scores.ts)
 * and a module nothing DynamoDB touches (src/util.ts). `checkedOut`: written an hour ago, as a
 * checkout is, so their stamps can be trusted at once.
 */
export function writeScoresWorkspace(root: string, { checkedOut = false } = {}): void {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'prefix.ts'), `export const PREFIX = 'BOARD';\n`);
  fs.writeFileSync(
    path.join(root, 'src', 'scores.ts'),
    [
      `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
      `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';`,
      `import { PREFIX } from './prefix';`,
      ``,
      `const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
      ``,
      `export async function saveScore(playerId: string, score: number): Promise<void> {`,
      `  await db.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: \`\${PREFIX}#global\`, SK: playerId, score } }));`,
      `}`,
      ``,
    ].join('\n'),
  );
  fs.writeFileSync(path.join(root, 'src', 'util.ts'), `export const add = (a: number, b: number) => a + b;\n`);
  if (!checkedOut) return;
  const old = new Date(Date.now() - 3600_000);
  for (const f of ['prefix.ts', 'scores.ts', 'util.ts']) fs.utimesSync(path.join(root, 'src', f), old, old);
}

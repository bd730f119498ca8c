import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { assertSameText } from './same-text';

/**
 * A cached analysis holds the roles and project roots its findings were judged with. A
 * project marker added since (a package.json, a pyproject.toml) makes a folder a project
 * of its own: a file under `tools/` is then no longer a script of the outer project but
 * application code of its own, and the warm check must say what a cold one does.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js'); // `npm run build` first

function check(workspace: string, cache?: string): string {
  const args = [BIN, 'check', workspace, '--format', 'json', ...(cache ? ['--cache-location', cache] : [])];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return r.stdout;
}

const STORE_TS = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function recordVisit(page: string): Promise<void> {
  await db.send(new PutCommand({ TableName: 'visits', Item: { PK: 'VISITS#ALL', SK: page, at: Date.now() } }));
}
`;

const STORE_PY = `import time

import boto3

table = boto3.resource("dynamodb").Table("visits")


def record_visit(page):
    table.put_item(Item={"PK": "VISITS#ALL", "SK": page, "at": int(time.time())})
`;

const CASES: Array<{ name: string; outer: [string, string]; file: string; text: string; marker: [string, string] }> = [
  {
    name: 'package.json',
    outer: ['package.json', '{ "name": "shop" }\n'],
    file: 'store.ts',
    text: STORE_TS,
    marker: ['package.json', '{ "name": "visit-loader" }\n'],
  },
  {
    name: 'pyproject.toml',
    outer: ['pyproject.toml', '[project]\nname = "shop"\n'],
    file: 'store.py',
    text: STORE_PY,
    marker: ['pyproject.toml', '[project]\nname = "visit-loader"\n'],
  },
];

for (const c of CASES) {
  test(`a warm check after adding a ${c.name} gives the cold run's JSON`, () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cache-contexts-'));
    try {
      const workspace = path.join(tmp, 'shop');
      const folder = path.join(workspace, 'tools', 'visits');
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(workspace, c.outer[0]), c.outer[1]);
      fs.writeFileSync(path.join(folder, c.file), c.text);
      const cache = path.join(tmp, 'cache');

      const before = check(workspace, cache);
      assert.match(before, /"context": "script"/, 'under tools/ of the outer project the file is a script');

      fs.writeFileSync(path.join(folder, c.marker[0]), c.marker[1]);
      const warm = check(workspace, cache);
      const cold = check(workspace);
      assert.match(cold, /"context": "app"/, 'a project of its own, the file is application code');
      assert.notEqual(cold, before);
      assertSameText(warm, cold);
      // And the cache written by the warm run holds the new contexts.
      assert.equal(check(workspace, cache), cold);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
}

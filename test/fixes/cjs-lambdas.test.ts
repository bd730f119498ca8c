// Writer and reader of one key in two CommonJS Lambda packages: neither can require the
// other, so each gets its own copy of the shard count, naming the other file. Run with
// SDK v2 against dynalite, the fixed reader returns every item the fixed writer stored.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { CreateTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { writeFixes } from '../../server/src/features/fixes/index';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { cleanup, copyFixture, startDynalite, typeErrors } from './helpers-write';

const FIXTURES = path.join(__dirname, 'fixtures');
const run = promisify(execFile);
const VISITS = 60;
let dir = '';
before(() => {
  dir = copyFixture('cjs-lambdas', FIXTURES);
});
after(() => cleanup(dir));

const files = () => ['record-visit/index.js', 'list-visits/index.js'].map((f) => path.join(dir, f));

test('each CommonJS package declares the count, and the reader reads back every visit', async () => {
  await initParsers();
  const index = new WorkspaceIndex({ root: dir });
  index.analyzeAll(files());
  const ctx = fixContextOf(index, {});
  const finding = index
    .results()
    .flatMap((r) => r.findings)
    .find((f) => f.rule === 'SL001' && f.access.kind === 'write');
  assert.ok(finding, 'SL001 on the writer');
  const actions = writeFixes.flatMap((p) => p(finding, ctx));
  const random = actions.find((a) => a.id === 'add-random-shard');
  assert.ok(random, `the random fix is offered: ${JSON.stringify(actions.map((a) => a.title))}`);
  const byFile = new Map<string, typeof random.changes>();
  for (const c of random.changes) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  for (const [file, cs] of byFile) fs.writeFileSync(file, applyChanges(ctx.textOf(file)!, cs));

  const [writer, reader] = files().map((f) => fs.readFileSync(f, 'utf8'));
  assert.match(writer, /Keep equal to VISITS_SHARDS in \.\.\/list-visits\/index\.js\. \*\/\nconst VISITS_SHARDS = 10;/);
  // Past the file's 120 columns on one line: the doc comment over three.
  assert.match(
    reader,
    /\/\*\*\n \* Write shards of this key; readers must query all of them\. Keep equal to VISITS_SHARDS in \.\.\/record-visit\/index\.js\.\n \*\/\nconst VISITS_SHARDS = 10;/,
  );
  assert.doesNotMatch(writer + reader, /require\('\.\.\//, 'no package requires the other');
  for (const d of ['record-visit', 'list-visits']) assert.deepEqual(typeErrors(path.join(dir, d)), [], d);

  const db = await startDynalite();
  try {
    await db.client.send(
      new CreateTableCommand({
        TableName: 'visits',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    const source = `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: ${JSON.stringify(db.endpoint)}, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const record = require(${JSON.stringify(files()[0])});
const list = require(${JSON.stringify(files()[1])});
(async () => {
  for (let i = 0; i < ${VISITS}; i++) await record.handler({ visitId: 'v' + String(i).padStart(3, '0'), page: '/' });
  const items = await list.handler();
  console.log(JSON.stringify(items.map((x) => x.sk).sort()));
})();
`;
    const { stdout } = await run(process.execPath, ['-e', source], { cwd: path.resolve(__dirname, '..', '..') });
    const read: string[] = JSON.parse(stdout);
    assert.equal(read.length, VISITS, 'every visit comes back');
    assert.equal(new Set(read).size, VISITS);
    const stored = (await db.client.send(new ScanCommand({ TableName: 'visits' }))).Items ?? [];
    const keys = new Set(stored.map((i) => i.pk.S));
    assert.equal(stored.length, VISITS);
    assert.ok(keys.size > 1 && [...keys].every((k) => /^VISITS#\d$/.test(k!)), [...keys].join(', '));
  } finally {
    await db.close();
  }
});

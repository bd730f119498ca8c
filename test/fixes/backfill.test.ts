// A shard fix applied to a table in use: items stored by the code before the fix stay under
// the bare key, where no fixed reader looks. Each case stores items with the program as it
// was, applies the shard fix and its backfill script (generated in the project's language
// and SDK: an ES module for SDK v3, CommonJS for v2, Python for boto3), and against one
// dynalite shows: the fixed code misses the old items; the script's dry run changes
// nothing; the script moves every item, attributes and types untouched; the fixed code then
// reads exactly what the old code read; a second run finds nothing left.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { type AttributeValue, CreateTableCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { withoutKey } from './helpers-programs';
import { cleanup, copyFixture, runDriverAt, startDynalite } from './helpers-write';
import {
  exec,
  fixedCopy,
  fnv1a,
  MIGRATIONS,
  type Migration,
  runScript,
  scan,
  storedWithoutKey,
} from './helpers-backfill';

describe('backfill scripts move the items stored before a shard fix', () => {
  for (const m of MIGRATIONS) {
    test(`${m.fixture}: ${m.fix}`, async () => {
      const original = copyFixture(m.fixture, m.from);
      for (const f of m.without ?? []) fs.rmSync(path.join(original, f));
      const { dir, asks } = await fixedCopy(m);
      assert.deepEqual(asks[1], asks[0], 'the backfill asks what its fix asks');
      const db = await startDynalite();
      try {
        await db.client.send(new CreateTableCommand(m.table));
        const tableName = String(m.table.TableName);
        await runDriverAt(db.endpoint, original, m.language, m.write);
        const readBack = async (at: string) =>
          withoutKey(JSON.parse(await runDriverAt(db.endpoint, at, m.language, m.read)), m.key);
        const expected = await readBack(original);
        // An item of another key, which no step may touch.
        const bystander = bystanderOf(m);
        await db.client.send(new PutItemCommand({ TableName: tableName, Item: bystander }));
        const before = await scan(db, tableName);
        const bareKeys = new Set(before.map((i) => i[m.key]?.S).filter((v) => v && v !== bystander[m.key].S));
        assert.ok(bareKeys.size >= 1 && bareKeys.size <= 2, `stored under the bare key: ${[...bareKeys].join(', ')}`);

        const missed = await readBack(dir);
        assert.notDeepEqual(missed, expected, 'before the backfill the fixed code misses the stored items');

        if (m.language === 'python') {
          const black = await exec('black', ['--check', '-q', path.join(dir, m.script)]).then(
            () => 0,
            (e: { code?: number }) => e.code ?? -1,
          );
          assert.equal(black, 0, 'the Python script is laid out as black writes it');
        }
        const dry = await runScript(m, dir, db);
        assert.equal(dry.code, 0, dry.stderr);
        const moving = before.length - 1;
        assert.match(dry.stdout, new RegExp(`found ${moving} item\\(s\\) under`));
        assert.match(dry.stdout, /dry run: nothing changed/);
        assert.deepEqual(await scan(db, tableName), before, 'a dry run changes nothing');

        const applied = await runScript(m, dir, db, '--apply');
        assert.equal(applied.code, 0, applied.stderr);
        assert.match(applied.stdout, new RegExp(`moved ${moving}, conflicts 0, skipped 0`));

        const after = await scan(db, tableName);
        assert.deepEqual(
          storedWithoutKey(after, m.key),
          storedWithoutKey(before, m.key),
          'every item kept, types included',
        );
        const keys = after.map((i) => i[m.key]?.S ?? '');
        assert.deepEqual(
          keys.filter((k) => bareKeys.has(k)),
          [],
          'nothing left under the bare key',
        );
        assert.ok(new Set(keys).size > bareKeys.size + 2, `spread over shards: ${[...new Set(keys)].join(', ')}`);
        assert.deepEqual(
          after.find((i) => JSON.stringify(i) === JSON.stringify(bystander)),
          bystander,
          'the other key untouched',
        );
        assert.deepEqual(await readBack(dir), expected, 'the fixed code reads what the old code read');

        const again = await runScript(m, dir, db, '--apply');
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stdout, /found 0 item\(s\)/);
        console.log(`# ${m.fixture} ${m.fix}: ${moving} items moved to ${new Set(keys).size - 1} keys by ${m.script}`);
      } finally {
        await db.close();
        cleanup(dir);
        cleanup(original);
      }
    });
  }
});

/** An item under a key of its own, with the table's key attributes (Strings). */
function bystanderOf(m: Migration): Record<string, AttributeValue> {
  const item: Record<string, AttributeValue> = { note: { S: 'not of this key' } };
  for (const k of m.table.KeySchema ?? []) item[k.AttributeName!] = { S: `OTHER#${k.AttributeName}` };
  if (!item[m.key]) item[m.key] = { S: 'OTHER' };
  return item;
}

test('an interrupted move is finished, a different item at the shard is a conflict left in place', async () => {
  const m = MIGRATIONS[0];
  const { dir } = await fixedCopy(m);
  const db = await startDynalite();
  try {
    await db.client.send(new CreateTableCommand(m.table));
    const item = (id: string, title: string): Record<string, AttributeValue> => ({
      PK: { S: 'TICKETS#open' },
      SK: { S: `TICKET#${id}` },
      ticketId: { S: id },
      title: { S: title },
      tags: { SS: ['b', 'a', 'c'] },
      size: { N: '12.5' },
    });
    const atShard = (i: Record<string, AttributeValue>) => ({
      ...i,
      PK: { S: `TICKETS#open#${fnv1a(i.SK.S!) % 10}` },
    });
    const copied = item('t-1', 'Copied before an interruption');
    const clashing = item('t-2', 'Stored before the fix');
    for (const i of [copied, clashing, item('t-3', 'Plain')])
      await db.client.send(new PutItemCommand({ TableName: 'tickets', Item: i }));
    // The copy an interrupted run wrote (set members in another order), and an item an
    // update after the deploy created at t-2's shard.
    await db.client.send(
      new PutItemCommand({ TableName: 'tickets', Item: { ...atShard(copied), tags: { SS: ['c', 'a', 'b'] } } }),
    );
    const created = { ...atShard(clashing), title: { S: 'Changed after the deploy' } };
    await db.client.send(new PutItemCommand({ TableName: 'tickets', Item: created }));

    const run = await runScript(m, dir, db, '--apply');
    assert.equal(run.code, 1, 'a conflict makes the exit status 1');
    assert.match(run.stdout, /found 3 item\(s\)/);
    assert.match(run.stdout, /moved 2, conflicts 1, skipped 0/);
    assert.match(run.stderr, /conflict: PK = "TICKETS#open#\d", SK = "TICKET#t-2" holds another item/);
    const get = async (key: Record<string, AttributeValue>) =>
      (await db.client.send(new GetItemCommand({ TableName: 'tickets', Key: { PK: key.PK, SK: key.SK } }))).Item;
    assert.equal(await get(copied), undefined, 'the bare item of the finished move is gone');
    assert.equal((await get(atShard(copied)))?.title.S, 'Copied before an interruption');
    assert.equal((await get(clashing))?.title.S, 'Stored before the fix', 'the conflicting bare item stays');
    assert.equal((await get(created))?.title.S, 'Changed after the deploy', 'and so does the item at its shard');
    assert.equal((await scan(db, 'tickets')).length, 4);
  } finally {
    await db.close();
    cleanup(dir);
  }
});

test('the script goes to the scripts/ folder the project has, and asks for a table the code names only at deploy time', async () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-backfill-')));
  try {
    fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "events"\n');
    fs.mkdirSync(path.join(dir, 'backend', 'src'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'backend', 'scripts'));
    const file = path.join(dir, 'backend', 'src', 'events.py');
    fs.writeFileSync(
      file,
      [
        'import os',
        '',
        'import boto3',
        '',
        'STAGE = os.environ.get("STAGE", "dev")',
        'client = boto3.client("dynamodb")',
        '',
        '',
        'def record(day, event_id, body):',
        '    client.put_item(',
        '        TableName=f"events-{STAGE}",',
        '        Item={"pk": {"S": f"DAY#{day}"}, "sk": {"S": event_id}, "body": {"S": body}},',
        '    )',
        '',
      ].join('\n'),
    );
    await initParsers();
    const index = new WorkspaceIndex({ root: dir });
    index.analyzeAll([file]);
    const ctx = fixContextOf(index);
    const finding = index.results().flatMap((r) => r.findings)[0];
    assert.ok(finding, 'the day key is reported');
    const backfill = allFixes(finding, ctx).find((a) => a.id === 'add-random-shard-backfill');
    assert.ok(backfill);
    const script = backfill.changes[0].file;
    assert.equal(path.relative(dir, script), path.join('backend', 'scripts', 'backfill_day.py'));
    assert.match(
      backfill.changes[0].newText,
      /--table NAME \(default: none: pass the table the code names events-\{\$STAGE\}\)/,
    );
    fs.writeFileSync(script, backfill.changes[0].newText);
    const run = await exec('python3', [script]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? '' }),
    );
    assert.equal(run.code, 1, 'sys.exit with a message exits with status 1');
    assert.match(run.stderr, /no table: pass --table NAME \(the code names it events-\{\$STAGE\}\)/);
    // Given a table but no region or endpoint: one line that says so, not a traceback.
    const noRegion = await exec('python3', [script, '--table', 'events-dev'], {
      env: { PATH: process.env.PATH, HOME: dir, AWS_CONFIG_FILE: path.join(dir, 'none') },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? '' }),
    );
    assert.equal(noRegion.code, 1);
    assert.equal(noRegion.stderr, 'backfill failed: You must specify a region.\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

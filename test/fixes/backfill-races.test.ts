// A backfill runs while the old code may still be serving: between the script's copy of an
// item to its shard and its delete of the bare item, a writer can change the bare item,
// delete it, or (the fixed code) change the copy too. An endpoint in front of dynalite
// holds the script's DeleteItem of the bare item and makes such a write first, over the
// wire, so each script (SDK v3 module, SDK v2 CommonJS, boto3) meets each race for real.
// Nothing may be lost: a change lands on the copy, a deleted item's copy is kept, and when
// both sides changed, both versions stay and the run says so. And on a table with a stream
// (served by the lab, which reports it as DynamoDB does), where every move reaches the
// stream's consumers as a REMOVE, --apply waits to be told they are safe.

import assert from 'node:assert/strict';
import * as http from 'node:http';
import { describe, test } from 'node:test';
import {
  type AttributeValue,
  CreateTableCommand,
  DeleteItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { fixedCopy, MIGRATIONS, runScript, scan } from './helpers-backfill';
import { cleanup, copyFixture, type Dynalite, runDriverAt, startDynalite } from './helpers-write';
import { startTestLab } from '../lab/helpers';

type Item = Record<string, AttributeValue>;
type Race = 'changed' | 'deleted' | 'both changed';

interface Interposer {
  endpoint: string;
  /** The races run so far, by the bare item's sort key. */
  ran: string[];
  close(): Promise<void>;
}

/**
 * An HTTP endpoint that forwards every request to dynalite unchanged, except that before a
 * DeleteItem of a bare item it first runs `race` for that item against dynalite.
 */
async function interposer(db: Dynalite, isBare: (key: Item) => boolean, race: (key: Item) => Promise<string | null>) {
  const target = new URL(db.endpoint);
  const ran: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1];
      const key = operation === 'DeleteItem' ? (JSON.parse(body.toString()) as { Key: Item }).Key : null;
      const before = key && isBare(key) ? race(key) : Promise.resolve(null);
      void before.then((name) => {
        if (name) ran.push(name);
        const forward = http.request(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 500, answer.headers);
            answer.pipe(res);
          },
        );
        forward.end(body);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    ran,
    close: () => new Promise<void>((r) => server.close(() => r())),
  } satisfies Interposer;
}

// The programs whose scripts move items of the table key: one per SDK and language.
const CASES = MIGRATIONS.filter((m) => ['tickets-ts', 'bookings-v2', 'visits-py'].includes(m.fixture));

describe('a backfill racing the code that still writes the bare key loses nothing', () => {
  for (const m of CASES) {
    test(`${m.fixture} (${m.script.split('.').pop()})`, async () => {
      const original = copyFixture(m.fixture, m.from);
      const { dir } = await fixedCopy(m);
      const db = await startDynalite();
      const tableName = String(m.table.TableName);
      const sortKey = m.table.KeySchema!.find((k) => k.KeyType === 'RANGE')!.AttributeName!;
      let proxy: Interposer | undefined;
      try {
        await db.client.send(new CreateTableCommand(m.table));
        await runDriverAt(db.endpoint, original, m.language, m.write);
        const before = await scan(db, tableName);
        const bareValues = new Set(before.map((i) => i[m.key].S!));
        // Three items, one per race, each with a sort key no other item has (so its
        // versions are found by it alone).
        const sortKeys = before.map((i) => i[sortKey].S!);
        const chosen = sortKeys.filter((k) => sortKeys.indexOf(k) === sortKeys.lastIndexOf(k)).slice(0, 3);
        assert.equal(chosen.length, 3);
        const races = new Map<string, Race>([
          [chosen[0], 'changed'],
          [chosen[1], 'deleted'],
          [chosen[2], 'both changed'],
        ]);
        const set = (key: Item, value: string) =>
          db.client.send(
            new UpdateItemCommand({
              TableName: tableName,
              Key: key,
              UpdateExpression: 'SET edited = :v',
              ExpressionAttributeValues: { ':v': { S: value } },
            }),
          );
        const copyKeyOf = async (sk: string) => {
          const copy = (await scan(db, tableName)).find((i) => i[sortKey].S === sk && !bareValues.has(i[m.key].S!));
          assert.ok(copy, `the copy of ${sk} is written before the bare item is deleted`);
          return { [m.key]: copy[m.key], [sortKey]: copy[sortKey] };
        };
        const done = new Set<string>();
        proxy = await interposer(
          db,
          (key) => bareValues.has(key[m.key]?.S ?? ''),
          async (key) => {
            const sk = key[sortKey].S!;
            const race = races.get(sk);
            if (!race || done.has(sk)) return null;
            done.add(sk);
            if (race === 'changed') await set(key, 'by the old code during the move');
            if (race === 'deleted') await db.client.send(new DeleteItemCommand({ TableName: tableName, Key: key }));
            if (race === 'both changed') {
              await set(key, 'by the old code during the move');
              await set(await copyKeyOf(sk), 'by the fixed code during the move');
            }
            return race;
          },
        );

        const run = await runScript(m, dir, proxy, '--apply');
        assert.deepEqual(proxy.ran.sort(), ['both changed', 'changed', 'deleted']);
        assert.equal(run.code, 1, 'a deleted item kept and a two-sided change make the exit status 1');
        assert.match(run.stdout, new RegExp(`moved ${before.length - 2}, conflicts 2, skipped 0`));
        assert.match(run.stderr, /changed while it moved; its last version moved/);
        assert.match(run.stderr, /was gone when deleted; its copy at the shard kept/);
        assert.match(run.stderr, /both changed; its last version put back under the bare key/);

        const after = await scan(db, tableName);
        const versions = (sk: string) => after.filter((i) => i[sortKey].S === sk);
        const isCopy = (i: Item) => !bareValues.has(i[m.key].S!);
        const original0 = before.find((i) => i[sortKey].S === chosen[0])!;
        const changed = versions(chosen[0]);
        assert.equal(changed.length, 1, 'the changed item: one copy, at its shard');
        assert.ok(isCopy(changed[0]));
        assert.equal(changed[0].edited?.S, 'by the old code during the move', 'the change made the move');
        assert.deepEqual({ ...changed[0], [m.key]: null, edited: null }, { ...original0, [m.key]: null, edited: null });

        const deleted = versions(chosen[1]);
        assert.equal(deleted.length, 1, 'the deleted item: its copy kept, nothing lost');
        assert.ok(isCopy(deleted[0]));

        const both = versions(chosen[2]);
        assert.deepEqual(both.map((i) => [isCopy(i), i.edited?.S]).sort(), [
          [false, 'by the old code during the move'],
          [true, 'by the fixed code during the move'],
        ]);
        assert.equal(after.length, before.length + 1, 'every other item moved once');
        assert.equal(after.filter((i) => !isCopy(i)).length, 1, 'only the two-sided conflict left under the bare key');
      } finally {
        await proxy?.close();
        await db.close();
        cleanup(dir);
        cleanup(original);
      }
    });
  }
});

describe('on a table with a stream, --apply needs --despite-stream', () => {
  for (const m of CASES.filter((c) => c.fixture !== 'bookings-v2')) {
    test(`${m.fixture} (${m.script.split('.').pop()})`, async () => {
      const original = copyFixture(m.fixture, m.from);
      const { dir } = await fixedCopy(m);
      const lab = await startTestLab();
      const tableName = String(m.table.TableName);
      try {
        await lab.ddb.send(
          new CreateTableCommand({
            ...m.table,
            StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
          }),
        );
        await runDriverAt(lab.lab.url, original, m.language, m.write);
        const db = { client: lab.ddb, endpoint: lab.lab.url };
        const before = await scan(db, tableName);

        const dry = await runScript(m, dir, db);
        assert.equal(dry.code, 0, dry.stderr);
        assert.match(dry.stderr, new RegExp(`${tableName} has a stream \\(NEW_AND_OLD_IMAGES\\)`));
        const refused = await runScript(m, dir, db, '--apply');
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(refused.stderr, /--apply on a table with a stream needs --despite-stream/);
        assert.deepEqual(await scan(db, tableName), before, 'nothing moved');

        const applied = await runScript(m, dir, db, '--apply', '--despite-stream');
        assert.equal(applied.code, 0, applied.stderr);
        assert.match(applied.stdout, new RegExp(`moved ${before.length}, conflicts 0, skipped 0`));
      } finally {
        await lab.close();
        cleanup(dir);
        cleanup(original);
      }
    });
  }
});

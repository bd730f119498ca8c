// The cache fix on a read-hot key of a few values (SL003, docs/fixes.md): a status index read by
// every request handler and written by an operator script, a per-country lookup written by a
// script. The fix keeps one cache entry per value (a read of `closed` never gets the entry of
// `open`); the fixed TypeScript type-checks, the fixed Python compiles, and both return what they
// returned before against dynalite.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createTable, stringKeyTable } from '../lab/helpers';
import { allFixes } from '../../server/src/features/fixes/index';
import {
  applyAction,
  cleanup,
  copyFixture,
  indexWorkspace,
  pythonErrors,
  runDriverAt,
  startDynalite,
  typeErrors,
} from './helpers-write';

const FIXTURES = path.join(__dirname, 'fixtures', 'cache');
const made: string[] = [];
const copy = (name: string) => {
  const dir = copyFixture(name, FIXTURES);
  made.push(dir);
  return dir;
};
after(() => made.forEach(cleanup));

/** Applies the SL003 cache fix once; the title, and the findings of the code analysed again. */
async function fixOnce(dir: string): Promise<string> {
  const ws = await indexWorkspace(dir);
  const read = ws.findings.find((f) => f.rule === 'SL003' && f.messageId === 'readHot');
  assert.ok(read, 'a read-hot SL003 read');
  const cache = allFixes(read, ws.ctx).find((a) => a.id === 'cache-read');
  assert.ok(cache, 'the cache fix offered');
  applyAction(ws.ctx, cache);
  // Analysed again: the read is served from the cache, a note with no fix; no read-hot read is left.
  const again = await indexWorkspace(dir);
  const few = again.findings.filter((f) => f.rule === 'SL003' && f.access.kind === 'read');
  assert.ok(few.length > 0);
  for (const f of few) {
    assert.equal(f.messageId, 'cachedRead', f.message);
    assert.equal(f.severity, 'info');
    assert.match(
      f.message,
      /served from memory through shardlens_?[cC]ached: each running process sends it about once per value and TTL/,
    );
    assert.deepEqual(allFixes(f, again.ctx), []);
  }
  return cache.title;
}

test('a status index read by every handler, written by a script: read-hot, cached per value, the write a note', async () => {
  const dir = copy('tickets-ts');
  const ws = await indexWorkspace(dir);
  const sl003 = ws.findings.filter((f) => f.rule === 'SL003');
  const read = sl003.find((f) => f.access.kind === 'read')!;
  assert.equal(read.messageId, 'readHot');
  assert.equal(read.severity, 'warning');
  // The handlers' calls read `open`, `pending` and `closed`: values of the key, counted as its reads.
  assert.deepEqual(read.keyUse, {
    verdict: 'read',
    reads: 5,
    writes: 1,
    readEntries: null,
    writeEntries: null,
    mostly: true,
  });
  assert.match(
    read.message,
    /takes only a few distinct values \(`status`\) and is read-hot \(read at 5 call sites, written at 1 call site\): the most common value's reads hit one partition, capped at 3,000 RCU\/s/,
  );
  assert.match(read.message, /one entry per value; a write shard would not help/);
  const write = sl003.find((f) => f.access.kind === 'write' && f.file.endsWith('tickets.ts'))!;
  assert.equal(write.messageId, 'rarelyWritten');
  assert.equal(write.severity, 'info');
  assert.deepEqual(allFixes(write, ws.ctx), []);
  assert.equal(
    await fixOnce(dir),
    "Cache reads of '{status}' for 30 s, one entry per value (readers may see values up to 30 s old)",
  );
  assert.deepEqual(typeErrors(dir), []);
  const fixed = fs.readFileSync(path.join(dir, 'tickets.ts'), 'utf8');
  assert.match(
    fixed,
    // A read written over lines: the cache call takes one argument a line, the read on the
    // line after its arrow, as prettier lays it out.
    /shardlensCached\(\n {4}`tickets · byStatus · status = \$\{status\} · Query`,\n {4}STATUS_CACHE_TTL_MS,\n {4}\(\) =>\n {6}ddb\.send\(\n {8}new QueryCommand/,
  );
  assert.match(fixed, /export async function listByStatus\(status: TicketStatus\): Promise<Ticket\[\]> \{/);
});

test('a per-country lookup in a boto3 Lambda, written by an operator script: cached per country, compiles', async () => {
  const dir = copy('regions-py');
  const ws = await indexWorkspace(dir);
  const read = ws.findings.find((f) => f.rule === 'SL003' && f.access.kind === 'read')!;
  assert.equal(read.messageId, 'readHot');
  const script = ws.findings.find((f) => f.rule === 'SL003' && f.file.endsWith('update_rules.py'))!;
  assert.equal(script.messageId, 'rarelyWritten');
  assert.ok(!script.fixes.some((x) => x.kind === 'add-shard-suffix'));
  assert.equal(
    await fixOnce(dir),
    "Cache reads of 'COUNTRY#{country}' for 30 s, one entry per value (readers may see values up to 30 s old)",
  );
  assert.deepEqual(pythonErrors(dir), []);
  const fixed = fs.readFileSync(path.join(dir, 'regions.py'), 'utf8');
  assert.match(
    fixed,
    // Past the file's width on one line: one argument a line, as black breaks it.
    /shardlens_cached\(\n {8}f"REGIONS_TABLE · pk = COUNTRY#\{country\} · GetItem · sk = shipping",\n {8}COUNTRY_COUNTRY_CACHE_TTL_SECONDS,\n {8}lambda: table\.get_item\(Key=\{"pk": f"COUNTRY#\{country\}", "sk": "shipping"\}\),\n {4}\)/,
  );
});

test('a key value computed in the call is not cached: the entry could not be told by its value', async () => {
  const dir = copy('tickets-ts');
  const file = path.join(dir, 'tickets.ts');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("':s': status }", "':s': status.toLowerCase() }"));
  const ws = await indexWorkspace(dir);
  const read = ws.findings.find((f) => f.rule === 'SL003' && f.access.kind === 'read' && f.file === file);
  assert.ok(read, ws.findings.map((f) => `${f.rule} ${f.message}`).join('\n'));
  assert.deepEqual(
    allFixes(read, ws.ctx).map((a) => a.title),
    [
      "No cache fix: the key's value is not written in the Query call as a plain name or template, so the cache cannot keep one entry per value",
    ],
  );
});

test('the fixed programs return what they returned before, each value its own entry (dynalite)', async () => {
  const db = await startDynalite();
  try {
    await createTable(db.client, stringKeyTable('tickets', { indexes: { byStatus: 'status' } }));
    await createTable(db.client, stringKeyTable('regions', { sortKey: true }));
    const tickets: Array<[string, string]> = [
      ['1', 'open'],
      ['2', 'open'],
      ['3', 'pending'],
      ['4', 'closed'],
      ['5', 'closed'],
      ['6', 'closed'],
    ];
    for (const [id, status] of tickets)
      await db.client.send(
        new PutItemCommand({
          TableName: 'tickets',
          Item: { pk: { S: `TICKET#${id}` }, status: { S: status }, subject: { S: `subject ${id}` } },
        }),
      );
    for (const [country, fee, enabled] of [
      ['FR', '7', true],
      ['DE', '5', true],
      ['BR', '0', false],
    ] as const)
      await db.client.send(
        new PutItemCommand({
          TableName: 'regions',
          Item: { pk: { S: `COUNTRY#${country}` }, sk: { S: 'shipping' }, fee: { N: fee }, enabled: { BOOL: enabled } },
        }),
      );
    const driveTs = `import { archive, dashboard, queue } from './handlers';
(async () => {
  const out = [];
  for (let i = 0; i < 2; i++) out.push(await queue({}), await dashboard({}), await archive({}));
  console.log(JSON.stringify(out));
})();
`;
    const drivePy = `import json, regions
orders = [{"body": json.dumps({"country": c})} for c in ["FR", "DE", "FR", "BR", "DE"]]
print(json.dumps([regions.handler(o, None) for o in orders]))
`;
    const outputs: string[] = [];
    for (const fixed of [false, true]) {
      const ts = copy('tickets-ts');
      const py = copy('regions-py');
      if (fixed) {
        await fixOnce(ts);
        await fixOnce(py);
      }
      outputs.push(
        (await runDriverAt(db.endpoint, ts, 'node', driveTs)) +
          (await runDriverAt(db.endpoint, py, 'python', drivePy, { REGIONS_TABLE: 'regions' })),
      );
    }
    // Each status and each country gets its own items: one entry per value, not one for the key.
    assert.match(outputs[0], /\\"subject 1\\",\\"subject 2\\"/);
    assert.match(outputs[0], /\\"open\\":2,\\"pending\\":1/);
    assert.match(outputs[0], /\\"TICKET#4\\",\\"TICKET#5\\",\\"TICKET#6\\"/);
    assert.match(outputs[0], /fee\\": 7.*fee\\": 5.*fee\\": 7.*no shipping.*fee\\": 5/);
    assert.equal(outputs[1], outputs[0]);
  } finally {
    await db.close();
  }
});

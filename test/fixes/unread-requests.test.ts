// A request of the table whose key ShardLens could not read may be a request of the key a
// shard fix moves (test/fixtures/fixes/unread-request: a ticket desk's handlers, one writing
// every ticket under pk "TICKETS", one reading a ticket by a key a package outside the
// workspace builds). After the fix the ticket would live under "TICKETS#<n>": that get would
// find nothing. So the fix is refused, naming the request; a request whose known part rules
// the key out (`USER#${userIdOf(event)}`) does not refuse it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allFixes, blockedFixes } from '../../server/src/features/fixes';
import { cleanup, copyFixture } from './helpers-write';
import { indexed } from './helpers-programs';

// Outside the type-checked tree: the fixtures import packages this project does not install.
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'fixes');

async function ticketsPut(dir: string) {
  const { ctx, findings } = await indexed(path.join(dir, 'src'));
  const put = findings.find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
  assert.ok(put, 'SL001 on the put of "TICKETS"');
  return {
    fixes: allFixes(put, ctx).filter((a) => a.changes.length > 0 && /shard/.test(a.id)),
    blocked: blockedFixes(put, ctx).map((a) => a.title),
  };
}

test('a request whose key could not be read refuses the shard fix of a key it may be', async () => {
  const dir = copyFixture('unread-request', FIXTURES);
  try {
    const r = await ticketsPut(dir);
    assert.deepEqual(r.fixes, []);
    assert.deepEqual(r.blocked, [
      "No shard fix: ShardLens could not read all of the GetItem at get-ticket.ts:11 (Key from keyOf('ticket', event.pathParameters!.id!)): if it is a request of this key, it would no longer find the items once they are sharded",
    ]);
  } finally {
    cleanup(dir);
  }
});

test('once that key is built in the workspace, the fix is offered (the USER# read never was in the way)', async () => {
  const dir = copyFixture('unread-request', FIXTURES);
  try {
    const get = path.join(dir, 'src', 'get-ticket.ts');
    const text = fs.readFileSync(get, 'utf8');
    const local = text
      .replace("import { keyOf } from '@desk/keys';\n", '')
      .replace("keyOf('ticket', event.pathParameters!.id!)", '{ pk: `TICKET#${event.pathParameters!.id!}`, sk: "A" }');
    assert.notEqual(local, text);
    fs.writeFileSync(get, local);
    const r = await ticketsPut(dir);
    assert.deepEqual(r.blocked, []);
    assert.ok(r.fixes.length > 0, 'a shard fix is offered');
  } finally {
    cleanup(dir);
  }
});

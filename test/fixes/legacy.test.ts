// A read written with the legacy parameters (`KeyConditions`, `AttributesToGet`), as
// code from before expressions still is: a shard fix replaces it by a reader of every
// shard that asks for the same attributes through the `ProjectionExpression` they mean
// (an alias per name; the sort key the merge needs asked for too and removed after).
// The same lobby of a chat on SDK v2's DocumentClient, lib-dynamodb and boto3's Table
// runs against dynalite before and after each offered fix and must read the same.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import { cleanup, copyFixture } from './helpers-write';
import { checkProgram, hotWriter, indexed, table, type Program } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures', 'legacy');
const MESSAGES = table('messages', 'room', ['postedAt', 'S']);
const writer = { rule: 'SL001', operation: 'PutItem' };

/** 30 messages posted in another order than their times, then two reads since a moment. */
const NODE_DRIVE = (setup: string) => `${setup}
(async () => {
  for (let i = 0; i < 30; i++) {
    const at = new Date(Date.UTC(2026, 11, 1, 9, (i * 7) % 30, i)).toISOString();
    await lobby.post({ messageId: 'm-' + i, author: 'user' + (i % 4), text: 'message ' + i, postedAt: at });
  }
  console.log(JSON.stringify({ all: await lobby.since(''), later: await lobby.since('2026-12-01T09:15:00Z') }));
})();
`;

const PROGRAMS: Program[] = [
  {
    fixture: 'v2-lobby',
    table: MESSAGES,
    key: 'room',
    writer,
    offered: ['add-random-shard', 'add-hash-shard'],
    drive: NODE_DRIVE(`const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const lobby = require('./lobby');`),
  },
  {
    fixture: 'v3-lobby',
    table: MESSAGES,
    key: 'room',
    writer,
    offered: ['add-random-shard'],
    drive: NODE_DRIVE(`import * as lobby from './lobby';`),
  },
  {
    fixture: 'py-lobby',
    table: MESSAGES,
    key: 'room',
    writer,
    offered: ['add-random-shard', 'add-hash-shard'],
    language: 'python',
    drive: `import json
from datetime import datetime, timezone
import lobby
for i in range(30):
    at = datetime(2026, 12, 1, 9, (i * 7) % 30, i, tzinfo=timezone.utc).isoformat().replace("+00:00", "Z")
    lobby.post(f"m-{i}", f"user{i % 4}", f"message {i}", at)
print(json.dumps({"all": lobby.since(""), "later": lobby.since("2026-12-01T09:15:00Z")}))
`,
  },
];

for (const p of PROGRAMS)
  test(`${p.fixture}: AttributesToGet is kept as a projection by a reader of every shard (dynalite)`, async () => {
    const before = (await checkProgram(p, FIXTURES)).read as Record<'all' | 'later', Array<Record<string, string>>>;
    // What the legacy read returns: who wrote what, in posting order.
    assert.equal(before.all.length, 30);
    assert.deepEqual(before.all[0], { author: 'user0', text: 'message 0' });
    assert.ok(before.all.every((m) => Object.keys(m).sort().join() === 'author,text'));
    assert.equal(before.later.length, 15);
    // The reader asks for the attributes the read asked for, in the expression form.
    const copy = copyFixture(p.fixture, FIXTURES);
    try {
      const { ctx, findings } = await indexed(copy);
      const fix = allFixes(hotWriter(p, findings)!, ctx).find((a) => a.id === 'add-random-shard')!;
      const text = fix.changes.map((c) => c.newText).join('\n');
      assert.match(text, /ProjectionExpression["']?: ["']#author, #text["']/);
      assert.doesNotMatch(text, /AttributesToGet/);
    } finally {
      cleanup(copy);
    }
  });

/** The light bulb's refusal on the lobby's writer when its read is edited so. */
async function refusal(edit: (text: string) => string): Promise<string> {
  const p = PROGRAMS[0];
  const copy = copyFixture(p.fixture, FIXTURES);
  try {
    const file = path.join(copy, 'lobby.js');
    const text = fs.readFileSync(file, 'utf8');
    assert.notEqual(edit(text), text, 'the variant changes the read');
    fs.writeFileSync(file, edit(text));
    const { ctx, findings } = await indexed(copy);
    const actions = allFixes(hotWriter(p, findings)!, ctx);
    assert.deepEqual(
      actions.filter((a) => a.id === 'add-random-shard' || a.id === 'add-hash-shard').map((a) => a.title),
      [],
      'no shard fix',
    );
    return actions.find((a) => a.id === 'shard-fix-blocked')?.title ?? '';
  } finally {
    cleanup(copy);
  }
}

test('what cannot be kept equal is still refused, with the reason', async () => {
  const filtered = await refusal((t) =>
    t.replace(
      "AttributesToGet: ['author', 'text'],",
      "AttributesToGet: ['author', 'text'],\n      QueryFilter: { author: { ComparisonOperator: 'EQ', AttributeValueList: ['user1'] } },",
    ),
  );
  assert.match(filtered, /the Query at lobby\.js:\d+ cannot be replaced .*: it uses the legacy QueryFilter/);
  // The attributes a caller chooses: the names cannot be read where the reader is written.
  const chosen = await refusal((t) =>
    t
      .replace("AttributesToGet: ['author', 'text'],", 'AttributesToGet: fields,')
      .replace('async function since(since) {', 'async function since(since, fields) {'),
  );
  assert.match(chosen, /its AttributesToGet is built where the reader cannot read the names/);
});

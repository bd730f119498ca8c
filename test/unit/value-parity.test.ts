import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from '../../server/src/engine/model/template';
import { analyze } from './helpers';

/*
 * The same key expression written in TypeScript and in Python must give the same key
 * template: both front-ends hand the language-neutral value operations (arithmetic on
 * constants and shard parts, joining templates, members of known objects, enum members)
 * to one module, value-ops.ts. Each pair is also held to the template a reader expects,
 * so a mistake the two shared would not pass either.
 */

const PAIRS: Array<{ what: string; ts: string; py: string; key: string }> = [
  { what: 'a constant', ts: '"BOARD#global"', py: '"BOARD#global"', key: 'BOARD#global' },
  { what: 'two constants joined', ts: '"BOARD#" + "global"', py: '"BOARD#" + "global"', key: 'BOARD#global' },
  { what: 'a named constant', ts: 'GLOBAL', py: 'GLOBAL', key: 'BOARD#global' },
  { what: 'an entity id', ts: '`USER#${userId}`', py: 'f"USER#{userId}"', key: 'USER#{entity-id}' },
  { what: 'joined with an id', ts: '"USER#" + userId', py: '"USER#" + userId', key: 'USER#{entity-id}' },
  {
    what: 'a random shard 0..N-1',
    ts: '`BOARD#${Math.floor(Math.random() * 10)}`',
    py: 'f"BOARD#{random.randrange(10)}"',
    key: 'BOARD#{shard 0..9}',
  },
  {
    what: 'a random shard plus one after',
    ts: '`BOARD#${Math.floor(Math.random() * 10) + 1}`',
    py: 'f"BOARD#{random.randrange(10) + 1}"',
    key: 'BOARD#{shard 1..10}',
  },
  {
    what: 'one plus a random shard',
    ts: '`BOARD#${1 + Math.floor(Math.random() * 10)}`',
    py: 'f"BOARD#{1 + random.randrange(10)}"',
    key: 'BOARD#{shard 1..10}',
  },
  {
    what: 'a shard count constant',
    ts: '`BOARD#${randomInt(SHARDS)}`',
    py: 'f"BOARD#{random.randrange(SHARDS)}"',
    key: 'BOARD#{shard 0..9}',
  },
  {
    what: 'a random shard between two bounds',
    ts: '`BOARD#${randomInt(1, 11)}`',
    py: 'f"BOARD#{random.randint(1, 10)}"',
    key: 'BOARD#{shard 1..10}',
  },
  {
    what: 'a hash modulo a number',
    ts: '`CART#${crc32(userId) % 8}`',
    py: 'f"CART#{zlib.crc32(userId.encode()) % 8}"',
    key: 'CART#{shard 0..7}',
  },
  {
    what: 'a hash modulo the shard constant',
    ts: '`CART#${crc32(userId) % SHARDS}`',
    py: 'f"CART#{zlib.crc32(userId.encode()) % SHARDS}"',
    key: 'CART#{shard 0..9}',
  },
  { what: 'constant arithmetic', ts: '`BOARD#${SHARDS - 1}`', py: 'f"BOARD#{SHARDS - 1}"', key: 'BOARD#9' },
  { what: 'a constant modulo a constant', ts: '`BOARD#${SHARDS % 4}`', py: 'f"BOARD#{SHARDS % 4}"', key: 'BOARD#2' },
  {
    what: 'a shard joined after a prefix',
    ts: '"BOARD#" + randomInt(SHARDS)',
    py: '"BOARD#" + str(random.randrange(SHARDS))',
    key: 'BOARD#{shard 0..9}',
  },
  {
    what: 'an hour bucket of the clock',
    ts: '`HOUR#${Math.floor(Date.now() / 3600000)}`',
    py: 'f"HOUR#{int(time.time() // 3600)}"',
    key: 'HOUR#{time}',
  },
  {
    what: 'a day cut from an ISO timestamp',
    ts: '`DAY#${new Date().toISOString().slice(0, 10)}`',
    py: 'f"DAY#{datetime.utcnow().isoformat()[:10]}"',
    key: 'DAY#{time}',
  },
  {
    what: 'an enum member of another module',
    ts: '`ORDER#${OrderStatus.OPEN}`',
    py: 'f"ORDER#{OrderStatus.OPEN}"',
    key: 'ORDER#{OrderStatus.OPEN}',
  },
  {
    what: 'a digit written as a string before a shard',
    ts: '"BOARD#1" + randomInt(SHARDS)',
    py: '"BOARD#1" + str(random.randrange(SHARDS))',
    key: 'BOARD#1{shard 0..9}',
  },
  { what: 'two digit strings joined', ts: '"7" + "3"', py: '"7" + "3"', key: '73' },
  {
    what: 'an id taken when present, else a fresh UUID',
    ts: '(body.id && String(body.id).trim()) || randomUUID()',
    py: '(body.id and str(body.id).strip()) or str(uuid.uuid4())',
    key: '{entity-id}',
  },
  {
    what: 'a digit string then a shard',
    ts: '"1" + randomInt(SHARDS)',
    py: '"1" + str(random.randrange(SHARDS))',
    key: '1{shard 0..9}',
  },
  { what: 'a member of a constants object', ts: 'KEYS.board', py: 'KEYS["board"]', key: 'BOARD#global' },
  {
    what: "a stream record's attribute, through its type tag",
    ts: 'record.dynamodb.NewImage.playerId.S',
    py: 'record["dynamodb"]["NewImage"]["playerId"]["S"]',
    key: '{entity-id}',
  },
];

const ts = (expr: string) => `import { randomInt } from "node:crypto";
import { crc32 } from "node:zlib";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { OrderStatus } from "./status";

const SHARDS = 10;
const GLOBAL = "BOARD#global";
const KEYS = { board: "BOARD#global" };
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function save(userId: string) {
  await doc.send(new PutCommand({ TableName: "app", Item: { pk: ${expr}, sk: "x" } }));
}
`;

const py = (expr: string) => `import random
import time
import zlib
from datetime import datetime

import boto3

from status import OrderStatus

SHARDS = 10
GLOBAL = "BOARD#global"
KEYS = {"board": "BOARD#global"}
table = boto3.resource("dynamodb").Table("app")


def save(userId):
    table.put_item(Item={"pk": ${expr}, "sk": "x"})
`;

async function keyOf(file: string, text: string): Promise<string> {
  const r = await analyze(file, text);
  assert.equal(r.skipped, null, text);
  assert.equal(r.accesses.length, 1, text);
  const pk = r.accesses[0].partitionKey;
  assert.ok(pk, `no partition key read in:\n${text}`);
  return render(pk.template);
}

test('at least 15 pairs, each a different expression', () => {
  assert.ok(PAIRS.length >= 15);
  assert.equal(new Set(PAIRS.map((p) => p.ts)).size, PAIRS.length);
});

for (const p of PAIRS) {
  test(`TS and Python agree: ${p.what} (${p.ts} / ${p.py})`, async () => {
    const inTs = await keyOf('/srv/app/save.ts', ts(p.ts));
    const inPy = await keyOf('/srv/app/save.py', py(p.py));
    assert.equal(inTs, inPy, 'the same template in both languages');
    assert.equal(inTs, p.key);
  });
}

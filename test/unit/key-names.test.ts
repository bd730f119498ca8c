import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyze, indexedWorkspace } from './helpers';
import { logicalKeyOf } from '../../server/src/engine/keys/logical-key';
import type { FileAnalysis } from '../../server/src/engine/analyze';

/**
 * Key attribute names (and expression values) written through constants: enums,
 * frozen objects, class statics, Python classes and enums in another module, a `Proxy`
 * that returns its key, a helper that returns its argument. The model carries the
 * attribute name, never the source text (`[UserVotesKeys.pk]`, `#pk`, `Keys.PK`).
 */

/** `line logical key` per access, 1-based lines of the call. */
function keys(r: FileAnalysis): string[] {
  return r.accesses.map((a) => `${a.span.startLine + 1} ${logicalKeyOf(a)?.id ?? 'none'}`);
}

const KEYS_TS = `export enum VoteKeys {
  pk = "PK",
  sk = "SK",
}

export const UserVotesKeys = Object.freeze({ pk: "PK", sk: "SK" });

export class Aliases {
  static readonly PK = "#pk";
  static readonly SK = "#sk";
}

export const VALS = { pk: ":pk", sk: ":sk" } as const;
`;

const VOTES_TS = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { Aliases, UserVotesKeys, VALS, VoteKeys } from "../db/keys";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = "user-votes";

export class VoteRepository {
  async cast(pollId: string, userId: string): Promise<void> {
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: { [UserVotesKeys.pk]: "VOTES", [UserVotesKeys.sk]: \`\${pollId}#\${userId}\` },
      }),
    );
  }

  async forPoll(pollId: string) {
    const out = await doc.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: \`\${Aliases.PK} = \${VALS.pk} AND begins_with(\${Aliases.SK}, \${VALS.sk})\`,
        ExpressionAttributeNames: { [Aliases.PK]: VoteKeys.pk, [Aliases.SK]: VoteKeys.sk },
        ExpressionAttributeValues: { [VALS.pk]: "VOTES", [VALS.sk]: pollId },
      }),
    );
    return out.Items ?? [];
  }

  async members() {
    return doc.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: "#pk = :pk",
        ExpressionAttributeNames: { "#pk": UserVotesKeys.pk },
        ExpressionAttributeValues: { [":pk"]: "MEMBERS" },
      }),
    );
  }
}
`;

test('TS: names and values through an enum, a frozen object and class statics in another module', async () => {
  const { index, dir } = await indexedWorkspace({ 'src/db/keys.ts': KEYS_TS, 'src/votes/repository.ts': VOTES_TS });
  const r = index.results().find((x) => x.file === path.join(dir, 'src/votes/repository.ts'))!;
  assert.deepEqual(keys(r), [
    '11 user-votes · PK = VOTES',
    '20 user-votes · PK = VOTES',
    '32 user-votes · PK = MEMBERS',
  ]);
  const query = r.accesses[1];
  assert.equal(query.sortCondition?.attribute, 'SK');
  assert.equal(query.sortCondition?.operator, 'begins_with');
  assert.deepEqual(
    r.findings.map((f) => `${f.span.startLine + 1} ${f.rule}`),
    ['13 SL001', '24 SL001', '36 SL001'],
  );
});

test('TS: a Proxy that returns its key and a helper that returns its argument name each attribute', async () => {
  const r = await analyze(
    'src/feed.ts',
    `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const K = new Proxy({} as Record<string, string>, { get: (_target, prop) => String(prop) });
const attr = (name: string) => name;

export async function post(userId: string, body: string) {
  await doc.send(new PutCommand({ TableName: "feed", Item: { [K.pk]: "FEED", [K.sk]: userId, body } }));
  await doc.send(new PutCommand({ TableName: "wall", Item: { [attr("sk")]: userId, [attr("pk")]: "WALL", body } }));
}
`,
  );
  assert.deepEqual(keys(r), ['9 feed · pk = FEED', '10 wall · pk = WALL']);
  assert.deepEqual(
    r.accesses.map((a) => a.sortKey?.attribute),
    ['sk', 'sk'],
  );
});

test("TS: an alias whose name is not in the request is named by the table's keys another call tells", async () => {
  const r = await analyze(
    'src/groups.ts',
    `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function members(schema: { partition: string }) {
  return doc.send(
    new QueryCommand({
      TableName: "groups",
      KeyConditionExpression: "#pk = :pk",
      ExpressionAttributeNames: { "#pk": schema.partition },
      ExpressionAttributeValues: { ":pk": "MEMBERS" },
    }),
  );
}

export async function member(userId: string) {
  return doc.send(new GetCommand({ TableName: "groups", Key: { groupId: "G#1", userId } }));
}
`,
  );
  assert.deepEqual(keys(r), ['8 groups · groupId = MEMBERS', '18 groups · groupId = G#1']);
});

test('Python: a class and an Enum of key names in another module, through Key() and expression names', async () => {
  const { index, dir } = await indexedWorkspace({
    'app/__init__.py': '',
    'app/keys.py': `from enum import Enum


class Keys:
    PK = "pk"
    SK = "sk"


class Attr(str, Enum):
    PK = "PK"
    SK = "SK"
`,
    'app/members.py': `import boto3
from boto3.dynamodb.conditions import Key

from .keys import Attr, Keys

table = boto3.resource("dynamodb").Table("groups")


def members():
    return table.query(
        KeyConditionExpression="#pk = :pk",
        ExpressionAttributeNames={"#pk": Keys.PK},
        ExpressionAttributeValues={":pk": "MEMBERS"},
    )["Items"]


def admins():
    return table.query(KeyConditionExpression=Key(Keys.PK).eq("ADMINS"))["Items"]


def legacy():
    return boto3.client("dynamodb").query(
        TableName="legacy",
        KeyConditionExpression="#p = :p",
        ExpressionAttributeNames={"#p": Attr.PK.value},
        ExpressionAttributeValues={":p": {"S": "ALL"}},
    )["Items"]


def add(user_id):
    table.put_item(Item={Keys.PK: "MEMBERS", Keys.SK: user_id})
`,
  });
  const r = index.results().find((x) => x.file === path.join(dir, 'app/members.py'))!;
  assert.deepEqual(keys(r), [
    '10 groups · pk = MEMBERS',
    '18 groups · pk = ADMINS',
    '22 legacy · PK = ALL',
    '31 groups · pk = MEMBERS',
  ]);
});

test('a class getter or property that returns today is time, not a constant named by its source', async () => {
  const ts = await analyze(
    'src/daily.ts',
    `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class DT {
  static get TODAY_ISO(): string {
    return new Date().toISOString().slice(0, 10);
  }
}

export async function track(userId: string) {
  await doc.send(new PutCommand({ TableName: "daily", Item: { pk: \`DAY#\${DT.TODAY_ISO}\`, sk: userId } }));
}
`,
  );
  assert.deepEqual(keys(ts), ['13 daily · pk = DAY#{time}']);
  assert.deepEqual(
    ts.findings.map((f) => f.rule),
    ['SL002'],
  );
  const py = await analyze(
    'app/daily.py',
    `import datetime

import boto3

table = boto3.resource("dynamodb").Table("daily")


class Clock:
    @property
    def partition_label(self):
        return datetime.datetime.utcnow().strftime("%Y-%m-%d")


clock = Clock()


def track(user_id):
    table.put_item(Item={"pk": f"DAY#{clock.partition_label}", "sk": user_id})
`,
  );
  assert.deepEqual(keys(py), ['18 daily · pk = DAY#{time}']);
});

test('a date the request carries is an input, not the clock: no SL002, and a parameter named for a day still is one', async () => {
  const ts = await analyze(
    'src/handlers/report.ts',
    `import type { APIGatewayProxyEvent } from "aws-lambda";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: APIGatewayProxyEvent) => {
  const body = JSON.parse(event.body ?? "{}");
  await doc.send(new PutCommand({ TableName: "reports", Item: { pk: \`REPORT#\${body.date}\`, sk: body.reportId } }));
  await doc.send(
    new PutCommand({ TableName: "reports", Item: { pk: \`DAY#\${event.pathParameters?.day}\`, sk: body.reportId } }),
  );
  return { statusCode: 204, body: "" };
};

export async function closeDay(dayIso: string, id: string) {
  await doc.send(new PutCommand({ TableName: "reports", Item: { pk: \`CLOSED#\${dayIso}\`, sk: id } }));
}
`,
  );
  assert.deepEqual(
    ts.findings.map((f) => `${f.span.startLine + 1} ${f.rule}`),
    ['17 SL002'],
  );
  const py = await analyze(
    'app/handlers.py',
    `import boto3

table = boto3.resource("dynamodb").Table("reports")


def lambda_handler(event, context):
    table.put_item(Item={"pk": f"REPORT#{event['body']['date']}", "sk": event["requestContext"]["requestId"]})
`,
  );
  assert.deepEqual(py.findings, []);
});

test('TS: a getter on an exported instance (DT.TODAY_ISO) is time, not the constant "DT.TODAY_ISO"', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/util/dt.ts': `class DateHelper {
  get TODAY_ISO(): string {
    return new Date().toISOString().slice(0, 10);
  }
}

export const DT = new DateHelper();
`,
    'src/stats.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { DT } from "./util/dt";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function count(userId: string) {
  await doc.send(new PutCommand({ TableName: "stats", Item: { pk: \`STATS#\${DT.TODAY_ISO}\`, sk: userId } }));
}
`,
  });
  const r = index.results().find((x) => x.file === path.join(dir, 'src/stats.ts'))!;
  assert.deepEqual(keys(r), ['8 stats · pk = STATS#{time}']);
  assert.deepEqual(
    r.findings.map((f) => f.rule),
    ['SL002'],
  );
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { AnalyzedDocument } from '../../server/src/engine/incremental/document';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { analyze, findingLines, indexedWorkspace, observable, summarize } from './helpers';

// Commands named another way than by their own name: through a whole package (`import * as DDB
// from '@aws-sdk/lib-dynamodb'` in a repository class, and what tsc's CommonJS output makes of any
// import: `lib_dynamodb_1.PutCommand`), or under an alias (`PutCommand as AwsPutCommand`).

test('a repository class using the document client as a namespace: its calls are read, in its style', async () => {
  const r = await analyze(
    'src/repositories/leaderboard-repository.ts',
    `import * as DDB from '@aws-sdk/lib-dynamodb';
import { DynamoDB as DDBClient } from '@aws-sdk/client-dynamodb';

export class LeaderboardRepository {
  private readonly doc = DDB.DynamoDBDocumentClient.from(new DDBClient({}));

  async submit(playerId: string, score: number): Promise<void> {
    await this.doc.send(
      new DDB.PutCommand({
        TableName: process.env.SCORES_TABLE,
        Item: { pk: 'LEADERBOARD', sk: \`PLAYER#\${playerId}\`, score },
      }),
    );
  }

  async top(): Promise<DDB.QueryCommandOutput['Items']> {
    const out = await this.doc.send(
      new DDB.QueryCommand({
        TableName: process.env.SCORES_TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'LEADERBOARD' },
      }),
    );
    return out.Items;
  }
}
`,
  );
  assert.deepEqual(summarize(r), [
    '11 PutItem SCORES_TABLE pk=LEADERBOARD sk=PLAYER#{entity-id} (constant)',
    '21 Query SCORES_TABLE pk=LEADERBOARD (constant)',
  ]);
  assert.deepEqual(
    r.accesses.map((a) => a.sdk),
    ['lib-dynamodb', 'lib-dynamodb'],
  );
  assert.deepEqual(
    r.accesses.map((a) => [a.call.callee, a.call.receiver]),
    [
      ['DDB.PutCommand', 'this.doc'],
      ['DDB.QueryCommand', 'this.doc'],
    ],
  );
  assert.ok(findingLines(r).includes('11 SL001'), findingLines(r).join(', '));
});

test("tsc's CommonJS output of a Lambda handler: plain require and __importStar", async () => {
  const r = await analyze(
    'functions/record-vote.js',
    `"use strict";
var __importStar = (this && this.__importStar) || function (mod) { return mod; };
Object.defineProperty(exports, "__esModule", { value: true });
exports.handler = void 0;
const client_dynamodb_1 = require("@aws-sdk/client-dynamodb");
const lib_dynamodb_1 = require("@aws-sdk/lib-dynamodb");
const low = __importStar(require("@aws-sdk/client-dynamodb"));
const doc = lib_dynamodb_1.DynamoDBDocumentClient.from(new client_dynamodb_1.DynamoDBClient({}));
const handler = async (event) => {
    const body = JSON.parse(event.body);
    await doc.send(new lib_dynamodb_1.UpdateCommand({
        TableName: process.env.VOTES_TABLE,
        Key: { pk: "TOTAL" },
        UpdateExpression: "ADD votes :one",
        ExpressionAttributeValues: { ":one": 1 },
    }));
    await doc.send(new low.PutItemCommand({
        TableName: process.env.VOTES_TABLE,
        Item: { pk: { S: \`VOTE#\${body.voteId}\` }, choice: { S: body.choice } },
    }));
    return { statusCode: 204 };
};
exports.handler = handler;
`,
  );
  assert.deepEqual(summarize(r), [
    '13 UpdateItem VOTES_TABLE pk=TOTAL (counter)',
    '19 PutItem VOTES_TABLE pk=VOTE#{entity-id} (high-cardinality)',
  ]);
  assert.deepEqual(
    r.accesses.map((a) => a.sdk),
    ['lib-dynamodb', 'aws-sdk-v3'],
  );
  assert.ok(
    findingLines(r).some((l) => l.startsWith('13 ')),
    findingLines(r).join(', '),
  );
});

test('the package decides QueryCommand: the low-level client namespace takes typed values', async () => {
  const r = await analyze(
    'orders.ts',
    `import * as dynamo from '@aws-sdk/client-dynamodb';
const client = new dynamo.DynamoDBClient({});
export const open = () =>
  client.send(new dynamo.QueryCommand({
    TableName: 'orders',
    KeyConditionExpression: 'status = :s',
    ExpressionAttributeValues: { ':s': { S: 'OPEN' } },
  }));
`,
  );
  assert.deepEqual(summarize(r), ['7 Query orders status=OPEN (constant)']);
  assert.equal(r.accesses[0].sdk, 'aws-sdk-v3');
});

test('a command of the same name on another object is no DynamoDB call', async () => {
  const r = await analyze(
    'metrics.js',
    `const tsq = require('@aws-sdk/client-timestream-query');
const commands = require('./commands');
import * as local from './local-commands';
const q = new tsq.QueryCommand({ QueryString: 'SELECT 1', TableName: 'x', KeyConditionExpression: 'pk = :p' });
const p = new commands.PutCommand({ TableName: 'audit', Item: { pk: 'ALL' } });
const g = new local.GetCommand({ TableName: 'audit', Key: { pk: 'ALL' } });
const h = new unknownThing.PutCommand({ TableName: 'audit', Item: { pk: 'ALL' } });
`,
  );
  assert.deepEqual(summarize(r), []);
});

test('an open document reads the call again when its namespace import starts or stops naming the SDK', async () => {
  await initParsers();
  const text = `import * as ddb from './db-commands';
export const put = (doc, id) =>
  doc.send(new ddb.PutCommand({ TableName: 'events', Item: { pk: 'ALL', sk: id } }));
`;
  const doc = new AnalyzedDocument('events.ts', 'typescript', text);
  assert.equal(doc.analysis.accesses.length, 0);
  const from = text.indexOf("'./db-commands'");
  doc.applyEdits([{ start: from, end: from + "'./db-commands'".length, text: "'@aws-sdk/lib-dynamodb'" }]);
  assert.deepEqual(summarize(doc.analysis), ['3 PutItem events pk=ALL sk={entity-id} (constant)']);
  // The same as a fresh analysis of the edited text.
  const fresh = await analyze('events.ts', doc.content);
  assert.equal(observable(doc.analysis), observable(fresh));
  doc.applyEdits([{ start: from, end: from + "'@aws-sdk/lib-dynamodb'".length, text: "'./db-commands'" }]);
  assert.equal(doc.analysis.accesses.length, 0);
  doc.dispose();
});

test('commands imported under another name: ES aliases and renamed require destructuring', async () => {
  const r = await analyze(
    'src/store.ts',
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand as AwsPutCommand, QueryCommand as Query } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const save = (user: string) =>
  doc.send(new AwsPutCommand({ TableName: 'Scores', Item: { pk: 'LEADERBOARD', sk: user } }));

export const top = () =>
  doc.send(
    new Query({
      TableName: 'Scores',
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': 'LEADERBOARD' },
    }),
  );
`,
  );
  assert.deepEqual(summarize(r), [
    '7 PutItem Scores pk=LEADERBOARD sk={unknown} (constant)',
    '14 Query Scores pk=LEADERBOARD (constant)',
  ]);
  assert.deepEqual(
    r.accesses.map((a) => a.sdk),
    ['lib-dynamodb', 'lib-dynamodb'],
  );

  const cjs = await analyze(
    'lib/audit.js',
    `const { GetItemCommand: GetItem } = require('@aws-sdk/client-dynamodb');
exports.read = (client) => client.send(new GetItem({ TableName: 'audit', Key: { pk: { S: 'ALL' } } }));
`,
  );
  assert.deepEqual(summarize(cjs), ['2 GetItem audit pk=ALL (constant)']);
});

test('a parameter named like an inherited property (`constructor`, `toString`) is no command and fails nothing', async () => {
  const r = await analyze(
    'src/factory.js',
    `const { PutCommand } = require('@aws-sdk/lib-dynamodb');
function make(constructor, toString) {
  return [new constructor({ TableName: 'x' }), new toString({ TableName: 'y' }), toString.hasOwnProperty({ TableName: 'z' })];
}
exports.save = (doc, id) => doc.send(new PutCommand({ TableName: 'events', Item: { pk: id } }));
`,
  );
  assert.equal(r.skipped, null);
  assert.deepEqual(summarize(r), ['5 PutItem events pk={entity-id} (high-cardinality)']);
});

test("tsc's CommonJS output across modules: exports one by one, and an imported paginator called through `(0, …)`", async () => {
  const { index, dir } = await indexedWorkspace({
    'dist-src/config/dynamo.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FEED_KEY = exports.TABLES = void 0;
exports.TABLES = { FEED: 'feed-table' };
exports.FEED_KEY = 'FEED#ALL';
`,
    'dist-src/handlers/feed.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.list = exports.post = void 0;
const client_dynamodb_1 = require("@aws-sdk/client-dynamodb");
const lib_dynamodb_1 = require("@aws-sdk/lib-dynamodb");
const dynamo_1 = require("../config/dynamo");
const doc = lib_dynamodb_1.DynamoDBDocumentClient.from(new client_dynamodb_1.DynamoDBClient({}));
const post = async (event) => {
    await doc.send(new lib_dynamodb_1.PutCommand({ TableName: dynamo_1.TABLES.FEED, Item: { pk: dynamo_1.FEED_KEY, sk: event.id } }));
};
exports.post = post;
const list = async () => {
    const items = [];
    for await (const page of (0, lib_dynamodb_1.paginateQuery)({ client: doc }, {
        TableName: dynamo_1.TABLES.FEED,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': dynamo_1.FEED_KEY },
    })) items.push(...(page.Items ?? []));
    return items;
};
exports.list = list;
`,
  });
  try {
    const feed = index.results().find((r) => r.file.endsWith('feed.js'))!;
    assert.deepEqual(summarize(feed), [
      '9 PutItem feed-table pk=FEED#ALL sk={entity-id} (constant)',
      '17 Query feed-table pk=FEED#ALL (constant)',
    ]);
    assert.equal(feed.accesses[1].paginated, true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("tsc's calls of the project's own imported functions, `(0, db_1.putScore)(...)`, reach the wrapper", async () => {
  const { index, dir } = await indexedWorkspace({
    'lib/db.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.putScore = void 0;
const lib_dynamodb_1 = require("@aws-sdk/lib-dynamodb");
const client_dynamodb_1 = require("@aws-sdk/client-dynamodb");
const doc = lib_dynamodb_1.DynamoDBDocumentClient.from(new client_dynamodb_1.DynamoDBClient({}));
const putScore = async (board, user, score) => {
    await doc.send(new lib_dynamodb_1.PutCommand({ TableName: 'scores', Item: { pk: board, sk: user, score } }));
};
exports.putScore = putScore;
`,
    'lib/handlers/submit.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handler = void 0;
const db_1 = require("../db");
const handler = async (event) => {
    await (0, db_1.putScore)('LEADERBOARD', event.user, event.score);
    return { statusCode: 200 };
};
exports.handler = handler;
`,
    'lib/handlers/replay.js': `"use strict";
const db_1 = require("../db");
exports.handler = async (event) => {
    for (const r of event.records)
        (0, db_1.putScore)(\`BOARD#\${r.board}\`, r.user, r.score);
};
`,
  });
  try {
    const of = (name: string) => summarize(index.results().find((r) => r.file.endsWith(name))!);
    assert.deepEqual(of('submit.js'), ['6 PutItem scores pk=LEADERBOARD sk={unknown} (constant)']);
    assert.deepEqual(of('replay.js'), ['5 PutItem scores pk=BOARD#{unknown} sk={unknown} (unknown)']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

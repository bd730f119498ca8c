import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { indexedWorkspace } from './helpers';

/** The writer first where it matters: a definition may arrive after it, as in any walk order. */
const workspace = indexedWorkspace;

const findings = (index: WorkspaceIndex, dir: string) =>
  index
    .results()
    .flatMap((r) => r.findings.map((f) => `${path.relative(dir, f.file)}:${f.span.startLine + 1} ${f.rule}`))
    .sort();

const indexAccesses = (index: WorkspaceIndex) =>
  index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.index)
    .map((a) => `${a.index} ${a.partitionKey?.attribute}`);

test('a CDK stack names the index: a writer that sets its key to one value writes one index partition', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "jobs" }\n',
    'src/enqueue.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function enqueue(jobId: string, body: string) {
  await doc.send(new PutCommand({ TableName: "jobs", Item: { jobId, state: "WAITING", body } }));
}
`,
    'infra/stack.ts': `import { Stack } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";

export class JobsStack extends Stack {
  build() {
    const table = new dynamodb.Table(this, "Jobs", {
      tableName: "jobs",
      partitionKey: { name: "jobId", type: dynamodb.AttributeType.STRING },
    });
    table.addGlobalSecondaryIndex({
      indexName: "by-state",
      partitionKey: { name: "state", type: dynamodb.AttributeType.STRING },
    });
  }
}
`,
  });
  assert.deepEqual(indexAccesses(index), ['by-state state']);
  assert.deepEqual(findings(index, dir), ['src/enqueue.ts:6 SL001']);
});

test('create_table in a setup script; changing the index key there re-judges the writer', async () => {
  const { index, dir } = await workspace({
    'requirements.txt': 'boto3\n',
    'svc/notes.py': `import boto3

notes = boto3.resource("dynamodb").Table("notes")


def add(note_id, text):
    notes.put_item(Item={"note_id": note_id, "board": "MAIN", "text": text})
`,
    'setup_tables.py': `import boto3

boto3.client("dynamodb").create_table(
    TableName="notes",
    KeySchema=[{"AttributeName": "note_id", "KeyType": "HASH"}],
    AttributeDefinitions=[{"AttributeName": "note_id", "AttributeType": "S"}, {"AttributeName": "board", "AttributeType": "S"}],
    GlobalSecondaryIndexes=[{"IndexName": "by-board", "KeySchema": [{"AttributeName": "board", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}],
    BillingMode="PAY_PER_REQUEST",
)
`,
  });
  assert.deepEqual(findings(index, dir), ['svc/notes.py:7 SL001']);
  // The index moves to the note's id: nothing is written to one board partition any more.
  const setup = path.join(dir, 'setup_tables.py');
  const text = fs
    .readFileSync(setup, 'utf8')
    .replace('"KeySchema": [{"AttributeName": "board"', '"KeySchema": [{"AttributeName": "text"');
  fs.writeFileSync(setup, text);
  index.update(setup, text, 'python');
  assert.deepEqual(indexAccesses(index), ['by-board text']);
  assert.deepEqual(findings(index, dir), []);
});

test('a definition of another table changes nothing', async () => {
  const { index } = await workspace({
    'package.json': '{ "name": "x" }\n',
    'src/put.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();
exports.put = (id) => db.put({ TableName: "a", Item: { id, kind: "ONE" } }).promise();
`,
    'scripts/create.js': `const { DynamoDBClient, CreateTableCommand } = require("@aws-sdk/client-dynamodb");
new DynamoDBClient({}).send(new CreateTableCommand({
  TableName: "b",
  KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
  GlobalSecondaryIndexes: [{ IndexName: "by-kind", KeySchema: [{ AttributeName: "kind", KeyType: "HASH" }] }],
}));
`,
  });
  assert.deepEqual(indexAccesses(index), []);
});

/** A query through the `by-queue` index of `tickets`, keyed by `queue`. */
const LIST_TICKETS = `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();
exports.list = (queue) =>
  db.query({
    TableName: "tickets",
    IndexName: "by-queue",
    KeyConditionExpression: "queue = :q",
    ExpressionAttributeValues: { ":q": queue },
  }).promise();
`;

test('a query through an index in one file names the index key for a writer in another', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "tickets" }\n',
    'src/open.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();
exports.open = (id, title) => db.put({ TableName: "tickets", Item: { id, title, queue: "triage" } }).promise();
`,
    'src/list.js': LIST_TICKETS,
  });
  assert.ok(indexAccesses(index).includes('by-queue queue'));
  assert.ok(findings(index, dir).includes('src/open.js:3 SL001'), findings(index, dir).join('\n'));
});

/** A fresh index over the same files: what an updated one must agree with. */
function fresh(dir: string, files: string[]): string {
  const index = new WorkspaceIndex({ root: dir });
  index.analyzeAll(files.map((f) => path.join(dir, f)));
  return JSON.stringify(index.results());
}

test('an edited index query re-judges the writers that set its key, before and after, as a fresh index would', async () => {
  const files = {
    'package.json': '{ "name": "tickets" }\n',
    'src/open.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();
exports.open = (id, title) => db.put({ TableName: "tickets", Item: { id, title, queue: "triage", owner: "ops" } }).promise();
`,
    'src/note.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();
exports.note = (id, text) => db.put({ TableName: "tickets", Item: { id, text } }).promise();
`,
    'src/list.js': LIST_TICKETS,
  };
  const { index, dir } = await workspace(files);
  assert.ok(indexAccesses(index).includes('by-queue queue'));
  // The index is now keyed by the owner: the writer's index access follows; the other writer is untouched.
  const list = path.join(dir, 'src/list.js');
  for (const [from, to] of [
    ['queue = :q', 'owner = :q'],
    ['"tickets"', '"archive"'],
    ['"archive"', '"tickets"'],
  ]) {
    const text = fs.readFileSync(list, 'utf8').replace(from, to);
    fs.writeFileSync(list, text);
    index.update(list, text, 'javascript');
    assert.equal(JSON.stringify(index.results()), fresh(dir, Object.keys(files)), `${from} -> ${to}`);
  }
  assert.ok(indexAccesses(index).includes('by-queue owner'));
  assert.ok(!indexAccesses(index).includes('by-queue queue'));
});

test("a table's own key changed in its definition re-judges all its writers, as a fresh index would", async () => {
  const files = {
    'requirements.txt': 'boto3\n',
    'svc/notes.py': `import boto3

notes = boto3.resource("dynamodb").Table("notes")


def add(note_id):
    notes.put_item(Item={"note_id": note_id, "board": "MAIN"})
`,
    'setup_tables.py': `import boto3

boto3.client("dynamodb").create_table(
    TableName="notes",
    KeySchema=[{"AttributeName": "note_id", "KeyType": "HASH"}],
    AttributeDefinitions=[{"AttributeName": "note_id", "AttributeType": "S"}],
    BillingMode="PAY_PER_REQUEST",
)
`,
  };
  const { index, dir } = await workspace(files);
  assert.deepEqual(findings(index, dir), []);
  const setup = path.join(dir, 'setup_tables.py');
  const text = fs
    .readFileSync(setup, 'utf8')
    .replace('"AttributeName": "note_id", "KeyType"', '"AttributeName": "board", "KeyType"');
  fs.writeFileSync(setup, text);
  index.update(setup, text, 'python');
  assert.equal(JSON.stringify(index.results()), fresh(dir, Object.keys(files)));
  // Keyed by the board now: every note goes to the one "MAIN" partition.
  assert.deepEqual(findings(index, dir), ['svc/notes.py:7 SL001']);
});

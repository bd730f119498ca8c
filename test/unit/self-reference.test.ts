import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { toJsonCoverage } from '../../server/src/cli/coverage';
import { formatStats } from '../../server/src/cli/text';
import { indexedWorkspace } from './helpers';

/*
 * Names bound to a call on themselves (`all = all.concat(page.Items)` in a paginating
 * loop, `repo = repo.scoped()`) or on each other, in a file that also calls another
 * module's wrapper: finding which class an object is an instance of followed such a
 * name for ever and the whole file was skipped ("Maximum call stack size exceeded").
 * Each shape must leave the file analysed, with the hot write it makes still found.
 */

const JS_DB = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function query(params) {
  return doc.send(new QueryCommand(params));
}

export async function saveFeed(pk, entries) {
  return doc.send(new PutCommand({ TableName: "posts", Item: { pk, entries } }));
}

export class PostsRepository {
  byAuthor(author) {
    return doc.send(new QueryCommand({
      TableName: "posts",
      KeyConditionExpression: "pk = :p",
      ExpressionAttributeValues: { ":p": author },
    }));
  }
  scoped() {
    return this;
  }
}
`;

const JS_SHAPES = [
  'all = all.concat(page.Items);',
  'all = all.concat(page.Items).filter(Boolean).slice(0);',
  'all = [...all, ...page.Items];',
  'let other = all; all = other.concat(page.Items); other = all.concat([]);',
  'all = await all.next(); all = all.value.concat(page.Items);',
  'repo = repo.scoped(); await repo.byAuthor(event.author);',
  'repo = repo.scoped().scoped(); all = await repo.byAuthor(all.concat([]));',
  'let x = y.scoped(); let y = x.scoped(); await x.byAuthor(event.author);',
  'for (;;) { all = all.concat(page.Items); if (!page.LastEvaluatedKey) break; }',
];

function jsHandler(shape: string): string {
  return `import * as db from "./lib/db";
import { PostsRepository } from "./lib/db";

let repo = new PostsRepository();

export async function main(event) {
  let all = [];
  const page = await db.query({
    TableName: "posts",
    KeyConditionExpression: "pk = :p",
    ExpressionAttributeValues: { ":p": event.author },
  });
  ${shape}
  await db.saveFeed("FEED#GLOBAL", all);
  return all;
}
`;
}

const PY_REPO = `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("notes")


def save_feed(owner, entries):
    table.put_item(Item={"owner": owner, "entries": entries})


class NotesRepository:
    def by_owner(self, owner):
        return table.query(KeyConditionExpression=Key("owner").eq(owner))

    def scoped(self):
        return self
`;

const PY_SHAPES = [
  'items = items + page["Items"]',
  'items = items.copy()\n    items = items + page.get("Items", [])',
  'items += page["Items"]\n    items = list(items) + items',
  'items = [*items, *page["Items"]]',
  'repo = repo.scoped()\n    repo.by_owner(event["owner"])',
  'a = b.scoped()\n    b = a.scoped()\n    a.by_owner(event["owner"])',
  'while "LastEvaluatedKey" in page:\n        page = repo.by_owner(page["LastEvaluatedKey"])\n        items = items + page["Items"]',
];

function pyHandler(shape: string): string {
  return `from repository import NotesRepository, save_feed

repo = NotesRepository()


def handler(event, context):
    items = []
    page = repo.by_owner(event["owner"])
    ${shape}
    save_feed("FEED", items)
    return items
`;
}

test('TS: self-referencing reassignments next to a call through another module never skip the file', async () => {
  for (const shape of JS_SHAPES) {
    const { index, dir } = await indexedWorkspace({ 'lib/db.js': JS_DB, 'handler.js': jsHandler(shape) });
    const handler = index.results().find((r) => r.file === path.join(dir, 'handler.js'))!;
    assert.equal(handler.skipped, null, shape);
    assert.deepEqual(handler.failures, undefined, shape);
    const hot = handler.findings.filter((f) => f.rule === 'SL001').map((f) => f.message);
    assert.equal(hot.length, 1, `${shape}: the constant feed key written through saveFeed`);
    assert.match(hot[0], /FEED#GLOBAL/, shape);
  }
});

test('Python: self-referencing reassignments next to a call through another module never skip the file', async () => {
  for (const shape of PY_SHAPES) {
    const { index, dir } = await indexedWorkspace({ 'repository.py': PY_REPO, 'handler.py': pyHandler(shape) });
    const handler = index.results().find((r) => r.file === path.join(dir, 'handler.py'))!;
    assert.equal(handler.skipped, null, shape);
    assert.deepEqual(handler.failures, undefined, shape);
    const hot = handler.findings.filter((f) => f.rule === 'SL001').map((f) => f.message);
    assert.equal(hot.length, 1, `${shape}: the constant feed key written through save_feed`);
    assert.match(hot[0], /FEED/, shape);
  }
});

test('a part of the analysis that throws loses only its own calls, and --stats names the file and the part', async () => {
  await initParsers();
  const file = path.resolve('/srv/app/handler.js');
  const text = `import { DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { saveFeed } from "./lib/db";
const ddb = new DynamoDBClient({});
export async function main() {
  await ddb.send(new PutItemCommand({ TableName: "posts", Item: { pk: { S: "GLOBAL" } } }));
  await saveFeed("FEED", []);
}
`;
  const r = analyzeSource(file, text, 'javascript', {
    // A module resolver that breaks the way a runaway recursion does.
    resolveModule: () => {
      throw new RangeError('Maximum call stack size exceeded');
    },
  });
  assert.equal(r.skipped, null, 'the file is still analysed');
  assert.deepEqual(
    r.findings.map((f) => `${f.span.startLine + 1} ${f.rule}`),
    ['5 SL001'],
    "the file's own call is still judged",
  );
  assert.deepEqual(r.failures, [
    { stage: "calls to other modules' wrappers", message: 'Maximum call stack size exceeded' },
  ]);
  const coverage = toJsonCoverage([r], 0);
  assert.equal(coverage.failures?.length, 1);
  assert.equal(coverage.failures![0].stage, "calls to other modules' wrappers");
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '../../docs/schemas/check.schema.json'), 'utf8'));
  const validate = new Ajv({ strict: true }).compile({
    ...schema,
    required: [],
    properties: { coverage: schema.properties.coverage },
  });
  assert.ok(validate({ coverage }), 'coverage.failures is in the documented schema');
  const stats = formatStats(coverage, false);
  assert.match(stats, /Analysis failed in part/);
  assert.match(stats, /handler\.js {2}calls to other modules' wrappers: Maximum call stack size exceeded/);
});

test('a file whose whole analysis failed is listed with the failures in --stats', () => {
  const coverage = toJsonCoverage(
    [
      {
        file: '/srv/app/broken.js',
        language: 'javascript',
        accesses: [],
        findings: [],
        skipped: 'analysis failed: Maximum call stack size exceeded',
        syntaxErrors: false,
        imports: [],
      },
    ],
    0,
  );
  assert.deepEqual(
    coverage.failures?.map((f) => `${path.basename(f.file)} ${f.stage}: ${f.message}`),
    ['broken.js the whole file: Maximum call stack size exceeded'],
  );
});

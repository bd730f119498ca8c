import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { indexedWorkspace } from './helpers';

/*
 * A wrapper's result reassigned through itself (`let items = await repo.query(x); items =
 * items.filter(...)`) once sent the search for an instance's class round for ever, and the
 * file was skipped with "Maximum call stack size exceeded". Here chains of such
 * reassignments are generated at random, over the wrapper's result, another name and the
 * repository itself, in TypeScript and in Python: the file must always be analysed, with
 * no failed part, and the hot write after the chain still found.
 */

const RUNS = Number(process.env.SHARDLENS_PROPERTY_RUNS ?? 30);

const JS_REPO = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class ItemsRepository {
  async query(owner) {
    const { Items = [] } = await doc.send(new QueryCommand({
      TableName: "items",
      KeyConditionExpression: "pk = :p",
      ExpressionAttributeValues: { ":p": owner },
    }));
    return Items;
  }
  scoped() {
    return this;
  }
  async saveFeed(entries) {
    await doc.send(new PutCommand({ TableName: "items", Item: { pk: "FEED#GLOBAL", entries } }));
  }
}

export function makeRepository() {
  return new ItemsRepository();
}
`;

/** One reassignment; `a` and `b` stand for the result names, `r` for the repository. */
const JS_STEPS = [
  'a = a.filter((i) => i.open);',
  'a = await r.query(a);',
  'a = b.concat(a).filter(Boolean);',
  'b = a.slice(0);',
  'b = await r.query(b.length);',
  'r = r.scoped();',
  'r = makeRepository().scoped();',
  'a = [...a, ...b];',
  'a = (await r.query(event.owner)).map((i) => i.id);',
  'for (const x of b) { a = a.concat(await r.query(x)); }',
];

const PY_REPO = `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("items")


class ItemsRepository:
    def query(self, owner):
        return table.query(KeyConditionExpression=Key("pk").eq(owner))["Items"]

    def scoped(self):
        return self

    def save_feed(self, entries):
        table.put_item(Item={"pk": "FEED#GLOBAL", "entries": entries})


def make_repository():
    return ItemsRepository()
`;

const PY_STEPS = [
  'a = [i for i in a if i["open"]]',
  'a = r.query(a)',
  'a = list(filter(None, b + a))',
  'b = a.copy()',
  'b = r.query(len(b))',
  'r = r.scoped()',
  'r = make_repository().scoped()',
  'a = [*a, *b]',
  'a = [i["id"] for i in r.query(event["owner"])]',
  'for x in b:\n        a = a + r.query(x)',
];

/** A chain: which step, and which names stand for `a`, `b` and `r` in it. */
const chain = (steps: number) =>
  fc.array(fc.record({ step: fc.nat({ max: steps - 1 }), swap: fc.boolean(), repoIsResult: fc.boolean() }), {
    minLength: 1,
    maxLength: 8,
  });

type Link = { step: number; swap: boolean; repoIsResult: boolean };

/** Names each step's `a`, `b`, `r`: swapped, and now and then the repository is a result name too. */
function rename(text: string, link: Link): string {
  const [a, b] = link.swap ? ['other', 'items'] : ['items', 'other'];
  const r = link.repoIsResult ? a : 'repo';
  return text.replace(/\b[abr]\b(?=[\s.)=,\]:]|$)/g, (v) => (v === 'a' ? a : v === 'b' ? b : r));
}

function jsHandler(links: Link[]): string {
  const body = links.map((l) => `  ${rename(JS_STEPS[l.step], l)}`).join('\n');
  return `import { ItemsRepository, makeRepository } from "./lib/repository";

export async function main(event) {
  let repo = new ItemsRepository();
  let items = await repo.query(event.owner);
  let other = items.filter((i) => i.done);
${body}
  await new ItemsRepository().saveFeed(items);
  return items;
}
`;
}

function pyHandler(links: Link[]): string {
  const body = links.map((l) => `    ${rename(PY_STEPS[l.step], l)}`).join('\n');
  return `from repository import ItemsRepository, make_repository


def handler(event, context):
    repo = ItemsRepository()
    items = repo.query(event["owner"])
    other = [i for i in items if i["done"]]
${body}
    ItemsRepository().save_feed(items)
    return items
`;
}

async function analysed(files: Record<string, string>, handler: string): Promise<void> {
  const { index, dir } = await indexedWorkspace(files);
  try {
    const r = index.results().find((x) => x.file === path.join(dir, handler))!;
    const text = files[handler];
    assert.equal(r.skipped, null, text);
    assert.equal(r.failures, undefined, text);
    const feed = index.results().flatMap((x) => x.findings.filter((f) => /FEED#GLOBAL/.test(f.message)));
    assert.equal(feed.length, 1, `the constant feed key is still found after:\n${text}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('TS: chains of reassignments through a wrapper result are analysed and finish', async () => {
  await fc.assert(
    fc.asyncProperty(chain(JS_STEPS.length), (links) =>
      analysed({ 'lib/repository.js': JS_REPO, 'handler.js': jsHandler(links) }, 'handler.js'),
    ),
    { numRuns: RUNS },
  );
});

test('Python: chains of reassignments through a wrapper result are analysed and finish', async () => {
  await fc.assert(
    fc.asyncProperty(chain(PY_STEPS.length), (links) =>
      analysed({ 'repository.py': PY_REPO, 'handler.py': pyHandler(links) }, 'handler.py'),
    ),
    { numRuns: RUNS },
  );
});

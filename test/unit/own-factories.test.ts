import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { indexedWorkspace } from './helpers';

/*
 * A repository reached through a function of the caller's own file that hands out the
 * instance: a lazily made singleton (`global _DB ... return _DB`, as Chalice apps write
 * `get_app_db()`), a plain factory, and a class named through a module imported whole
 * (`db.NotesRepository(...)`). The calls through it are judged at the caller, as calls on
 * a module-level instance are.
 */

const REPOSITORY = `import uuid

from boto3.dynamodb.conditions import Key

DEFAULT_OWNER = "default"


class NotesRepository:
    def __init__(self, table):
        self._table = table

    def list_notes(self, owner=DEFAULT_OWNER):
        return self._table.query(KeyConditionExpression=Key("owner").eq(owner))["Items"]

    def add_note(self, text, owner=DEFAULT_OWNER):
        note_id = str(uuid.uuid4())
        self._table.put_item(Item={"owner": owner, "note_id": note_id, "text": text})
        return note_id
`;

/** A Chalice app whose routes reach the repository through `getter` (defined by `factory`). */
function app(imports: string, factory: string, routes: [string, string]): string {
  return `import os

import boto3
from chalice import Chalice

${imports}

app = Chalice(app_name="notes")
_DB = None


${factory}


@app.route("/notes", methods=["GET"])
def list_notes():
    ${routes[0]}


@app.route("/notes", methods=["POST"])
def add_note():
    body = app.current_request.json_body
    ${routes[1]}
`;
}

const LAZY_WHOLE_MODULE = `def get_app_db():
    global _DB
    if _DB is None:
        _DB = db.NotesRepository(boto3.resource("dynamodb").Table(os.environ["NOTES_TABLE"]))
    return _DB`;

const PLAIN_FACTORY = `def get_app_db():
    return NotesRepository(boto3.resource("dynamodb").Table(os.environ["NOTES_TABLE"]))`;

function findings(index: WorkspaceIndex, dir: string): string[] {
  return index
    .results()
    .flatMap((r) => r.findings.map((f) => `${path.relative(dir, f.file)}:${f.span.startLine + 1} ${f.rule}`))
    .sort();
}

const files = (appText: string) => ({
  'chalicelib/__init__.py': '',
  'chalicelib/db.py': REPOSITORY,
  'app.py': appText,
});

test('Python: a lazily made singleton of a class from a module imported whole; routes leaving the user out are flagged', async () => {
  const { index, dir } = await indexedWorkspace(
    files(
      app('from chalicelib import db', LAZY_WHOLE_MODULE, [
        'return get_app_db().list_notes()',
        'return get_app_db().add_note(body["text"])',
      ]),
    ),
  );
  assert.deepEqual(findings(index, dir), ['app.py:21 SL001', 'app.py:27 SL001']);
  const put = index.findingsFor(path.join(dir, 'app.py')).find((f) => f.access.operation === 'PutItem')!;
  assert.match(put.message, /"default"/);
});

test('Python: the same singleton with routes passing the user from the auth context: no finding', async () => {
  const user = 'app.current_request.context["authorizer"]["principalId"]';
  const { index, dir } = await indexedWorkspace(
    files(
      app('from chalicelib import db', LAZY_WHOLE_MODULE, [
        `return get_app_db().list_notes(${user})`,
        `return get_app_db().add_note(body["text"], owner=${user})`,
      ]),
    ),
  );
  assert.deepEqual(findings(index, dir), []);
  const atRoutes = index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.file.endsWith('app.py'))
    .map((a) => a.operation);
  assert.deepEqual(atRoutes, ['Query', 'PutItem'], 'both route calls are read through the factory');
});

test('Python: a plain factory function returning an instance of an imported class', async () => {
  const { index, dir } = await indexedWorkspace(
    files(
      app('from chalicelib.db import NotesRepository', PLAIN_FACTORY, [
        'return get_app_db().list_notes()',
        'return get_app_db().add_note(body["text"])',
      ]),
    ),
  );
  assert.deepEqual(findings(index, dir), ['app.py:18 SL001', 'app.py:24 SL001']);
});

test('TypeScript: a lazily made repository of a namespace-imported class, called with a constant feed key', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/feed-repository.ts': `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
export class FeedRepository {
  constructor(private readonly doc: DynamoDBDocumentClient, private readonly table: string) {}
  async append(feed: string, entry: { id: string; text: string }) {
    await this.doc.send(new PutCommand({ TableName: this.table, Item: { pk: feed, sk: entry.id, text: entry.text } }));
  }
}
`,
    'src/handler.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as repositories from "./feed-repository";

let feed: repositories.FeedRepository | undefined;

function feedRepository() {
  if (!feed) feed = new repositories.FeedRepository(DynamoDBDocumentClient.from(new DynamoDBClient({})), "feed");
  return feed;
}

export const handler = async (event: { body: string; id: string }) => {
  await feedRepository().append("FEED#global", { id: event.id, text: event.body });
};
`,
  });
  assert.deepEqual(findings(index, dir), ['src/handler.ts:13 SL001']);
});

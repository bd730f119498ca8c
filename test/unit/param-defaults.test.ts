import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { indexedWorkspace } from './helpers';

/*
 * A key built from a parameter with a constant default (`owner=DEFAULT_OWNER`) is a
 * parameter first: the value each caller passes decides, positionally or by keyword,
 * and the default makes a constant key only at a caller that leaves it out.
 */

const REPOSITORY = `import uuid

from boto3.dynamodb.conditions import Key

DEFAULT_OWNER = "default"


class NotesRepository:
    def __init__(self, table):
        self._table = table

    def list_notes(self, owner=DEFAULT_OWNER):
        response = self._table.query(KeyConditionExpression=Key("owner").eq(owner))
        return response["Items"]

    def add_note(self, text, owner=DEFAULT_OWNER):
        note_id = str(uuid.uuid4())
        self._table.put_item(Item={"owner": owner, "note_id": note_id, "text": text})
        return note_id

    def delete_note(self, note_id, owner=DEFAULT_OWNER):
        self._table.delete_item(Key={"owner": owner, "note_id": note_id})
`;

/** A Chalice app; `routes` are the three route bodies. */
function app(routes: [string, string, string]): string {
  return `import os

import boto3
from chalice import Chalice

from chalicelib.db import NotesRepository

app = Chalice(app_name="notes")
notes = NotesRepository(boto3.resource("dynamodb").Table(os.environ["NOTES_TABLE"]))


def current_user(request):
    return request.context["authorizer"]["principalId"]


@app.route("/notes", methods=["GET"])
def list_notes():
    ${routes[0]}


@app.route("/notes", methods=["POST"])
def add_note():
    body = app.current_request.json_body
    ${routes[1]}


@app.route("/notes/{note_id}", methods=["DELETE"])
def delete_note(note_id):
    ${routes[2]}
`;
}

function findings(index: WorkspaceIndex, dir: string): string[] {
  return index
    .results()
    .flatMap((r) => r.findings.map((f) => `${path.relative(dir, f.file)}:${f.span.startLine + 1} ${f.rule}`))
    .sort();
}

test('Python: routes passing the user from the auth context (by keyword and by position) make no constant key', async () => {
  const { index, dir } = await indexedWorkspace({
    'chalicelib/__init__.py': '',
    'chalicelib/db.py': REPOSITORY,
    'app.py': app([
      'owner = current_user(app.current_request)\n    return notes.list_notes(owner=owner)',
      'return notes.add_note(body["text"], current_user(app.current_request))',
      'notes.delete_note(note_id, owner=current_user(app.current_request))',
    ]),
  });
  assert.deepEqual(findings(index, dir), [], 'the default is not the key where every caller passes the user');
  const atRoutes = index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.file.endsWith('app.py'))
    .map((a) => `${a.span.startLine + 1} ${a.operation} ${a.partitionKey?.template.parts.length}`);
  assert.deepEqual(atRoutes, ['19 Query 1', '25 PutItem 1', '30 DeleteItem 1'], 'each route call is read');
});

test('Python: routes that never pass the user write and read the default: flagged at each route', async () => {
  const { index, dir } = await indexedWorkspace({
    'chalicelib/__init__.py': '',
    'chalicelib/db.py': REPOSITORY,
    'app.py': app(['return notes.list_notes()', 'return notes.add_note(body["text"])', 'notes.delete_note(note_id)']),
  });
  assert.deepEqual(findings(index, dir), ['app.py:18 SL001', 'app.py:24 SL001', 'app.py:29 SL001']);
  const f = index.findingsFor(path.join(dir, 'app.py')).find((x) => x.access.operation === 'PutItem')!;
  assert.match(f.message, /"default"/);
});

test('Python: one caller passes the user, another leaves it out: only the one leaving it out is flagged', async () => {
  const { index, dir } = await indexedWorkspace({
    'chalicelib/__init__.py': '',
    'chalicelib/db.py': REPOSITORY,
    'app.py': app([
      'return notes.list_notes(current_user(app.current_request))',
      'return notes.add_note(body["text"])',
      'notes.delete_note(note_id, current_user(app.current_request))',
    ]),
  });
  assert.deepEqual(findings(index, dir), ['app.py:24 SL001']);
});

test('Python: in one file, a call leaving the default out makes it the key; calls passing it do not', async () => {
  const body = (call: string) => `import boto3

table = boto3.resource("dynamodb").Table("events")


def record(payload, source="web"):
    table.put_item(Item={"source": source, "payload": payload})


def handler(event, context):
    ${call}
`;
  const omitted = await indexedWorkspace({ 'events.py': body('record(event["body"])') });
  assert.deepEqual(findings(omitted.index, omitted.dir), ['events.py:6 SL001']);
  const passed = await indexedWorkspace({ 'events.py': body('record(event["body"], source=event["source"])') });
  assert.deepEqual(findings(passed.index, passed.dir), []);
  const uncalled = await indexedWorkspace({ 'events.py': body('return None') });
  assert.deepEqual(findings(uncalled.index, uncalled.dir), [], 'no caller anywhere: a parameter, not its default');
});

test('TypeScript: the same repository shape with callers passing the user makes no constant key', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/notes.ts': `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
const DEFAULT_OWNER = "default";
export class NotesRepository {
  constructor(private readonly doc: DynamoDBDocumentClient) {}
  async addNote(text: string, owner = DEFAULT_OWNER) {
    await this.doc.send(new PutCommand({ TableName: "notes", Item: { owner, noteId: crypto.randomUUID(), text } }));
  }
}
`,
    'src/handler.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { NotesRepository } from "./notes";
const notes = new NotesRepository(DynamoDBDocumentClient.from(new DynamoDBClient({})));
export const handler = async (event: { requestContext: { authorizer: { principalId: string } }; body: string }) =>
  notes.addNote(event.body, event.requestContext.authorizer.principalId);
`,
  });
  assert.deepEqual(findings(index, dir), []);
});

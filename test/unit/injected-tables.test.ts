import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Access } from '../../server/src/engine/model';
import { tableName } from '../../server/src/engine/keys/table';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import { normalizeSettings } from '../../protocol/src/settings';
import { indexedWorkspace } from './helpers';

/*
 * A repository class given its table (or the table's name) by its constructor, its
 * methods sending requests on `self._table` / `TableName: this.tableName`: at a caller
 * that sees the construction, the request's table is the one passed there.
 */

/** `file:line operation table` of each call made through a wrapper, the table as ShardLens names it. */
function callerTables(index: WorkspaceIndex, dir: string): string[] {
  return index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.through)
    .map((a) => `${path.relative(dir, a.file)}:${a.span.startLine + 1} ${a.operation} ${tableName(a.table) ?? '?'}`);
}

const hover = (a: Access) => hoverMarkdown(a, [], normalizeSettings({})).value;

const PY_REPOSITORY = `from boto3.dynamodb.conditions import Key

DEFAULT_USERNAME = "default"


class TodoDB:
    def __init__(self, table_resource):
        self._table = table_resource

    def list_items(self, username=DEFAULT_USERNAME):
        return self._table.query(KeyConditionExpression=Key("username").eq(username))["Items"]

    def add_item(self, uid, description, username=DEFAULT_USERNAME):
        self._table.put_item(Item={"username": username, "uid": uid, "description": description})
`;

test('Python: a table passed to the constructor of a lazily made repository is the table of its requests at the routes', async () => {
  const { index, dir } = await indexedWorkspace({
    'chalicelib/__init__.py': '',
    'chalicelib/db.py': PY_REPOSITORY,
    'app.py': `import os

import boto3
from chalice import Chalice

from chalicelib import db

app = Chalice(app_name="todo")
_DB = None


def get_app_db():
    global _DB
    if _DB is None:
        _DB = db.TodoDB(boto3.resource("dynamodb").Table(os.environ["APP_TABLE_NAME"]))
    return _DB


@app.route("/todos", methods=["GET"])
def get_todos():
    return get_app_db().list_items()


@app.route("/todos", methods=["POST"])
def add_todo():
    body = app.current_request.json_body
    return get_app_db().add_item(body["uid"], body["description"])
`,
  });
  assert.deepEqual(callerTables(index, dir), ['app.py:21 Query $APP_TABLE_NAME', 'app.py:27 PutItem $APP_TABLE_NAME']);
  const put = index.findingsFor(path.join(dir, 'app.py')).find((f) => f.access.operation === 'PutItem')!;
  assert.match(put.message, /on table \$APP_TABLE_NAME/);
  const md = hover(put.access);
  assert.match(md, /PutItem · `username` = `default` on table `\$APP_TABLE_NAME`/);
  assert.match(md, /Table passed to the constructor at `app\.py:15`/);
  assert.doesNotMatch(md, /Table not known/);
  // The repository's own requests: its module alone does not say, the route module's
  // construction does (given-tables.ts), and the hover names it there too.
  const own = index.results().find((r) => r.file.endsWith('db.py'))!.accesses;
  assert.deepEqual(
    own.map((a) => tableName(a.table)),
    ['$APP_TABLE_NAME', '$APP_TABLE_NAME'],
  );
  assert.match(hover(own[0]), /Table passed to the constructor at `app\.py:15`/);
});

test('Python: a table made in the constructor from the name it is given; two instances on two tables', async () => {
  const { index, dir } = await indexedWorkspace({
    'store.py': `import boto3

SHARED = "shared"


class NoteStore:
    def __init__(self, table_name, region="eu-west-1"):
        self.table = boto3.resource("dynamodb", region_name=region).Table(table_name)

    def add(self, note_id, text, owner=SHARED):
        self.table.put_item(Item={"owner": owner, "note_id": note_id, "text": text})
`,
    'handler.py': `import os

from store import NoteStore

notes = NoteStore(os.environ["NOTES_TABLE"])
archive = NoteStore(table_name=os.environ["ARCHIVE_TABLE"])


def handler(event, context):
    notes.add(event["id"], event["text"])
    archive.add(event["id"], event["text"])
`,
  });
  assert.deepEqual(callerTables(index, dir), [
    'handler.py:10 PutItem $NOTES_TABLE',
    'handler.py:11 PutItem $ARCHIVE_TABLE',
  ]);
});

const TS_REPOSITORY = `import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export class OrdersRepo {
  constructor(
    private readonly tableName: string,
    private readonly client: DynamoDBDocumentClient,
  ) {}

  async add(orderId: string, customerId: string = 'GUEST') {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { customerId, orderId } }));
  }
}
`;

const TS_CLIENT = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';`;

test('TypeScript: parameter properties, with the template naming the environment variable’s table', async () => {
  const { index, dir } = await indexedWorkspace({
    'template.yaml': `Transform: AWS::Serverless-2016-10-31
Resources:
  OrdersTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: orders
      AttributeDefinitions:
        - AttributeName: customerId
          AttributeType: S
        - AttributeName: orderId
          AttributeType: S
      KeySchema:
        - AttributeName: customerId
          KeyType: HASH
        - AttributeName: orderId
          KeyType: RANGE
  PlaceOrder:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: nodejs20.x
      CodeUri: .
      Handler: src/handler.handler
      Environment:
        Variables:
          ORDERS_TABLE: !Ref OrdersTable
`,
    'src/orders-repo.ts': TS_REPOSITORY,
    'src/handler.ts': `${TS_CLIENT}
import { OrdersRepo } from './orders-repo';

const orders = new OrdersRepo(process.env.ORDERS_TABLE!, DynamoDBDocumentClient.from(new DynamoDBClient({})));

export const handler = async (event: { id: string }) => {
  await orders.add(event.id);
};
`,
  });
  // As the CLI does: infrastructure files first, then the source.
  index.readInfrastructure([path.join(dir, 'template.yaml')]);
  index.analyzeAll([path.join(dir, 'src/orders-repo.ts'), path.join(dir, 'src/handler.ts')]);
  assert.deepEqual(callerTables(index, dir), ['src/handler.ts:8 PutItem orders']);
  const [finding] = index.findingsFor(path.join(dir, 'src/handler.ts'));
  assert.match(finding.message, /on table "orders"/);
});

test('TypeScript: `this.table = table`, a default parameter, and a direct `new Repo(...).method()`', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/audit.ts': `import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export class AuditLog {
  private readonly table: string;
  constructor(private readonly client: DynamoDBDocumentClient, table: string = process.env.AUDIT_TABLE!) {
    this.table = table;
  }

  async append(entryId: string, stream: string = 'GLOBAL') {
    await this.client.send(new PutCommand({ TableName: this.table, Item: { stream, entryId } }));
  }
}
`,
    'src/handler.ts': `${TS_CLIENT}
import { AuditLog } from './audit';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const audit = new AuditLog(doc);

export const login = async (event: { id: string }) => {
  await audit.append(event.id);
  await new AuditLog(doc, 'audit-archive').append(event.id);
};
`,
  });
  assert.deepEqual(callerTables(index, dir), [
    'src/handler.ts:9 PutItem $AUDIT_TABLE',
    'src/handler.ts:10 PutItem audit-archive',
  ]);
});

test('TypeScript: a factory whose constructions pass different tables gives both candidates; one not read gives `?`', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/orders-repo.ts': TS_REPOSITORY,
    'src/handler.ts': `${TS_CLIENT}
import { OrdersRepo } from './orders-repo';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

function ordersFor(region: string) {
  if (region === 'eu') return new OrdersRepo(process.env.EU_ORDERS_TABLE!, doc);
  return new OrdersRepo(process.env.US_ORDERS_TABLE!, doc);
}

function ordersNamed(event: { table: string }) {
  return new OrdersRepo(event.table, doc);
}

export const handler = async (event: { id: string; region: string; table: string }) => {
  await ordersFor(event.region).add(event.id);
  await ordersNamed(event).add(event.id);
};
`,
  });
  assert.deepEqual(callerTables(index, dir), ['src/handler.ts:17 PutItem ?', 'src/handler.ts:18 PutItem ?']);
  const [both, unread] = index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.through);
  assert.deepEqual(both.table.kind === 'unknown' && both.table.candidates, ['$EU_ORDERS_TABLE', '$US_ORDERS_TABLE']);
  assert.match(
    hover(both),
    /The constructions at `handler\.ts:8`, `handler\.ts:9` pass different tables: `\$EU_ORDERS_TABLE`, `\$US_ORDERS_TABLE`/,
  );
  assert.equal(unread.table.kind === 'unknown' && unread.table.candidates, undefined, 'never a guess');
  assert.match(hover(unread), /A construction at `handler\.ts:13` passes a table not read/);
});

test('an instance whose construction is not seen (a field of a service) keeps the table unknown', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/orders-repo.ts': TS_REPOSITORY,
    'src/service.ts': `import { OrdersRepo } from './orders-repo';

export class CheckoutService {
  constructor(private readonly orders: OrdersRepo) {}

  async checkout(id: string) {
    await this.orders.add(id);
  }
}
`,
  });
  assert.deepEqual(callerTables(index, dir), ['src/service.ts:7 PutItem ?']);
  fs.rmSync(dir, { recursive: true, force: true });
});

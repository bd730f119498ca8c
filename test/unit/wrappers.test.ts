import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { indexedWorkspace } from './helpers';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import { normalizeSettings } from '../../protocol/src/settings';

const workspace = indexedWorkspace;

/** `file:line rule severity` for every finding of the workspace, 1-based lines. */
function findings(index: WorkspaceIndex, dir: string): string[] {
  return index
    .results()
    .flatMap((r) =>
      r.findings.map((f) => `${path.relative(dir, f.file)}:${f.span.startLine + 1} ${f.rule} ${f.severity}`),
    )
    .sort();
}

const V3 = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
`;

test('a repository injected through a constructor parameter property: the hot status is reported in the service', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "orders" }\n',
    'src/orders.repository.ts': `${V3}
export class OrdersRepository {
  async byStatus(status: string) {
    const out = await doc.send(new QueryCommand({
      TableName: process.env.ORDERS_TABLE,
      IndexName: "status-index",
      KeyConditionExpression: "#s = :s",
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: { ":s": status },
    }));
    return out.Items ?? [];
  }
}
`,
    'src/orders.service.ts': `import { OrdersRepository } from "./orders.repository";

export class OrdersService {
  constructor(private readonly orders: OrdersRepository) {}

  pending() {
    return this.orders.byStatus("PENDING");
  }

  forCustomer(customerId: string) {
    return this.orders.byStatus(\`CUSTOMER#\${customerId}\`);
  }
}
`,
  });
  // The repository's own query by a parameter named `status` is a low-cardinality read wherever it is called from.
  assert.deepEqual(findings(index, dir), [
    'src/orders.repository.ts:12 SL003 warning',
    'src/orders.service.ts:7 SL001 error',
  ]);
  const f = index.findingsFor(path.join(dir, 'src/orders.service.ts'))[0];
  assert.equal(f.span.startLine + 1, 7);
  assert.equal(f.span.startColumn, 32, 'on the argument the caller writes');
  assert.match(f.message, /"PENDING"/);
  const access = index
    .results()
    .flatMap((r) => r.accesses)
    .find((a) => a.file.endsWith('orders.service.ts'))!;
  assert.equal(access.index, 'status-index', 'the request fields the wrapper sets itself are kept');
  assert.equal(access.through?.file, path.join(dir, 'src/orders.repository.ts'));
  assert.equal(access.through!.span.startLine + 1, 7, 'through names the DynamoDB call inside the wrapper');
  assert.deepEqual(
    f.related.map((r) => `${path.relative(dir, r.file)}:${r.span.startLine + 1} ${r.message}`),
    ['src/orders.repository.ts:7 the QueryCommand call this key goes into'],
  );
});

test('a namespace import and a CommonJS export alias reach the wrapped put; an entity argument stays quiet', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "feed" }\n',
    'lib/store.js': `const AWS = require("aws-sdk");
const client = new AWS.DynamoDB.DocumentClient();

function putEntry(partition, entryId, body) {
  return client.put({ TableName: "feed", Item: { pk: partition, sk: entryId, body } }).promise();
}

module.exports = { record: putEntry };
`,
    'lib/global-feed.js': `const store = require("./store");

module.exports.publish = async (id, body) => {
  await store.record("FEED#global", id, body);
};
`,
    'lib/user-feed.mjs': `import * as store from "./store.js";

export async function publishFor(userId, id, body) {
  await store.record(\`FEED#\${userId}\`, id, body);
}
`,
  });
  assert.deepEqual(findings(index, dir), ['lib/global-feed.js:4 SL001 error']);
});

test('an object of functions exported as the module (a `Dynamo` service object): its methods, and siblings calling each other through it', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "accounts" }\n',
    'src/services/dynamo.ts': `import * as AWS from "aws-sdk";

const Dynamo = {
  client: new AWS.DynamoDB(),

  getAllInSet: async (tableName: string, setKey: string): Promise<string[]> => {
    const out = await Dynamo.client.getItem({ TableName: tableName, Key: { key: { S: setKey } } }).promise();
    return out.Item?.value?.SS ?? [];
  },

  isInSet: async (tableName: string, setKey: string, value: string): Promise<boolean> => {
    return (await Dynamo.getAllInSet(tableName, setKey)).includes(value);
  },
};

export default Dynamo;
`,
    'src/members.ts': `import Dynamo from "./services/dynamo";

export const isMember = async (event: { userId: string }) =>
  Dynamo.isInSet(process.env.ACCOUNT_TABLE!, "Members", event.userId);

export const admins = async () => Dynamo.getAllInSet(process.env.ACCOUNT_TABLE!, "Admins");
`,
  });
  // Through the sibling and directly: the constant set item is read at the caller that names it.
  assert.deepEqual(findings(index, dir), ['src/members.ts:4 SL001 error', 'src/members.ts:6 SL001 error']);
  const at = (line: number) =>
    index
      .results()
      .flatMap((r) => r.accesses)
      .filter((a) => a.file.endsWith('members.ts') && a.span.startLine + 1 === line)
      .map((a) => `${a.operation} ${a.partitionKey?.attribute} through ${path.basename(a.through?.file ?? '')}`);
  assert.deepEqual(at(4), ['GetItem key through dynamo.ts']);
  assert.deepEqual(at(6), ['GetItem key through dynamo.ts']);
});

test('a default-exported model class: a static counter bump is a counter item at the route that names it', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "stats" }\n',
    'src/counter.ts': `${V3}
export default class Counter {
  static bump(name: string) {
    return doc.send(new UpdateCommand({
      TableName: "counters",
      Key: { pk: name },
      UpdateExpression: "ADD hits :one",
      ExpressionAttributeValues: { ":one": 1 },
    }));
  }
}
`,
    'src/routes.ts': `import Counter from "./counter";

export async function onPageView(req: { path: string }) {
  await Counter.bump("pageviews");
  return req.path;
}
`,
  });
  assert.deepEqual(findings(index, dir), ['src/routes.ts:4 SL004 warning']);
});

test('Python: a module imported whole, and a store kept in self by __init__', async () => {
  const { index, dir } = await workspace({
    'requirements.txt': 'boto3\n',
    'events/repo.py': `import boto3

_table = boto3.resource("dynamodb").Table("events")


def put_event(stream, event_id, payload):
    _table.put_item(Item={"stream": stream, "event_id": event_id, "payload": payload})
`,
    'events/audit.py': `from events import repo


def audit(event_id, payload):
    repo.put_event("AUDIT", event_id, payload)
`,
    'events/store.py': `import boto3


class Store:
    def __init__(self):
        self._t = boto3.resource("dynamodb").Table("settings")

    def load(self, scope):
        return self._t.get_item(Key={"scope": scope}).get("Item")
`,
    'events/settings.py': `from events.store import Store


class Settings:
    def __init__(self):
        self.store = Store()

    def current(self):
        return self.store.load("GLOBAL")
`,
  });
  assert.deepEqual(findings(index, dir), ['events/audit.py:5 SL001 error', 'events/settings.py:9 SL001 error']);
});

test('a wrapper called from a test with a sample id is not an error; a caller that shadows the name is not a call', async () => {
  const { index, dir } = await workspace({
    'requirements.txt': 'boto3\n',
    'app/users.py': `import boto3

table = boto3.resource("dynamodb").Table("users")


def get_user(user_id):
    return table.get_item(Key={"pk": user_id}).get("Item")
`,
    'tests/test_users.py': `import unittest
from app.users import get_user


class UsersTest(unittest.TestCase):
    def test_get(self):
        self.assertIsNone(get_user("u-123"))
`,
    'app/other.py': `def get_user(name):
    return {"name": name}


def hello():
    return get_user("ALL")
`,
  });
  assert.deepEqual(
    findings(index, dir).filter((f) => !f.endsWith(' info')),
    [],
  );
  const other = index.results().find((r) => r.file.endsWith('other.py'));
  assert.equal(other?.accesses.length ?? 0, 0, 'a module that does not import the wrapper is not parsed for it');
});

/** A CommonJS helper module and a handler passing it the lobby's constant room key. */
const CHAT = {
  'package.json': '{ "name": "chat" }\n',
  'lib/db.js': `const AWS = require("aws-sdk");
const client = new AWS.DynamoDB.DocumentClient();
async function save(pk, sk, body) {
  return client.put({ TableName: "messages", Item: { pk, sk, body } }).promise();
}
module.exports = { save };
`,
  'lib/lobby.js': `const { save } = require("./db");
exports.post = async (messageId, text) => {
  await save("ROOM#lobby", messageId, text);
};
`,
};

test('changing the wrapper module re-judges its callers', async () => {
  const { index, dir } = await workspace(CHAT);
  assert.deepEqual(findings(index, dir), ['lib/lobby.js:3 SL001 error']);
  // The wrapper now builds its own per-room key from the message: the caller's constant no longer is the key.
  const db = path.join(dir, 'lib/db.js');
  const text = fs.readFileSync(db, 'utf8').replace('Item: { pk, sk, body }', 'Item: { pk: `MSG#${sk}`, sk, body }');
  fs.writeFileSync(db, text);
  index.update(db, text, 'javascript');
  assert.deepEqual(findings(index, dir), []);
});

test('a test passing a shared-looking sample value to a wrapper is no finding at all (the wrapper is judged at app callers)', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "pay" }\n',
    'src/payments.ts': `${V3}
export async function cancel(token: string) {
  return doc.send(new UpdateCommand({ TableName: "payments", Key: { token }, UpdateExpression: "SET cancelled = :t", ExpressionAttributeValues: { ":t": true } }));
}
`,
    'test/payments.test.ts': `import { test } from "node:test";
import { cancel } from "../src/payments";

test("cancel", async () => {
  await cancel("TOKEN");
});
`,
  });
  assert.deepEqual(findings(index, dir), []);
  const access = index
    .results()
    .flatMap((r) => r.accesses)
    .find((a) => a.through);
  assert.ok(access, 'the call through the wrapper is still read (and counted as understood)');
});

test('two layers: a controller passes a constant to a service that passes it on to the repository', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "records" }\n',
    'src/records.repository.ts': `${V3}
export class RecordsRepository {
  async add(day: string, id: string) {
    await doc.send(new PutCommand({ TableName: "records", Item: { pk: day, sk: id } }));
  }
}
`,
    'src/records.service.ts': `import { RecordsRepository } from "./records.repository";

export class RecordsService {
  constructor(private readonly repo: RecordsRepository) {}

  add(day: string, id: string) {
    return this.repo.add(day, id);
  }
}
`,
    'src/records.controller.ts': `import { RecordsService } from "./records.service";

export class RecordsController {
  constructor(private readonly records: RecordsService) {}

  post(body: { id: string }) {
    return this.records.add("2024-01-01", body.id);
  }
}
`,
  });
  // The repository's key is a day (a time bucket) wherever it is called from: judged once, there;
  // the service passing its own parameter on adds no second finding; the controller's fixed day is a constant.
  assert.deepEqual(findings(index, dir), [
    'src/records.controller.ts:7 SL001 error',
    'src/records.repository.ts:7 SL002 warning',
  ]);
});

test('Python: an exported function reaches the query through a private helper of its module', async () => {
  const { index, dir } = await workspace({
    'requirements.txt': 'boto3\n',
    'catalog/dal.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("catalog")


def _query_partition(pk):
    return table.query(KeyConditionExpression=Key("pk").eq(pk))["Items"]


def list_products(tenant):
    return _query_partition(f"PRODUCTS#{tenant}")
`,
    'catalog/handler.py': `from catalog import dal


def featured(event, context):
    return dal.list_products("featured")


def for_tenant(event, context):
    return dal.list_products(event["tenant"])
`,
  });
  assert.deepEqual(findings(index, dir), ['catalog/handler.py:5 SL001 error']);
});

test("a method's parameter is fed by calls to the method, not by a free function of the same name", async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "cfg" }\n',
    'src/store.ts': `${V3}
import { load } from "./settings";

export class Store {
  async load(id: string) {
    return doc.send(new QueryCommand({ TableName: "store", KeyConditionExpression: "pk = :p", ExpressionAttributeValues: { ":p": id } }));
  }
}

export const defaults = () => load("CONFIG");
export const one = (s: Store, userId: string) => s.load(\`USER#\${userId}\`);
`,
    'src/settings.ts': 'export function load(name: string) { return name; }\n',
  });
  assert.deepEqual(findings(index, dir), []);
});

test('the hover on a call through a wrapper says where the DynamoDB call inside it is', async () => {
  const { index } = await workspace(CHAT);
  const r = index.results().find((x) => x.file.endsWith('lobby.js'))!;
  const md = hoverMarkdown(r.accesses[0], r.findings, normalizeSettings({})).value;
  assert.match(md, /Through a wrapper: the key goes into `put` at db\\\.js:4/);
  assert.match(md, /`ROOM#lobby`/);
});

test('a DynamoDB helper library outside the workspace is read by the call shape, conservatively', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "feed" }\n',
    'src/feed.ts': `import { db } from "@acme/dynamo-helpers";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export async function publish(id: string, body: string) {
  await db.putItem({ pk: "FEED#global", sk: id, body });
}

export async function byUser(userId: string) {
  return db.query("pk = :pk", { ":pk": \`USER#\${userId}\` });
}

export async function everything() {
  return db.query("pk = :pk", { ":pk": "ALL" });
}

export async function notDynamo(m: Map<string, string>, http: { put(url: string, body: unknown): Promise<void> }) {
  await http.put("/items", { pk: "X" });
  return m.get("pk");
}
`,
    'src/bound.js': `const AWS = require("aws-sdk");
const docs = new AWS.DynamoDB.DocumentClient({ params: { TableName: "settings" } });
exports.load = () => docs.get({ Key: { pk: "GLOBAL" } }).promise();
`,
  });
  assert.deepEqual(findings(index, dir), [
    'src/bound.js:3 SL001 error',
    'src/feed.ts:13 SL001 error',
    'src/feed.ts:5 SL001 error',
  ]);
  const guessed = index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.guessed);
  assert.deepEqual(guessed.map((a) => `${a.operation} ${a.call.callee}`).sort(), [
    'GetItem get',
    'PutItem putItem',
    'Query query',
    'Query query',
  ]);
});

test('keys read from a parameter object: a property, a destructured parameter, a Python subscript', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "shop" }\n',
    'src/products.ts': `${V3}
export async function saveProduct(product: { id: string; name: string }) {
  await doc.send(new PutCommand({ TableName: "products", Item: { pk: \`PRODUCT#\${product.id}\`, name: product.name } }));
}

export async function getOrder({ customerId, orderId }: { customerId: string; orderId: string }) {
  return doc.send(new QueryCommand({ TableName: "orders", KeyConditionExpression: "pk = :c AND sk = :o", ExpressionAttributeValues: { ":c": customerId, ":o": orderId } }));
}
`,
    'src/routes.ts': `import { getOrder, saveProduct } from "./products";

export async function featured(name: string) {
  await saveProduct({ id: "FEATURED", name });
}

export async function guestOrder(orderId: string) {
  return getOrder({ customerId: "GUEST", orderId });
}

export async function own(req: { user: string; order: string; sku: string }) {
  await saveProduct({ id: req.sku, name: "x" });
  return getOrder({ customerId: req.user, orderId: req.order });
}
`,
    'requirements.txt': 'boto3\n',
    'py/store.py': `import boto3

table = boto3.resource("dynamodb").Table("events")


def put(record):
    table.put_item(Item={"pk": record["stream"], "sk": record["id"]})
`,
    'py/audit.py': `from py.store import put


def audit(event_id):
    put({"stream": "AUDIT", "id": event_id})
`,
  });
  assert.deepEqual(findings(index, dir), [
    'py/audit.py:5 SL001 error',
    'src/routes.ts:4 SL001 error',
    'src/routes.ts:8 SL001 error',
  ]);
});

test('a repository reached through a tsconfig path alias and a barrel index re-exporting it', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "hex" }\n',
    'tsconfig.json': `{
  // Path aliases, as a hexagonal layout uses them.
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@adapters": ["src/adapters"], "@adapters/*": ["src/adapters/*"], },
  },
}
`,
    'src/adapters/dynamo/orders-adapter.ts': `${V3}
export class OrdersAdapter {
  async byStatus(status: string) {
    return doc.send(new QueryCommand({ TableName: "orders", KeyConditionExpression: "pk = :s", ExpressionAttributeValues: { ":s": \`STATUS#\${status}\` } }));
  }
}
`,
    'src/adapters/index.ts': 'export * from "./dynamo/orders-adapter";\n',
    'src/use-cases/pending.ts': `import { OrdersAdapter } from "@adapters";

const orders = new OrdersAdapter();

export async function pendingOrders() {
  return orders.byStatus("PENDING");
}
`,
    'src/use-cases/shipped.ts': `import { OrdersAdapter } from "@adapters/dynamo/orders-adapter";

export const shipped = () => new OrdersAdapter().byStatus("SHIPPED");
`,
  });
  const found = findings(index, dir);
  assert.ok(found.includes('src/use-cases/pending.ts:6 SL001 error'), found.join('\n'));
  assert.ok(found.includes('src/use-cases/shipped.ts:3 SL001 error'), found.join('\n'));
});

test('a repository imported by a bare name under the tsconfig baseUrl (no paths); the bare import of the SDK stays a package', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "cars" }\n',
    'tsconfig.json': '{ "compilerOptions": { "baseUrl": "src", "strict": true } }\n',
    'src/services/db/bookings.ts': `${V3}
export async function bookingsIn(state: string) {
  return doc.send(new QueryCommand({ TableName: "bookings", KeyConditionExpression: "pk = :s", ExpressionAttributeValues: { ":s": \`STATE#\${state}\` } }));
}
`,
    'src/handlers/open.ts': `import { bookingsIn } from "services/db/bookings";

export const handler = async () => bookingsIn("OPEN");
`,
  });
  const found = findings(index, dir);
  assert.ok(found.includes('src/handlers/open.ts:3 SL001 error'), found.join('\n'));
});

test('a file that starts with blank lines still finds the callers that feed a parameter', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "touch" }\n',
    'src/touch.js': `

const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();
function touch(id) {
  return db.update({ TableName: "t", Key: { pk: "TOUCH#" + id }, UpdateExpression: "SET n = :n", ExpressionAttributeValues: { ":n": 1 } }).promise();
}
exports.config = () => touch("CONFIG");
`,
  });
  assert.deepEqual(findings(index, dir), ['src/touch.js:6 SL001 error']);
});

test('instances and factories other modules make: singletons, module.exports = new, factory functions and methods', async () => {
  const { index, dir } = await workspace({
    'package.json': '{ "name": "inv" }\n',
    'src/stock-store.ts': `${V3}
export class StockStore {
  reserve(sku: string) {
    return doc.send(new UpdateCommand({ TableName: "stock", Key: { pk: sku }, UpdateExpression: "ADD held :one", ExpressionAttributeValues: { ":one": 1 } }));
  }
  static open(): StockStore {
    return new StockStore();
  }
}
export const stock = new StockStore();
export function stockStore() {
  return new StockStore();
}
`,
    'src/flash-sale.ts': `import { stock, stockStore, StockStore } from "./stock-store";

export const hold = () => stock.reserve("SKU#flash");
export const holdAgain = () => stockStore().reserve("SKU#flash2");
export const holdStatic = async () => {
  const s = StockStore.open();
  return s.reserve("SKU#flash3");
};
export const perItem = (sku: string) => stock.reserve(sku);
`,
    'lib/presence.js': `const AWS = require("aws-sdk");
class Presence {
  constructor() { this.db = new AWS.DynamoDB.DocumentClient(); }
  mark(room, user) { return this.db.put({ TableName: "presence", Item: { pk: room, sk: user } }).promise(); }
}
module.exports = new Presence();
`,
    'lib/lobby.js': `const presence = require("./presence");
exports.join = (user) => presence.mark("ROOM#lobby", user);
`,
  });
  assert.deepEqual(findings(index, dir), [
    'lib/lobby.js:2 SL001 error',
    'src/flash-sale.ts:3 SL004 warning',
    'src/flash-sale.ts:4 SL004 warning',
    'src/flash-sale.ts:7 SL004 warning',
  ]);
});

test('Python: an instance built in a deps module, and a repository injected by its annotation', async () => {
  const { index, dir } = await workspace({
    'requirements.txt': 'boto3\n',
    'svc/ledger.py': `import boto3


class Ledger:
    def __init__(self, table_name):
        self.table = boto3.resource("dynamodb").Table(table_name)

    def append(self, account, entry_id, amount):
        self.table.put_item(Item={"pk": account, "sk": entry_id, "amount": amount})
`,
    'svc/deps.py': `import os
from svc.ledger import Ledger

ledger = Ledger(os.environ["LEDGER_TABLE"])
`,
    'svc/fees.py': `from svc.deps import ledger


def charge_fee(entry_id, amount):
    ledger.append("ACCOUNT#fees", entry_id, amount)
`,
    'svc/payouts.py': `from svc.ledger import Ledger


class Payouts:
    def __init__(self, ledger: Ledger):
        self._ledger = ledger

    def pay(self, entry_id, amount):
        self._ledger.append("ACCOUNT#payouts", entry_id, amount)
`,
  });
  assert.deepEqual(findings(index, dir), ['svc/fees.py:5 SL001 error', 'svc/payouts.py:9 SL001 error']);
});

/**
 * Repositories a framework hands a route: FastAPI's `Depends(get_repo)` (as a default, in
 * `Annotated[...]`, through an alias of one) and a data-access factory of another module
 * given the table's name. The repository's request is placed at the route with the table
 * the provider made, and the route is the entry point reaching it.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf } from './helpers';

const REPOSITORY = `class LedgerRepo:
    def __init__(self, table):
        self.table = table

    def record(self, entry_id, book="MAIN"):
        self.table.put_item(Item={"book": book, "entry_id": entry_id})
`;

const PROVIDERS = `import os

import boto3

from app.ledger import LedgerRepo


def get_ledger() -> LedgerRepo:
    return LedgerRepo(boto3.resource("dynamodb").Table(os.environ["LEDGER_TABLE"]))
`;

const ROUTES = `from typing import Annotated

from fastapi import APIRouter, Depends

from app.ledger import LedgerRepo
from app.providers import get_ledger

router = APIRouter(prefix="/ledger")
LedgerDep = Annotated[LedgerRepo, Depends(get_ledger)]


@router.post("/entries")
def add_entry(entry_id: str, repo: LedgerRepo = Depends(get_ledger)):
    repo.record(entry_id)


@router.put("/entries/{entry_id}")
async def replace_entry(entry_id: str, repo: Annotated[LedgerRepo, Depends(get_ledger)]):
    repo.record(entry_id)


@router.patch("/entries/{entry_id}")
def patch_entry(entry_id: str, repo: LedgerDep):
    repo.record(entry_id)
`;

test('FastAPI: a repository given by Depends keeps the table its provider made, and its route', async () => {
  const found = await findingsOf({
    'requirements.txt': 'fastapi\nboto3\n',
    'app/__init__.py': '',
    'app/ledger.py': REPOSITORY,
    'app/providers.py': PROVIDERS,
    'app/routes.py': ROUTES,
  });
  const cases: Array<[string, string]> = [
    ['app/routes.py:14', 'POST /ledger/entries'],
    ['app/routes.py:19', 'PUT /ledger/entries/{entry_id}'],
    ['app/routes.py:24', 'PATCH /ledger/entries/{entry_id}'],
  ];
  for (const [where, route] of cases) {
    const f = at(found, where);
    assert.equal(f.severity, 'error');
    assert.match(f.message, /Partition key "MAIN" on table \$LEDGER_TABLE is a constant/);
    assert.ok(f.message.includes(`Reached from ${route} (app/routes.py:`), f.message);
  }
});

test('FastAPI: a provider of the route’s own module, and a parameter no provider fills', async () => {
  const found = await findingsOf({
    'requirements.txt': 'fastapi\n',
    'app/__init__.py': '',
    'app/ledger.py': REPOSITORY,
    'app/main.py': `import boto3
from fastapi import Depends, FastAPI

from app.ledger import LedgerRepo

app = FastAPI()


def ledger():
    return LedgerRepo(boto3.resource("dynamodb").Table("ledger-prod"))


@app.post("/entries")
def add_entry(entry_id: str, repo: LedgerRepo = Depends(ledger)):
    repo.record(entry_id)


@app.post("/drafts")
def add_draft(entry_id: str, repo: LedgerRepo = None):
    repo.record(entry_id)
`,
  });
  const f = at(found, 'app/main.py:15');
  assert.match(f.message, /on table "ledger-prod"/);
  assert.match(f.message, /Reached from POST \/entries/);
  // Nothing says what fills `repo` here: no request is placed at the route.
  assert.equal(found.filter((x) => x.at === 'app/main.py:20').length, 0);
});

test('Powertools: routes named by path constants, a data-access factory given the table’s name', async () => {
  const found = await findingsOf({
    'requirements.txt': 'aws-lambda-powertools\n',
    'svc/__init__.py': '',
    'svc/api/__init__.py': '',
    'svc/api/resolver.py': `from aws_lambda_powertools.event_handler import APIGatewayRestResolver

CARTS_PATH = "/carts/"

app = APIGatewayRestResolver()
`,
    'svc/api/carts.py': `import os

from svc.api.resolver import CARTS_PATH, app
from svc.dal import get_dal

LINES_PATH = "/lines"


@app.post(CARTS_PATH)
def open_cart():
    get_dal(os.environ["CARTS_TABLE"]).put_line(app.current_event.json_body["sku"])


@app.put(f"{CARTS_PATH}<cart_id>" + LINES_PATH)
def add_line(cart_id: str):
    dal = get_dal(os.environ["CARTS_TABLE"])
    dal.put_line(cart_id)


def lambda_handler(event, context):
    return app.resolve(event, context)
`,
    'svc/dal/__init__.py': `from functools import lru_cache

from svc.dal.dynamo import CartDal


@lru_cache
def get_dal(table_name: str) -> CartDal:
    return CartDal(table_name)
`,
    'svc/dal/dynamo.py': `import boto3


class CartDal:
    def __init__(self, table_name: str):
        self.table_name = table_name

    def _table(self, table_name: str):
        return boto3.resource("dynamodb").Table(table_name)

    def put_line(self, sku: str, cart="OPEN"):
        table = self._table(self.table_name)
        table.put_item(Item={"cart": cart, "sku": sku})
`,
  });
  const open = at(found, 'svc/api/carts.py:11');
  assert.match(open.message, /on table \$CARTS_TABLE/);
  assert.match(open.message, /Reached from POST \{CARTS_PATH\} \(svc\/api\/carts\.py:9\)/);
  const line = at(found, 'svc/api/carts.py:17');
  assert.match(line.message, /on table \$CARTS_TABLE/);
  assert.match(line.message, /Reached from PUT \{CARTS_PATH\}<cart_id>\/lines \(svc\/api\/carts\.py:14\)/);
});

test('inversify: a table bound by the container, a controller’s routes as entry points', async () => {
  const found = await findingsOf({
    'package.json': '{ "name": "orders", "dependencies": { "inversify": "^6", "inversify-express-utils": "^6" } }',
    'src/tokens.ts': `export const TOKENS = {
  OrdersTable: Symbol.for('OrdersTable'),
  Orders: Symbol.for('Orders'),
};
`,
    'src/orders-store.ts': `import { inject, injectable } from 'inversify';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { TOKENS } from './tokens';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

@injectable()
export class OrdersStore {
  constructor(@inject(TOKENS.OrdersTable) private readonly table: string) {}

  async place(orderId: string) {
    await doc.send(new PutCommand({ TableName: this.table, Item: { shard: 'ORDERS', orderId } }));
  }
}
`,
    'src/container.ts': `import { Container } from 'inversify';
import { TOKENS } from './tokens';
import { OrdersStore } from './orders-store';

export const container = new Container();
container.bind<string>(TOKENS.OrdersTable).toConstantValue(process.env.ORDERS_TABLE!);
container.bind<OrdersStore>(TOKENS.Orders).to(OrdersStore);
`,
    'src/orders-controller.ts': `import { inject } from 'inversify';
import { controller, httpPost, requestParam } from 'inversify-express-utils';
import { TOKENS } from './tokens';
import { OrdersStore } from './orders-store';

@controller('/orders')
export class OrdersController {
  constructor(@inject(TOKENS.Orders) private readonly orders: OrdersStore) {}

  @httpPost('/:id')
  async place(@requestParam('id') id: string) {
    await this.orders.place(id);
  }
}
`,
  });
  const own = at(found, 'src/orders-store.ts:13');
  assert.match(own.message, /on table \$ORDERS_TABLE/);
  assert.match(own.message, /Reached from POST \/orders\/:id \(src\/orders-controller\.ts:11\)/);
});

test('FastAPI: what a route’s provider reads is reached from the route', async () => {
  const found = await findingsOf({
    'requirements.txt': 'fastapi\nboto3\n',
    'app/__init__.py': '',
    'app/tenancy.py': `import boto3

settings = boto3.resource("dynamodb").Table("settings")


def current_plan():
    return settings.get_item(Key={"pk": "PLAN"})["Item"]
`,
    'app/main.py': `from fastapi import Depends, FastAPI

from app import tenancy

app = FastAPI()


@app.get("/quota")
def quota(plan: dict = Depends(tenancy.current_plan)):
    return plan["quota"]


def unused(plan: dict):
    return plan
`,
  });
  const read = at(found, 'app/tenancy.py:7');
  assert.equal(read.severity, 'error');
  assert.match(read.message, /Reached from GET \/quota \(app\/main\.py:8\)/);
});

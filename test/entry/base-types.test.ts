/**
 * A service that holds its store by a base type — an abstract class (`OrderStore(abc.ABC)` in
 * a domain package), a TypeScript interface injected by a NestJS token — and the DynamoDB
 * class that implements it in a module the service never imports: a route reaches the
 * implementation's methods through the base type's, and a class called per request
 * (`DynamoOrderStore(table)`) reaches its `__init__`.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

const STORE = 'src/shop/adapters/dynamodb/order_store.py';

test('a method called through an abstract base class reaches the override in another package', async () => {
  const fs = await findingsOf(fixture('python-ports'));
  const pending = at(fs, `${STORE}:13`);
  assert.equal(pending.severity, 'error');
  assert.match(pending.message, /Reached from GET \/orders\/pending \(src\/shop\/api\/orders\.py:9\)\.$/);
  // The override nothing calls (no abstract method of that name) stays unreached.
  const rebuild = at(fs, `${STORE}:22`, 'SL003');
  assert.equal(rebuild.severity, 'info');
  assert.match(rebuild.message, /no entry point reaches this call/);
});

test('a class called per request reaches its __init__: a settings read there is hot', async () => {
  const fs = await findingsOf(fixture('python-ports'));
  const settings = at(fs, `${STORE}:10`);
  assert.equal(settings.severity, 'error');
  assert.match(settings.message, /Reached from GET \/orders\/pending .* and GET \/orders\/\{order_id\}/);
});

test('without the base class the service reaches no DynamoDB method: nothing is said to reach it', async () => {
  const files = fixture('python-ports');
  files[STORE] = files[STORE].replace('class DynamoOrderStore(OrderStore):', 'class DynamoOrderStore:');
  const fs = await findingsOf(files);
  assert.doesNotMatch(at(fs, `${STORE}:13`).message, /Reached from/);
});

test('a base named through a module (`ports.OrderStore`) and a Generic base are read too', async () => {
  const files = fixture('python-ports');
  files[STORE] = files[STORE].replace(
    'from shop.domain import Order, OrderStore',
    'from typing import Generic, TypeVar\n\nfrom shop.domain import Order\nfrom shop.domain.ports import order_store as ports\n\nT = TypeVar("T")',
  ).replace('class DynamoOrderStore(OrderStore):', 'class DynamoOrderStore(ports.OrderStore, Generic[T]):');
  const fs = await findingsOf(files);
  assert.match(at(fs, `${STORE}:18`).message, /Reached from GET \/orders\/pending/);
});

const NEST_REPO = 'src/infrastructure/dynamodb/dynamo-order.repository.ts';

test('TypeScript: a service injected with an interface reaches the class that implements it', async () => {
  const fs = await findingsOf(fixture('nest-ports'));
  const open = at(fs, `${NEST_REPO}:19`);
  assert.equal(open.severity, 'error');
  assert.match(open.message, /Reached from GET \/orders\/open \(src\/orders\/orders\.controller\.ts:\d+\)\.$/);
  assert.match(at(fs, `${NEST_REPO}:36`).message, /no entry point reaches this call/);
});

test('TypeScript: without `implements` the interface leads nowhere', async () => {
  const files = fixture('nest-ports');
  files[NEST_REPO] = files[NEST_REPO].replace(' implements OrderRepository', '');
  const fs = await findingsOf(files);
  assert.doesNotMatch(at(fs, `${NEST_REPO}:19`).message, /Reached from/);
});

test('TypeScript: an abstract class extended through a namespace import (`extends ports.OrderRepository`)', async () => {
  const files = fixture('nest-ports');
  files['src/orders/order.repository.ts'] = files['src/orders/order.repository.ts'].replace(
    /export interface OrderRepository \{([^}]*)\}/,
    (_, body: string) => `export abstract class OrderRepository {${body.replace(/\n {2}(\w)/g, '\n  abstract $1')}}`,
  );
  files[NEST_REPO] = files[NEST_REPO].replace(
    "import type { OrderRepository } from '../../orders/order.repository';",
    "import * as ports from '../../orders/order.repository';",
  ).replace(' implements OrderRepository', ' extends ports.OrderRepository');
  const fs = await findingsOf(files);
  assert.match(at(fs, `${NEST_REPO}:19`).message, /Reached from GET \/orders\/open/);
});

test('a method called on a field of a declared type reaches that type’s method, not every method of its name', async () => {
  const files = fixture('nest-ports');
  // Use cases with one `execute` each, as clean-architecture NestJS services write them.
  const useCase = (name: string, call: string) =>
    [
      "import { Inject, Injectable } from '@nestjs/common';",
      "import { ORDER_REPOSITORY, OrderRepository } from '../order.repository';",
      '',
      '@Injectable()',
      `export class ${name} {`,
      '  constructor(@Inject(ORDER_REPOSITORY) private readonly orders: OrderRepository) {}',
      '',
      '  execute(id?: string) {',
      `    return this.orders.${call};`,
      '  }',
      '}',
      '',
    ].join('\n');
  files['src/orders/use-cases/list-open.use-case.ts'] = useCase('ListOpenOrders', 'findOpen()');
  files['src/orders/use-cases/get-order.use-case.ts'] = useCase('GetOrder', 'findById(id!)');
  files['src/orders/orders.controller.ts'] = [
    "import { Controller, Get, Param } from '@nestjs/common';",
    "import { GetOrder } from './use-cases/get-order.use-case';",
    "import { ListOpenOrders } from './use-cases/list-open.use-case';",
    '',
    "@Controller('orders')",
    'export class OrdersController {',
    '  constructor(',
    '    private readonly listOpen: ListOpenOrders,',
    '    private readonly getOrder: GetOrder,',
    '  ) {}',
    '',
    "  @Get('open')",
    '  open() {',
    '    return this.listOpen.execute();',
    '  }',
    '',
    "  @Get(':id')",
    "  one(@Param('id') id: string) {",
    '    return this.getOrder.execute(id);',
    '  }',
    '}',
    '',
  ].join('\n');
  const fs = await findingsOf(files);
  const open = at(fs, `${NEST_REPO}:19`);
  assert.match(open.message, /Reached from GET \/orders\/open \(src\/orders\/orders\.controller\.ts:\d+\)\.$/);
  assert.doesNotMatch(open.message, /GET \/orders\/:id/);
});

test('Python: a field set from an annotated parameter calls that class’s method only', async () => {
  const files = fixture('python-ports');
  // A second store class with a `pending` of its own that nothing uses.
  files['src/shop/adapters/dynamodb/audit_store.py'] = [
    'import boto3',
    'from boto3.dynamodb.conditions import Key',
    '',
    '',
    'class AuditStore:',
    '    def __init__(self):',
    '        self._table = boto3.resource("dynamodb").Table("audit")',
    '',
    '    def pending(self):',
    '        return self._table.query(KeyConditionExpression=Key("pk").eq("AUDIT#pending"))["Items"]',
    '',
  ].join('\n');
  files['src/shop/services/orders.py'] = files['src/shop/services/orders.py'].replace(
    'from shop.domain import OrderStore',
    'from shop.adapters.dynamodb.audit_store import AuditStore\nfrom shop.domain import OrderStore',
  );
  const fs = await findingsOf(files);
  assert.match(at(fs, `${STORE}:13`).message, /Reached from GET \/orders\/pending/);
  assert.doesNotMatch(at(fs, 'src/shop/adapters/dynamodb/audit_store.py:10').message, /Reached from/);
});

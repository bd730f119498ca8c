import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diskFiles } from '../../server/src/engine/frontends/infra';
import { frontEndFor } from '../../server/src/engine/frontends/registry';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { readCdkSource } from '../../server/src/engine/workspace/cdk-source';
import type { CdkFile } from '../../server/src/engine/model/cdk';
import type { InfraDeclarations, InfraFunction } from '../../server/src/engine/model/entry-point';
import { checkJson } from './check-json';

/**
 * An app's own subclasses of construct classes: `class ShopTable extends dynamodb.Table`
 * whose constructor's `super(scope, id, {...})` sets the key schema, `class ServiceFunction
 * extends NodejsFunction` whose `super` names the entry from a positional parameter,
 * `class NodeFn extends NodejsFunction` spreading the caller's props with defaults, and the
 * same in Python (`class ShopTable(dynamodb.Table)` with `super().__init__(..., **kwargs)`).
 * Each construction reads as the construct its `super` call makes.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const TS_APP = path.join(FIXTURES, 'cdk-subclass');
const PY_APP = path.join(FIXTURES, 'cdk-subclass-python');
before(() => initParsers());

function read(file: string): InfraDeclarations {
  const out = readCdkSource(file, fs.readFileSync(file, 'utf8'), diskFiles);
  assert.ok(out, `${file} is read as CDK code`);
  return out;
}

function fn(d: InfraDeclarations, name: string): InfraFunction {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name} among ${d.functions.map((x) => x.name).join(', ')}`);
  return f;
}

function cdkOf(file: string, text: string): CdkFile {
  const language = file.endsWith('.py') ? 'python' : 'typescript';
  const tree = parse(language, text);
  try {
    return frontEndFor(language).cdk!(tree, file);
  } finally {
    tree.delete();
  }
}

test('the front-ends record the class extended and its super(...) call, spreads and defaults kept', () => {
  const ts = cdkOf(
    'fn.ts',
    `export class NodeFn extends lambda.NodejsFunction {
  constructor(scope: Construct, id: string, props: NodejsFunctionProps) {
    super(scope, id, { ...props, handler: props.handler ?? 'handler' });
  }
}
export class Plain extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
  }
}
`,
  );
  const base = ts.classes[0].base!;
  assert.deepEqual([base.qualified, base.scope, base.id, base.kwargs], ['lambda.NodejsFunction', 'scope', 'id', null]);
  assert.deepEqual(base.props?.kind === 'object' && base.props.entries.map((e) => [e.key, e.value.kind]), [
    ['...', 'name'],
    ['handler', 'call'],
  ]);
  // A construct class with no props of its own to give records no props.
  assert.equal(ts.classes[1].base?.props, null);
  // Outside a super call a spread is not an entry: an environment lists what it writes out.
  const env = cdkOf('env.ts', `new Function(this, 'F', { environment: { ...shared, A: 'a' } });`);
  const props = env.statements[0].kind === 'new' ? env.statements[0].props : null;
  assert.deepEqual(
    props?.kind === 'object' &&
      props.entries[0].value.kind === 'object' &&
      props.entries[0].value.entries.map((e) => e.key),
    ['A'],
  );

  const py = cdkOf(
    'table.py',
    `class ShopTable(dynamodb.Table):
    def __init__(self, scope: Construct, construct_id: str, *, stage: str, **kwargs) -> None:
        super().__init__(scope, construct_id, table_name=stage or "dev", **kwargs)
`,
  );
  const pyBase = py.classes[0].base!;
  assert.deepEqual(
    [pyBase.qualified, pyBase.scope, pyBase.id, pyBase.kwargs],
    ['dynamodb.Table', 'scope', 'construct_id', 'kwargs'],
  );
  assert.deepEqual(pyBase.props?.kind === 'object' && pyBase.props.entries.map((e) => e.key), ['tableName', '...']);
});

test('TypeScript: a Table subclass is a table per construction, its key schema from super(...), its props merged', () => {
  const stack = path.join(TS_APP, 'lib/shop-stack.ts');
  const d = read(stack);
  assert.deepEqual(
    d.tables.map((t) => [t.logicalId, t.tableName, t.partitionKey?.name, t.sortKey?.name ?? null, t.billingMode]),
    [
      ['Orders', 'shop-orders', 'customerId', 'orderId', 'PAY_PER_REQUEST'],
      // The construction's own props come after the spread: its key wins, its `sortKey: undefined` removes one.
      ['Returns', null, 'returnId', null, 'PAY_PER_REQUEST'],
    ],
  );
  // Declared where constructed, at the construction (line 14, counted from 0).
  assert.equal(d.tables[0].source.span.startLine, 13);
  // The class's own file makes nothing: only a construction does.
  assert.deepEqual(read(path.join(TS_APP, 'lib/constructs/shop-table.ts')).tables, []);
  assert.deepEqual(read(path.join(TS_APP, 'lib/constructs/service-function.ts')).functions, []);
});

test('TypeScript: a NodejsFunction subclass finds its entry from a positional parameter and __dirname of its own file', () => {
  const d = read(path.join(TS_APP, 'lib/shop-stack.ts'));
  const sweeper = fn(d, 'SweepReturns');
  assert.equal(sweeper.handlerFile, path.join(TS_APP, 'src/sweep-returns.ts'));
  assert.equal(sweeper.handlerFunction, 'main');
  assert.equal(sweeper.runtime, 'nodejs20.x');
  assert.deepEqual(sweeper.environment, { RETURNS_TABLE: { kind: 'table', logicalId: 'Returns' } });
  assert.deepEqual(
    sweeper.triggers.map((t) => [t.kind, t.trigger]),
    [['schedule', 'cron(0 2 * * ? *)']],
  );
  assert.deepEqual(d.skipped, []);
});

test('TypeScript: a construct of the app holding a NodejsFunction subclass, given the subclassed table by its stack', () => {
  const d = read(path.join(TS_APP, 'lib/constructs/orders-api.ts'));
  const place = fn(d, 'PlaceOrder');
  assert.deepEqual(place.environment, {
    ORDERS_TABLE: { kind: 'table', logicalId: 'Orders', file: path.join(TS_APP, 'lib/shop-stack.ts') },
  });
  // `props.handler ?? 'handler'` with no handler given, and the caller's entry through `...props`.
  assert.equal(place.handlerFunction, 'handler');
  assert.equal(place.handlerFile, path.join(TS_APP, 'src/place-order.ts'));
  assert.deepEqual(
    place.triggers.map((t) => t.trigger),
    ['POST /orders'],
  );
});

test('Python: a Table subclass with **kwargs, a Function subclass naming its module by keyword', () => {
  const d = read(path.join(PY_APP, 'stacks/shop_stack.py'));
  assert.deepEqual(
    d.tables.map((t) => [t.logicalId, t.tableName, t.partitionKey?.name, t.sortKey?.name]),
    [['Orders', 'shop-orders', 'customer_id', 'order_id']],
  );
  const refunds = fn(d, 'Refunds');
  assert.equal(refunds.handlerFile, path.join(PY_APP, 'functions/refunds.py'));
  assert.equal(refunds.handler, 'refunds.handler');
  assert.equal(refunds.runtime, 'python3.12');
  assert.deepEqual(refunds.environment, { ORDERS_TABLE: { kind: 'table', logicalId: 'Orders' } });
  assert.deepEqual(
    refunds.triggers.map((t) => [t.kind, t.batchSize]),
    [['queue', 5]],
  );
});

test('shardlens check: handlers of subclassed functions on subclassed tables are keyed by the table’s schema', () => {
  const report = checkJson(FIXTURES, 'cdk-subclass', 'cdk-subclass-python');
  const rows = report.accesses
    .map((a) => [a.file, a.table, a.partitionKey.attribute, (a.entryPoints ?? []).map((e) => e.trigger).join(', ')])
    .sort();
  assert.deepEqual(rows, [
    ['cdk-subclass-python/functions/refunds.py', 'shop-orders', 'customer_id', 'SQS RefundRequests, batchSize 5'],
    ['cdk-subclass-python/functions/refunds.py', 'shop-orders', 'customer_id', 'SQS RefundRequests, batchSize 5'],
    // Without the subclasses read, the key's first attribute (`orderId`) was taken as the partition key.
    // The handler's signature (APIGatewayProxyEvent) is no second entry point: the stack's route names it.
    ['cdk-subclass/src/place-order.ts', 'shop-orders', 'customerId', 'POST /orders'],
    ['cdk-subclass/src/place-order.ts', 'shop-orders', 'customerId', 'POST /orders'],
    ['cdk-subclass/src/sweep-returns.ts', '$RETURNS_TABLE', 'returnId', 'cron(0 2 * * ? *)'],
  ]);
  assert.ok(report.accesses.every((a) => a.tableFrom?.logicalId));
  // The two tables are known: the shop-wide counters are found on them, and Contributor Insights is off.
  assert.deepEqual(report.findings.map((f) => [f.rule, f.file]).sort(), [
    ['SL004', 'cdk-subclass-python/functions/refunds.py'],
    ['SL004', 'cdk-subclass/src/place-order.ts'],
    ['SL013', 'cdk-subclass-python/stacks/shop_stack.py'],
    ['SL013', 'cdk-subclass/lib/shop-stack.ts'],
  ]);
});

/** A CDK app of the given files, in a temporary folder. */
function app(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cdk-subclass-')));
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

test('other shapes: props passed on whole, defaults bound before super, Python scope and id by keyword, a subclass of a subclass', () => {
  const dir = app({
    'cdk.json': JSON.stringify({ app: 'npx ts-node bin/app.ts' }),
    'bin/app.ts': `import * as cdk from 'aws-cdk-lib';
import { Data } from '../lib/data';
new Data(new cdk.App(), 'Data');
`,
    'lib/tables.ts': `import { AttributeType, BillingMode, Table, TableProps } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
export class PlainTable extends Table {
  constructor(scope: Construct, id: string, props: TableProps) {
    super(scope, id, props);
  }
}
export class KeyedTable extends Table {
  constructor(scope: Construct, id: string, props?: Partial<TableProps>) {
    const DEFAULT_KEY = { name: 'id', type: AttributeType.STRING };
    super(scope, id, { partitionKey: DEFAULT_KEY, billingMode: BillingMode.PAY_PER_REQUEST, ...props });
  }
}
export class AuditTable extends KeyedTable {
  constructor(scope: Construct, id: string) {
    super(scope, \`\${id}Audit\`, { tableName: 'audit' });
  }
}
`,
    'lib/data.ts': `import { Stack } from 'aws-cdk-lib';
import { AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { AuditTable, KeyedTable, PlainTable } from './tables';
export class Data extends Stack {
  constructor(scope: any, id: string) {
    super(scope, id);
    new PlainTable(this, 'Plain', { partitionKey: { name: 'pk', type: AttributeType.STRING }, readCapacity: 2 });
    new KeyedTable(this, 'Keyed');
    new AuditTable(this, 'Orders');
  }
}
`,
  });
  try {
    const d = read(path.join(dir, 'lib/data.ts'));
    assert.deepEqual(
      d.tables.map((t) => [t.logicalId, t.tableName, t.partitionKey?.name, t.billingMode, t.capacity?.read ?? null]),
      [
        ['Plain', null, 'pk', 'PROVISIONED', 2],
        ['Keyed', null, 'id', 'PAY_PER_REQUEST', null],
        // Two subclasses deep, the id made from the construction's.
        ['OrdersAudit', 'audit', 'id', 'PAY_PER_REQUEST', null],
      ],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const py = app({
    'cdk.json': JSON.stringify({ app: 'python3 app.py' }),
    'app.py': `import aws_cdk as cdk
from tables import Table
app = cdk.App()
stack = cdk.Stack(app, "Data")
Table(stack, "Events", "events", dynamodb.Attribute(name="stream_id", type=dynamodb.AttributeType.STRING))
`,
    'tables.py': `from typing import Optional
from aws_cdk import aws_dynamodb as _dynamodb
from constructs import Construct

class Table(_dynamodb.Table):
    def __init__(self, scope: Construct, id: str, name: str, partition_key: _dynamodb.Attribute, sort_key: Optional[_dynamodb.Attribute] = None):
        super().__init__(scope=scope, id=id, table_name=name, partition_key=partition_key, sort_key=sort_key,
                         billing_mode=_dynamodb.BillingMode.PAY_PER_REQUEST)
`,
  });
  try {
    const d = read(path.join(py, 'app.py'));
    assert.deepEqual(
      d.tables.map((t) => [t.logicalId, t.tableName, t.partitionKey?.name, t.sortKey, t.billingMode]),
      [['Events', 'events', 'stream_id', null, 'PAY_PER_REQUEST']],
    );
  } finally {
    fs.rmSync(py, { recursive: true, force: true });
  }
});

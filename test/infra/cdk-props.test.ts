import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diskFiles } from '../../server/src/engine/frontends/infra';
import { frontEndFor } from '../../server/src/engine/frontends/registry';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { readCdkSource } from '../../server/src/engine/workspace/cdk-source';
import { InfraRegistry } from '../../server/src/engine/workspace/infra';
import type { CdkFile } from '../../server/src/engine/model/cdk';
import type { InfraDeclarations, InfraFunction } from '../../server/src/engine/model/entry-point';
import { checkJson } from './check-json';

/**
 * CDK constructs passed between the files of an app: a TypeScript app (bin/leaderboard.ts
 * makes a data stack, a messaging stack and an API stack given their tables and queue;
 * the API stack hands the scores table on to a construct of its own) and a Python app
 * (app.py gives a storage stack's table to an orders stack by keyword, which hands it to
 * a construct by position). Each handler reads its table from an environment variable.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const TS_APP = path.join(FIXTURES, 'cdk-stacks');
const PY_APP = path.join(FIXTURES, 'cdk-stacks-python');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cdk-props-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
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

const table = (logicalId: string, file: string) => ({ kind: 'table', logicalId, file });

/** A CDK app written into the temporary folder: `cdk.json` running `entry`, and the given files. */
function app(name: string, entry: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  const run = entry.endsWith('.py') ? `python3 ${entry}` : `npx ts-node --prefer-ts-exts ${entry}`;
  fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: run }));
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  return dir;
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

test('the front-ends record classes (parameters, fields), the class of each statement, and imports', () => {
  const ts = cdkOf(
    'stack.ts',
    `import { DataStack as Data } from './data';
import * as constructs from './constructs';
const { Helper } = require('./helper');
export class ApiStack extends Stack {
  public readonly api: RestApi;
  constructor(scope: Construct, id: string, private readonly props: ApiProps, { table, queue: q }: Extra) {
    super(scope, id, props);
    this.api = new RestApi(this, 'Api');
  }
}
class Local extends Construct {}
new ApiStack(app, 'A', {});
`,
  );
  assert.deepEqual(ts.imports, [
    { local: 'Data', module: './data', name: 'DataStack' },
    { local: 'constructs', module: './constructs', name: '*' },
    { local: 'Helper', module: './helper', name: 'Helper' },
  ]);
  assert.deepEqual(
    ts.classes.map((c) => [c.name, c.exported, c.params, c.fields.map((f) => [f.name, f.value.kind])]),
    [
      [
        'ApiStack',
        true,
        [
          // Positions count the construction's arguments: scope 0, id 1, props 2.
          { name: 'props', position: 2, keyword: null },
          { name: 'table', position: 3, keyword: null, member: 'table' },
          { name: 'q', position: 3, keyword: null, member: 'queue' },
        ],
        [['api', 'new']],
      ],
      ['Local', false, [], []],
    ],
  );
  // super(...), the field's assignment, then the construction at the top level.
  assert.deepEqual(ts.classOf, [0, 0, null]);

  const py = cdkOf(
    'stack.py',
    `from aws_cdk import Stack
from .fulfilment import Fulfilment as F
import stacks.data_stack as data
class OrdersStack(Stack):
    def __init__(self, scope, construct_id, orders_table: ITable, retries=3, *, stage: str, **kwargs):
        super().__init__(scope, construct_id, **kwargs)
        self.worker_fn = _lambda.Function(self, "Worker")
`,
  );
  assert.deepEqual(py.imports, [
    { local: 'Stack', module: 'aws_cdk', name: 'Stack' },
    { local: 'F', module: '.fulfilment', name: 'Fulfilment' },
    { local: 'data', module: 'stacks.data_stack', name: '*' },
  ]);
  assert.deepEqual(py.classes[0].params, [
    { name: 'orders_table', position: 2, keyword: 'ordersTable' },
    { name: 'retries', position: 3, keyword: 'retries' },
    { name: 'stage', position: null, keyword: 'stage' },
  ]);
  // A plain class the stack hands its constructs to takes no id: its parameters follow the scope.
  const wiring = cdkOf(
    'wiring.py',
    `from aws_cdk import core
class Wiring:
    def __init__(self, scope: core.Construct, tables, lambdas):
        self.tables = tables
class Named(core.Construct):
    def __init__(self, scope, service_id, table):
        super().__init__(scope, service_id)
class Underscored(core.Construct):
    def __init__(self, scope, id_, *, queue):
        super().__init__(scope, id_)
`,
  );
  assert.deepEqual(
    wiring.classes.map((c) => [c.name, c.params]),
    [
      [
        'Wiring',
        [
          { name: 'tables', position: 1, keyword: 'tables' },
          { name: 'lambdas', position: 2, keyword: 'lambdas' },
        ],
      ],
      ['Named', [{ name: 'table', position: 2, keyword: 'table' }]],
      ['Underscored', [{ name: 'queue', position: null, keyword: 'queue' }]],
    ],
  );
  assert.deepEqual(
    py.classes[0].fields.map((f) => f.name),
    ['workerFn'],
  );
});

test('TypeScript: a stack given another stack’s table and queue names them, through props, destructuring and a grant', () => {
  const d = read(path.join(TS_APP, 'lib/api-stack.ts'));
  const data = path.join(TS_APP, 'lib/data-stack.ts');
  assert.deepEqual(fn(d, 'SubmitScore').environment, {
    TABLE_NAME: table('Scores', data),
    // Text the app passes is text.
    STAGE: { kind: 'text', text: 'prod' },
  });
  // const { sessions } = props; sessions.tableName
  assert.deepEqual(fn(d, 'ExpireSessions').environment, { SESSIONS_TABLE: table('Sessions', data) });
  // A parameter store value: the one table granted names it.
  assert.deepEqual(fn(d, 'TallyScores').environment, { SCORES_TABLE: table('Scores', data) });
  // new SqsEventSource(queue): the queue the messaging stack makes.
  assert.deepEqual(
    fn(d, 'TallyScores').triggers.map((t) => [t.kind, t.trigger, t.batchSize]),
    [['queue', 'SQS ScoreQueue, batchSize 10', 10]],
  );
  // The tables are declared once, by the stack that makes them.
  assert.deepEqual(d.tables, []);
  assert.deepEqual(
    read(data).tables.map((t) => t.logicalId),
    ['Scores', 'Sessions'],
  );
});

test('TypeScript: a construct of the project’s own, given the table by a stack given it by the app (two hops)', () => {
  const d = read(path.join(TS_APP, 'lib/constructs/board-api.ts'));
  const reader = fn(d, 'ReadBoard');
  assert.deepEqual(reader.environment, { BOARD_TABLE: table('Scores', path.join(TS_APP, 'lib/data-stack.ts')) });
  assert.deepEqual(
    reader.triggers.map((t) => t.trigger),
    ['GET /boards/{board}'],
  );
});

test('Python: a keyword argument to a stack, then a positional one to a construct in a relative import', () => {
  const storage = path.join(PY_APP, 'stacks/storage_stack.py');
  const orders = read(path.join(PY_APP, 'stacks/orders_stack.py'));
  assert.deepEqual(fn(orders, 'PlaceOrder').environment, {
    ORDERS_TABLE: table('Orders', storage),
    STAGE: { kind: 'text', text: 'prod' },
  });
  assert.deepEqual(orders.tables, []);
  const ship = fn(read(path.join(PY_APP, 'stacks/fulfilment.py')), 'ShipOrders');
  assert.deepEqual(ship.environment, { TABLE_NAME: table('Orders', storage) });
  assert.deepEqual(
    ship.triggers.map((t) => [t.kind, t.trigger, t.ratePerHour]),
    [['schedule', 'rate(15 minutes)', 4]],
  );
});

const API = `import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
export class Api extends Stack {
  constructor(scope: any, id: string, props: any) {
    super(scope, id, props);
    new lambda.Function(this, 'Fn', { handler: 'a.handler', code: lambda.Code.fromAsset('src'),
      environment: { TABLE_NAME: props.table.tableName, STAGE: props.stage, REGION: props.region } });
  }
}
`;
const DATA = `import { Stack } from 'aws-cdk-lib';
import * as ddb from 'aws-cdk-lib/aws-dynamodb';
export class Data extends Stack {
  public readonly one: ddb.Table;
  public readonly two: ddb.Table;
  constructor(scope: any, id: string) {
    super(scope, id);
    this.one = new ddb.Table(this, 'One', { partitionKey: { name: 'id', type: ddb.AttributeType.STRING } });
    this.two = new ddb.Table(this, 'Two', { partitionKey: { name: 'id', type: ddb.AttributeType.STRING } });
  }
}
`;

test('what is not followed: constructions that disagree, a value computed in the other file, no construction', () => {
  const dir = app('limits', 'bin/app.ts', {
    'bin/app.ts': `import * as cdk from 'aws-cdk-lib';
import { Api } from '../lib/api';
import { Data } from '../lib/data';
const app = new cdk.App();
const data = new Data(app, 'Data');
new Api(app, 'Blue', { table: data.one, stage: 'blue', region: app.node.tryGetContext('region') });
new Api(app, 'Green', { table: data.two, stage: 'blue', region: app.node.tryGetContext('region') });
`,
    'lib/api.ts': API,
    'lib/data.ts': DATA,
    'lib/unused.ts': API.replace('class Api', 'class Unused'),
    'src/a.js': 'exports.handler = async () => {};\n',
  });
  // Two constructions giving two tables: either may be meant, so neither is taken.
  assert.deepEqual(fn(read(path.join(dir, 'lib/api.ts')), 'Fn').environment, {
    TABLE_NAME: { kind: 'opaque', text: 'props.table.tableName' },
    STAGE: { kind: 'text', text: 'blue' },
    REGION: { kind: 'opaque', text: 'props.region' },
  });
  // A class no file of the app constructs keeps what it reads as written.
  assert.deepEqual(fn(read(path.join(dir, 'lib/unused.ts')), 'Fn').environment.TABLE_NAME, {
    kind: 'opaque',
    text: 'props.table.tableName',
  });
});

/** The TypeScript stack as JavaScript. */
const untyped = (ts: string) => ts.replace(/: (any|string)\b/g, '');

test('a third construction boundary is not followed; CommonJS requires and `node bin/app.js` are', () => {
  const chain = (depth: number) =>
    `const { Stack } = require('aws-cdk-lib');
const { Level${depth + 1} } = require('./level${depth + 1}');
class Level${depth} extends Stack {
  constructor(scope, id, props) {
    super(scope, id, props);
    new Level${depth + 1}(this, 'L${depth + 1}', { table: props.table });
  }
}
module.exports = { Level${depth} };
`;
  const dir = app('chain', 'bin/app.js', {
    'bin/app.js': `const cdk = require('aws-cdk-lib');
const { Data } = require('../lib/data');
const { Level1 } = require('../lib/level1');
const app = new cdk.App();
const data = new Data(app, 'Data');
new Level1(app, 'L1', { table: data.one });
`,
    'lib/data.ts': DATA,
    'lib/level1.js': chain(1),
    'lib/level2.js': untyped(API).replace('class Api', 'class Level2').replace("'Fn'", "'Two'"),
    'src/a.js': 'exports.handler = async () => {};\n',
  });
  fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ app: 'node bin/app.js' }));
  const two = fn(read(path.join(dir, 'lib/level2.js')), 'Two');
  assert.deepEqual(two.environment.TABLE_NAME, table('One', path.join(dir, 'lib/data.ts')));

  // One more boundary: Level3 is given the table by Level2, given it by Level1, given it by the app.
  fs.writeFileSync(path.join(dir, 'lib/level2.js'), chain(2));
  fs.writeFileSync(path.join(dir, 'lib/level3.js'), untyped(API).replace('class Api', 'class Level3'));
  const three = fn(read(path.join(dir, 'lib/level3.js')), 'Fn');
  assert.deepEqual(three.environment.TABLE_NAME, { kind: 'opaque', text: 'props.table.tableName' });
});

test('hostile apps: a class constructing itself, import cycles, a broken cdk.json, a file that does not parse', () => {
  const dir = app('hostile', 'bin/app.ts', {
    'bin/app.ts': `import * as cdk from 'aws-cdk-lib';
import { Loop } from '../lib/loop';
const app = new cdk.App();
new Loop(app, 'Loop', { table: new Loop(app, 'Inner', { table: undefined }).table });
`,
    'lib/loop.ts': `import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Loop as Again } from './loop';
export class Loop extends Stack {
  public readonly table: any;
  constructor(scope: any, id: string, props: any) {
    super(scope, id, props);
    this.table = props.table;
    new Again(this, 'Nested', { table: this.table });
    new lambda.Function(this, 'Fn', { handler: 'a.handler', code: lambda.Code.fromAsset('src'), environment: { TABLE_NAME: props.table.tableName } });
  }
}
`,
    'lib/broken.ts': `import { Stack } from 'aws-cdk-lib';\nexport class Broken extends Stack { constructor(scope, id, props) { new (`,
    'src/a.js': 'exports.handler = async () => {};\n',
  });
  const d = read(path.join(dir, 'lib/loop.ts'));
  assert.equal(fn(d, 'Fn').environment.TABLE_NAME.kind, 'opaque');
  fs.writeFileSync(path.join(dir, 'cdk.json'), '{ "app": ');
  assert.equal(fn(read(path.join(dir, 'lib/loop.ts')), 'Fn').environment.TABLE_NAME.kind, 'opaque');
  assert.ok(read(path.join(dir, 'lib/broken.ts')));
});

test('a stack file is read again when the app file that constructs its class changes', () => {
  const dir = app('deps', 'bin/app.ts', {
    'bin/app.ts': `import * as cdk from 'aws-cdk-lib';
import { Api } from '../lib/api';
import { Data } from '../lib/data';
const app = new cdk.App();
const data = new Data(app, 'Data');
new Api(app, 'Api', { table: data.one, stage: 'a' });
`,
    'lib/api.ts': API,
    'lib/data.ts': DATA,
    'src/a.js': 'exports.handler = async () => {};\n',
  });
  const registry = new InfraRegistry(1_000_000);
  const api = path.join(dir, 'lib/api.ts');
  registry.read(api);
  const envOf = () =>
    registry.declarations().find((d) => d.file === api)!.functions[0].environment.TABLE_NAME as { logicalId?: string };
  assert.equal(envOf().logicalId, 'One');
  assert.ok(registry.dependents(path.join(dir, 'bin/app.ts')).includes(api));
  assert.ok(registry.dependents(path.join(dir, 'lib/data.ts')).includes(api));
  fs.writeFileSync(
    path.join(dir, 'bin/app.ts'),
    fs.readFileSync(path.join(dir, 'bin/app.ts'), 'utf8').replace('data.one', 'data.two'),
  );
  assert.equal(registry.read(api), true, 'the same text, another answer from the app file: read again');
  assert.equal(envOf().logicalId, 'Two');
});

test('shardlens check: handlers of stacks given another stack’s table are keyed by its schema, and their hot keys found', () => {
  const report = checkJson(FIXTURES, 'cdk-stacks', 'cdk-stacks-python');
  const at = (file: string, index: string | null = null) =>
    report.accesses.filter((a) => a.file === file && a.index === index);
  const [submit] = at('cdk-stacks/src/submit-score.ts');
  assert.deepEqual(submit.tableFrom, {
    variable: 'TABLE_NAME',
    logicalId: 'Scores',
    file: 'cdk-stacks/lib/data-stack.ts',
  });
  // The item lists `player` first; the data stack says `board` is the partition key.
  assert.deepEqual([submit.partitionKey.attribute, submit.partitionKey.template], ['board', 'GLOBAL']);
  // A `Key` listing the sort key first is keyed by the schema too.
  const [tally] = at('cdk-stacks/src/tally-scores.ts');
  assert.deepEqual([tally.partitionKey.attribute, tally.sortKey?.attribute], ['board', 'player']);
  // A table with a physical name takes it.
  assert.equal(at('cdk-stacks/src/expire-sessions.ts')[0].table, 'leaderboard-sessions');
  assert.equal(at('cdk-stacks/src/read-board.ts')[0].tableFrom?.logicalId, 'Scores');
  const [place] = at('cdk-stacks-python/functions/place_order.py');
  assert.deepEqual(
    [place.partitionKey.attribute, place.tableFrom?.file],
    ['customer_id', 'cdk-stacks-python/stacks/storage_stack.py'],
  );
  const errors = report.findings.filter((f) => f.rule === 'SL001' && f.severity === 'error').map((f) => f.file);
  assert.deepEqual(errors.sort(), [
    'cdk-stacks-python/functions/place_order.py',
    'cdk-stacks/src/submit-score.ts',
    'cdk-stacks/src/tally-scores.ts',
  ]);
  // The index the writes fill with a status: known only from the table's definition.
  assert.ok(report.findings.some((f) => f.rule === 'SL012' && f.file === 'cdk-stacks-python/functions/place_order.py'));
  // The JSON names the declaring file as the workspace does.
  const fnJson = report.functions?.find((f) => f.name === 'SubmitScore');
  assert.deepEqual(fnJson?.environment.TABLE_NAME, {
    kind: 'table',
    logicalId: 'Scores',
    file: 'cdk-stacks/lib/data-stack.ts',
  });
});

test('the same app without the entry cdk.json names: the tables stay unknown, and the constant key is not found', () => {
  const copy = path.join(tmp, 'no-entry');
  fs.cpSync(TS_APP, copy, { recursive: true });
  fs.writeFileSync(path.join(copy, 'cdk.json'), '{ "app": "make synth" }');
  const report = checkJson(copy, '.');
  const submit = report.accesses.find((a) => a.file === 'src/submit-score.ts' && a.index === null);
  assert.equal(submit?.tableFrom, undefined);
  assert.equal(submit?.partitionKey.attribute, 'player');
  assert.ok(!report.findings.some((f) => f.file === 'src/submit-score.ts' && f.rule === 'SL001'));
});

/**
 * dynamoose as a front-end of the key model, proven on fixtures written in the
 * library's documented style (test/fixtures/libraries/dynamoose: a TypeScript service
 * and CommonJS Lambda handlers, the models in their own modules): they type-check
 * against the pinned typings, and run with the real library against dynalite every
 * request dynamoose sends (captured on its SDK client) is one the engine read, with the
 * same table, index, key attribute and a key its template matches; `shardlens keys
 * --match` names the model's logical key.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand, DynamoDB, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as dynamoose from 'dynamoose';
import { normalizeSettings } from '../../protocol/src/settings';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import type { Access, Finding } from '../../server/src/engine';
import { startDynalite, typeErrors } from '../fixes/helpers-write';
import { keysMatch, matchesTemplate, placesIn, readLibraryFixture, renderText, ROOT } from './helpers';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'libraries', 'dynamoose');
const { rel, line } = placesIn(FIXTURE);

let accesses: Access[];
let findings: Finding[];

before(async () => {
  ({ accesses, findings } = await readLibraryFixture(FIXTURE));
});

test('the fixtures type-check against the dynamoose typings', () => {
  assert.deepEqual(typeErrors(path.join(FIXTURE, 'ts')), []);
  assert.deepEqual(typeErrors(path.join(FIXTURE, 'cjs')), []);
});

test('every dynamoose call of the fixtures is read with its model, table, index and key', () => {
  const calls = accesses
    .filter((a) => a.library)
    .map(
      (a) =>
        `${line(a)} ${a.operation} ${a.library!.entity} ${a.table.kind === 'literal' ? a.table.name : '?'}${a.index ? ` @${a.index}` : ''} ${a.partitionKey?.attribute} = ${a.partitionKey ? renderText(a.partitionKey.template) : '-'}`,
    );
  for (const want of [
    'ts/tickets.ts:11 PutItem Ticket tickets id = {}',
    'ts/tickets.ts:11 PutItem Ticket tickets @statusIndex status = OPEN',
    'ts/tickets.ts:16 Query Ticket tickets @statusIndex status = OPEN',
    // No `using`: the index dynamoose chooses, the one whose hash key is compared by eq.
    'ts/tickets.ts:20 Query Ticket tickets @statusIndex status = CLOSED',
    'ts/tickets.ts:24 GetItem Ticket tickets id = {}',
    'ts/tickets.ts:28 UpdateItem Ticket tickets id = {}',
    'ts/tickets.ts:28 UpdateItem Ticket tickets @statusIndex status = CLOSED',
    'ts/tickets.ts:36 UpdateItem PageView page-views page = home',
    'ts/models.ts:51 PutItem Announcement announcements feed = GLOBAL',
    'ts/tickets.ts:40 PutItem Announcement announcements feed = GLOBAL',
    'ts/tickets.ts:44 PutItem Session sessions sessionId = {}',
    // `index: true` names the index after its attribute.
    'ts/tickets.ts:44 PutItem Session sessions @userIdGlobalIndex userId = {}',
    'ts/tickets.ts:49 DeleteItem Session sessions sessionId = {}',
    // The table name with the model's prefix.
    'cjs/handler.js:7 PutItem Order shop-Order customerId = {}',
    'cjs/handler.js:7 PutItem Order shop-Order @byRegion region = eu',
    'cjs/handler.js:11 Query Order shop-Order customerId = {}',
    'cjs/handler.js:15 Query Order shop-Order @byRegion region = eu',
    'cjs/handler.js:20 BatchWriteItem Order shop-Order customerId = {}',
    'cjs/handler.js:27 PutItem Flag shop-Flag scope = flags',
    'cjs/flag.js:7 PutItem Flag shop-Flag scope = flags',
  ])
    assert.ok(calls.includes(want), `${want} not in\n${calls.join('\n')}`);
  const all = accesses.find((a) => line(a) === 'cjs/handler.js:15')!;
  assert.equal(all.paginated, true, '.all() reads every page');
  const limited = accesses.find((a) => line(a) === 'cjs/handler.js:11')!;
  assert.equal(limited.read?.limit, 20);
});

test('the hot keys are found: a status index, a counter, constant defaults', () => {
  const got = findings.map((f) => `${f.rule} ${line(f)} ${f.severity}`);
  for (const want of [
    'SL001 ts/tickets.ts:10 error', // status: 'OPEN' written to statusIndex
    'SL001 ts/tickets.ts:16 error', // and read from it
    'SL001 ts/tickets.ts:20 error', // { status: { eq: 'CLOSED' } }
    'SL004 ts/tickets.ts:36 warning', // $ADD on the one 'home' counter
    'SL001 ts/models.ts:51 error', // feed's default 'GLOBAL'
    'SL001 cjs/handler.js:7 error', // region: 'eu' written to byRegion
    'SL001 cjs/handler.js:15 error',
    'SL001 cjs/flag.js:7 error', // scope's default 'flags'
  ])
    assert.ok(got.includes(want), `${want} not in\n${got.join('\n')}`);
  const open = findings.find((f) => line(f) === 'ts/tickets.ts:16' && f.rule === 'SL001')!;
  assert.equal(open.span.startColumn + 1, 41, 'on the constant the query compares');
  const related = open.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1}`);
  assert.ok(related.includes('ts/models.ts:15'), related.join(', '));
  const feed = findings.find((f) => line(f) === 'ts/models.ts:51')!;
  assert.match(feed.message, /"GLOBAL" on table "announcements"/);
});

test('a constant default is reported once, at the schema, with the writes that take it as related locations', () => {
  // Each hot key of a default once: feed 'GLOBAL' and scope 'flags', not again at the create and the save.
  const onDefaults = findings.filter((f) => f.rule === 'SL001' && ['GLOBAL', 'flags'].includes(keyText(f)));
  assert.deepEqual(onDefaults.map((f) => `${line(f)} ${f.access.library?.schema}`).sort(), [
    'cjs/flag.js:7 true',
    'ts/models.ts:51 true',
  ]);
  const related = (at: string) =>
    findings.find((f) => line(f) === at)!.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1} ${r.message}`);
  assert.deepEqual(related('ts/models.ts:51'), [
    'ts/models.ts:51 Announcement.feed is declared here',
    'ts/tickets.ts:40 this create leaves feed to its default "GLOBAL"',
  ]);
  assert.deepEqual(related('cjs/flag.js:7'), [
    'cjs/flag.js:7 Flag.scope is declared here',
    'cjs/handler.js:27 this save leaves scope to its default "flags"',
  ]);
  // The writes stay accesses of the key, marked as taking the default; the SL005 on the create's
  // timestamp sort key is not a second report of the partition and stays.
  const create = accesses.find((a) => line(a) === 'ts/tickets.ts:40')!;
  assert.deepEqual(create.library?.defaulted, ['feed']);
  assert.deepEqual(
    findings.filter((f) => line(f) === 'ts/tickets.ts:40').map((f) => f.rule),
    ['SL005'],
  );
  // A write that gives the key itself is no default's.
  assert.equal(accesses.find((a) => line(a) === 'ts/tickets.ts:11' && !a.index)!.library?.defaulted, undefined);
});

const keyText = (f: Finding) => (f.access.partitionKey ? renderText(f.access.partitionKey.template) : '');

test('a random default, ids from the request and the session index are not reported', () => {
  const quiet = accesses.filter(
    (a) =>
      a.library?.entity === 'Session' ||
      ['ts/tickets.ts:24', 'ts/tickets.ts:32', 'cjs/handler.js:11', 'cjs/handler.js:20'].includes(line(a)) ||
      (line(a) === 'ts/tickets.ts:11' && !a.index),
  );
  assert.ok(quiet.length >= 8, `${quiet.length}`);
  assert.deepEqual(
    findings.filter((f) => quiet.includes(f.access)).map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  const session = accesses.find((a) => line(a) === 'ts/tickets.ts:44' && !a.index)!;
  assert.equal(session.partitionKey!.template.parts.length, 1);
  const part = session.partitionKey!.template.parts[0];
  assert.ok('hole' in part && part.hole.kind === 'random', 'the default () => randomUUID(), drawn per item');
});

test('the hover names the model and the index', () => {
  const open = accesses.find((a) => line(a) === 'ts/tickets.ts:16')!;
  assert.match(hoverMarkdown(open, findings, normalizeSettings({})).value, /Ticket model · statusIndex · Query/);
  const get = accesses.find((a) => line(a) === 'ts/tickets.ts:24')!;
  assert.match(hoverMarkdown(get, findings, normalizeSettings({})).value, /Ticket model · GetItem/);
});

async function createTable(
  db: { client: { send(c: CreateTableCommand): Promise<unknown> } },
  name: string,
  keys: Array<[string, 'S' | 'N']>,
  gsi?: [string, Array<[string, 'S' | 'N']>],
) {
  const attrs = new Map([...keys, ...(gsi?.[1] ?? [])]);
  const schema = (ks: Array<[string, 'S' | 'N']>) =>
    ks.map(([a], i) => ({ AttributeName: a, KeyType: i === 0 ? ('HASH' as const) : ('RANGE' as const) }));
  await db.client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attrs].map(([a, t]) => ({ AttributeName: a, AttributeType: t })),
      KeySchema: schema(keys),
      ...(gsi
        ? {
            GlobalSecondaryIndexes: [
              { IndexName: gsi[0], KeySchema: schema(gsi[1]), Projection: { ProjectionType: 'ALL' as const } },
            ],
          }
        : {}),
    }),
  );
}

interface Sent {
  command: string;
  input: Record<string, unknown>;
}

/** The partition keys a request carries, by attribute: `[table, index, attribute, value]`. */
function keysOf(s: Sent): Array<{ op: string; table: string; index: string | null; key: Record<string, unknown> }> {
  const op = s.command.replace(/Command$/, '');
  const i = s.input as Record<string, unknown> & {
    TableName?: string;
    IndexName?: string;
    Item?: Record<string, AttributeValue>;
    Key?: Record<string, AttributeValue>;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, AttributeValue>;
    KeyConditionExpression?: string;
    RequestItems?: Record<string, Array<{ PutRequest?: { Item: Record<string, AttributeValue> } }>>;
  };
  if (op === 'PutItem') return [{ op, table: i.TableName!, index: null, key: unmarshall(i.Item!) }];
  if (op === 'GetItem' || op === 'DeleteItem' || op === 'UpdateItem')
    return [{ op, table: i.TableName!, index: null, key: unmarshall(i.Key!) }];
  if (op === 'Query') {
    // `#qha = :qhv`: the hash key's equality in the key condition.
    const key: Record<string, unknown> = {};
    const values = unmarshall(i.ExpressionAttributeValues!);
    for (const m of i.KeyConditionExpression!.matchAll(/(#\w+) = (:\w+)/g))
      key[i.ExpressionAttributeNames![m[1]]] = values[m[2]];
    return [{ op, table: i.TableName!, index: i.IndexName ?? null, key }];
  }
  if (op === 'BatchWriteItem')
    return Object.entries(i.RequestItems!).flatMap(([table, rs]) =>
      rs.flatMap((r) => (r.PutRequest ? [{ op, table, index: null, key: unmarshall(r.PutRequest.Item) }] : [])),
    );
  return [];
}

test('run with the real dynamoose against dynalite, each request sent is one the engine read', async () => {
  const db = await startDynalite();
  const sent: Sent[] = [];
  const ddb = new DynamoDB({
    endpoint: db.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  ddb.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: 'captureRequests' },
  );
  dynamoose.aws.ddb.set(ddb);
  try {
    await createTable(
      db,
      'tickets',
      [['id', 'S']],
      [
        'statusIndex',
        [
          ['status', 'S'],
          ['createdAt', 'N'],
        ],
      ],
    );
    await createTable(db, 'page-views', [['page', 'S']]);
    await createTable(db, 'announcements', [
      ['feed', 'S'],
      ['postedAt', 'N'],
    ]);
    await createTable(db, 'sessions', [['sessionId', 'S']], ['userIdGlobalIndex', [['userId', 'S']]]);
    await createTable(
      db,
      'shop-Order',
      [
        ['customerId', 'S'],
        ['orderId', 'S'],
      ],
      ['byRegion', [['region', 'S']]],
    );
    await createTable(db, 'shop-Flag', [
      ['scope', 'S'],
      ['name', 'S'],
    ]);
    const tickets = await import(pathToFileURL(path.join(FIXTURE, 'ts', 'tickets.ts')).href);
    const id: string = await tickets.openTicket({ params: {}, body: { title: 'printer on fire' } });
    assert.equal((await tickets.openTickets()).length, 1);
    assert.equal((await tickets.getTicket({ params: { id }, body: {} })).title, 'printer on fire');
    await tickets.closeTicket({ params: { id }, body: {} });
    assert.equal((await tickets.closedTickets()).length, 1);
    await tickets.countView({ params: { page: 'pricing' }, body: {} });
    await tickets.countHomeView();
    await tickets.announce('spring sale');
    const session: string = await tickets.startSession('u-1');
    await tickets.endSession(session);
    const handler = await import(pathToFileURL(path.join(FIXTURE, 'cjs', 'handler.js')).href);
    const order = (customerId: string, orderId: string) => ({
      pathParameters: { customerId },
      body: JSON.stringify({ orderId, total: 12 }),
    });
    await handler.placeOrder(order('c-1', 'o-1'));
    assert.equal((await handler.listOrders({ pathParameters: { customerId: 'c-1' } })).length, 1);
    assert.equal((await handler.europeanOrders()).length, 1);
    await handler.importOrders({
      body: JSON.stringify([
        { customerId: 'c-2', orderId: 'o-2', total: 1 },
        { customerId: 'c-3', orderId: 'o-3', total: 2 },
      ]),
    });
    await handler.setFlag({ pathParameters: { name: 'dark-mode' } });

    const requests = sent.flatMap(keysOf);
    assert.ok(requests.length >= 16, `${requests.length} requests`);
    const read = accesses.filter((a) => a.library && !a.library.schema && !a.file.endsWith('models.ts'));
    const matched = new Set<Access>();
    for (const r of requests) {
      const candidates = read.filter(
        (a) =>
          a.operation === r.op &&
          a.table.kind === 'literal' &&
          a.table.name === r.table &&
          (a.index ?? null) === r.index,
      );
      const hit = candidates.filter((a) => {
        const v = r.key[a.partitionKey!.attribute];
        return typeof v === 'string' && matchesTemplate(v, a.partitionKey!.template);
      });
      assert.ok(
        hit.length > 0,
        `${r.op} ${r.table} ${r.index} ${JSON.stringify(r.key)} is none of ${candidates.map(line)}`,
      );
      hit.forEach((a) => matched.add(a));
      // A put writes the index partitions the engine read for it too.
      if (r.op === 'PutItem')
        for (const w of read.filter(
          (a) => a.index && hit.some((h) => line(h) === line(a)) && a.table.kind === 'literal',
        ))
          if (typeof r.key[w.partitionKey!.attribute] === 'string')
            assert.ok(matchesTemplate(r.key[w.partitionKey!.attribute] as string, w.partitionKey!.template));
    }
    // Every call the engine read on the table (not an index write) was sent as read.
    const unsent = read.filter((a) => !a.index || a.operation === 'Query').filter((a) => !matched.has(a));
    assert.deepEqual(unsent.map(line), []);

    for (const key of ['OPEN', 'GLOBAL', 'flags', 'home', 'eu']) {
      const out = keysMatch(FIXTURE, key);
      assert.match(out, / model · /, `${key}:\n${out}`);
    }
    assert.match(keysMatch(FIXTURE, 'OPEN'), /Ticket model · statusIndex · tickets\/statusIndex · status = OPEN/);
  } finally {
    ddb.destroy();
    await db.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, findingLines, summarize } from './helpers';

/**
 * Every value that may reach a key is an alternative: a constant on one path and an
 * entity id on another is a constant key on some paths, reported on the line of the
 * constant; literals only are a small set; entity ids only are no risk.
 */

const ts = (...lines: string[]) =>
  [
    'import { DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";',
    'const doc = DynamoDBDocumentClient.from(client);',
    ...lines,
  ].join('\n') + '\n';

const py = (...lines: string[]) =>
  [
    'import boto3',
    'from boto3.dynamodb.conditions import Key',
    'table = boto3.resource("dynamodb").Table("app")',
    ...lines,
  ].join('\n') + '\n';

/** The single finding of a snippet: its 1-based line, rule and message. */
async function only(file: string, text: string) {
  const r = await analyze(file, text);
  assert.equal(r.findings.length, 1, `one finding expected, got ${findingLines(r).join(', ') || 'none'}`);
  const f = r.findings[0];
  return {
    line: f.span.startLine + 1,
    rule: f.rule,
    message: f.message,
    someOfPaths: f.access.partitionKey?.someOfPaths,
  };
}

test('JS: a let overwritten in an if is a constant on some paths, at the overwrite', async () => {
  const f = await only(
    'price.js',
    ts(
      'export async function price(region) {',
      '  let pk = "PRICES#" + region;',
      '  if (!region) {',
      '    pk = "PRICES#DEFAULT";',
      '  }',
      '  return doc.send(new GetCommand({ TableName: "pricing", Key: { pk } }));',
      '}',
    ),
  );
  assert.deepEqual([f.line, f.rule, f.someOfPaths], [6, 'SL001', true]);
  assert.match(f.message, /^Partition key "PRICES#DEFAULT" on table "pricing" is a constant on some paths: /);
});

test('JS: a ternary, ?? and || between an entity id and a shared token', async () => {
  for (const expr of ['userId ? `USER#${userId}` : "PUBLIC"', 'userId ?? "PUBLIC"', 'userId || "PUBLIC"']) {
    const f = await only(
      'posts.ts',
      ts(
        'export async function posts(userId?: string) {',
        `  const pk = ${expr};`,
        '  return doc.send(new QueryCommand({ TableName: "posts", KeyConditionExpression: "pk = :pk",',
        '    ExpressionAttributeValues: { ":pk": pk } }));',
        '}',
      ),
    );
    assert.deepEqual([f.line, f.rule, f.someOfPaths], [4, 'SL001', true], expr);
    assert.match(f.message, /"PUBLIC" on table "posts" is a constant on some paths/);
  }
});

test('JS: a constant inside a template is still one path of several', async () => {
  const r = await analyze(
    'feed.ts',
    ts(
      'export const feed = (topic?: string) =>',
      '  doc.send(new GetCommand({ TableName: "feed", Key: { pk: `FEED#${topic ?? "ALL"}` } }));',
    ),
  );
  assert.deepEqual(findingLines(r), ['4 SL001']);
  assert.equal(r.findings[0].access.partitionKey?.someOfPaths, true);
});

test('JS: literals on every path are a small set, not a constant', async () => {
  const r = await analyze(
    'sort.ts',
    ts(
      'export async function list(asc: boolean) {',
      '  let pk;',
      '  if (asc) { pk = "ASC"; } else if (Math.random() > 2) { pk = "MID"; } else { pk = "DESC"; }',
      '  return doc.send(new GetCommand({ TableName: "t", Key: { pk } }));',
      '}',
    ),
  );
  assert.deepEqual(summarize(r), ['6 GetItem t pk={low-cardinality} (low-cardinality)']);
});

test('JS: an if/else covering every path hides the value before it; a block of its own does not leak', async () => {
  const r = await analyze(
    'cover.ts',
    ts(
      'export async function get(orgId: string, userId: string, team: boolean) {',
      '  let pk = "DEFAULT";',
      '  if (team) { pk = `ORG#${orgId}`; } else { pk = `USER#${userId}`; }',
      '  { let pk = "INNER"; pk = "OTHER"; }',
      '  return doc.send(new GetCommand({ TableName: "t", Key: { pk } }));',
      '}',
    ),
  );
  assert.deepEqual(findingLines(r), []);
  assert.match(summarize(r)[0], /\(high-cardinality\)$/);
});

test('JS: an assignment in the branch the use is not in does not reach it', async () => {
  const r = await analyze(
    'exclusive.ts',
    ts(
      'export async function get(userId: string, admin: boolean) {',
      '  let pk = `USER#${userId}`;',
      '  if (admin) {',
      '    pk = "ADMINS";',
      '  } else {',
      '    return doc.send(new GetCommand({ TableName: "t", Key: { pk } }));',
      '  }',
      '}',
    ),
  );
  assert.deepEqual(findingLines(r), []);
});

test('Python: if/else choosing an everyone partition, in a boto3 condition', async () => {
  const f = await only(
    'announce.py',
    py(
      'def announcements(mode, team_id):',
      '    if mode == "all":',
      '        cond = Key("pk").eq("EVERYONE")',
      '    else:',
      '        cond = Key("pk").eq(f"TEAM#{team_id}")',
      '    return table.query(KeyConditionExpression=cond)["Items"]',
    ),
  );
  assert.deepEqual([f.line, f.rule, f.someOfPaths], [6, 'SL001', true]);
  assert.match(f.message, /"EVERYONE" on table "app" is a constant on some paths/);
});

test('Python: elif chains, try/except, `or` and `a if c else b`', async () => {
  const shapes: Array<[string[], number]> = [
    [
      [
        '    if kind == "a":',
        '        pk = f"A#{user_id}"',
        '    elif kind == "b":',
        '        pk = "SHARED"',
        '    else:',
        '        pk = f"C#{user_id}"',
      ],
      8,
    ],
    [['    try:', '        pk = f"C#{lookup(user_id)}"', '    except KeyError:', '        pk = "SHARED"'], 8],
    [['    pk = user_id or "SHARED"'], 5],
    [['    pk = f"U#{user_id}" if user_id else "SHARED"'], 5],
  ];
  for (const [body, line] of shapes) {
    const f = await only(
      'shapes.py',
      py('def get(kind, user_id, lookup):', ...body, '    return table.get_item(Key={"pk": pk})'),
    );
    assert.deepEqual([f.line, f.rule, f.someOfPaths], [line, 'SL001', true], body.join('\n'));
  }
});

test('Python: a parameter a branch may replace is one alternative', async () => {
  const f = await only(
    'region.py',
    py(
      'def prices(region_id):',
      '    if not region_id:',
      '        region_id = "DEFAULT"',
      '    return table.get_item(Key={"pk": region_id})',
    ),
  );
  assert.deepEqual([f.line, f.rule, f.someOfPaths], [6, 'SL001', true]);
});

test('Python: entity ids on every path, and a None placeholder, are no finding', async () => {
  const r = await analyze(
    'lookup.py',
    py(
      'def lookup(email=None, account_id=None):',
      '    key = None',
      '    if email:',
      '        key = {"pk": f"EMAIL#{email}"}',
      '    else:',
      '        key = {"pk": f"ACCOUNT#{account_id}"}',
      '    return table.get_item(Key=key).get("Item")',
    ),
  );
  assert.deepEqual(findingLines(r), []);
  assert.match(summarize(r)[0], /\(high-cardinality\)$/);
});

test('Python: a later assignment on the straight path hides the branches before it', async () => {
  const r = await analyze(
    'hidden.py',
    py(
      'def get(user_id, flag):',
      '    if flag:',
      '        pk = "SHARED"',
      '    pk = f"U#{user_id}"',
      '    return table.get_item(Key={"pk": pk})',
    ),
  );
  assert.deepEqual(findingLines(r), []);
});

test('a counter item on some paths says so too', async () => {
  const r = await analyze(
    'paths.py',
    py(
      'def bump(user_id):',
      '    pk = f"U#{user_id}" if user_id else "COUNTER"',
      '    table.update_item(Key={"pk": pk}, UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": 1})',
    ),
  );
  assert.deepEqual(findingLines(r), ['5 SL004']);
  assert.match(r.findings[0].message, /single item "COUNTER" on table "app" on some paths: /);
});

test('Python: an f-string around a value taken on some paths is one of several values too', async () => {
  const f = await only(
    'fstring.py',
    py('def get(tenant=None):', '    return table.get_item(Key={"pk": f"T#{tenant or \'ALL\'}"})'),
  );
  assert.deepEqual([f.line, f.rule, f.someOfPaths], [5, 'SL001', true]);
  assert.match(f.message, /"T#ALL" .* on some paths/);
});

test('an accumulator (a hash loop) is not a constant on some paths', async () => {
  const r = await analyze(
    'hash.py',
    py(
      'def fnv(value):',
      '    h = 0x811C9DC5',
      '    for byte in value.encode("utf-8"):',
      '        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF',
      '    return h',
      'def put(player_id):',
      '    table.put_item(Item={"pk": f"BOARD#{fnv(player_id) % 10}", "sk": player_id})',
    ),
  );
  assert.deepEqual(findingLines(r), []);
  assert.deepEqual(summarize(r), ['10 PutItem app pk=BOARD#{shard 0..9} sk={entity-id} (sharded)']);
});

/**
 * A request built whole in each branch (one item by its key, or the newest of all through an
 * index) is two requests: read field by field, the index of one and the key condition of
 * neither made a query no path sends, its key unread.
 */
test('JS: a request built otherwise in each branch is read as the branch with the constant key', async () => {
  const r = await analyze(
    'list-products.ts',
    ts(
      'import type { QueryCommandInput } from "@aws-sdk/lib-dynamodb";',
      'export async function listProducts(category?: string) {',
      '  let input: QueryCommandInput;',
      '  if (category) {',
      '    input = {',
      '      TableName: "catalog",',
      '      KeyConditionExpression: "#pk = :pk",',
      '      ExpressionAttributeNames: { "#pk": "pk" },',
      '      ExpressionAttributeValues: { ":pk": `CATEGORY#${category}` },',
      '    };',
      '  } else {',
      '    input = {',
      '      TableName: "catalog",',
      '      IndexName: "byNewest",',
      '      KeyConditionExpression: "#g = :g",',
      '      ExpressionAttributeNames: { "#g": "gsi1pk" },',
      '      ExpressionAttributeValues: { ":g": "PRODUCT" },',
      '      ScanIndexForward: false,',
      '    };',
      '  }',
      '  return doc.send(new QueryCommand(input));',
      '}',
    ),
  );
  assert.deepEqual(summarize(r), ['23 Query catalog gsi1pk=PRODUCT (constant)']);
  assert.equal(r.accesses[0].index, 'byNewest');
  assert.equal(r.accesses[0].partitionKey?.someOfPaths, true);
});

test('Python: query kwargs built otherwise in each branch are read as the branch with the constant key', async () => {
  const r = await analyze(
    'list_products.py',
    py(
      'def list_products(category=None):',
      '    if category:',
      '        kwargs = {"KeyConditionExpression": Key("pk").eq(f"CATEGORY#{category}")}',
      '    else:',
      '        kwargs = {"IndexName": "byNewest", "KeyConditionExpression": Key("gsi1pk").eq("PRODUCT"), "ScanIndexForward": False}',
      '    return table.query(**kwargs)["Items"]',
    ),
  );
  assert.deepEqual(summarize(r), ['9 Query app gsi1pk=PRODUCT (constant)']);
  assert.equal(r.accesses[0].index, 'byNewest');
  assert.equal(r.accesses[0].partitionKey?.someOfPaths, true);
});

test('the same request in each branch with another key value is still chosen field by field', async () => {
  const r = await analyze(
    'feed.ts',
    ts(
      'export async function feed(userId?: string) {',
      '  let input;',
      '  if (userId) input = { TableName: "feed", KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `USER#${userId}` } };',
      '  else input = { TableName: "feed", KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": "PUBLIC" } };',
      '  return doc.send(new QueryCommand(input));',
      '}',
    ),
  );
  assert.deepEqual(summarize(r), ['7 Query feed pk=PUBLIC (constant)']);
});

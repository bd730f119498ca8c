import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, findingLines, summarize } from './helpers';

/** Joins lines so each snippet reads as the Python file it stands for. */
const py = (...lines: string[]) => lines.join('\n') + '\n';

const HEADER = [
  'import os, time, random, uuid, hashlib, zlib',
  'from datetime import datetime, date, timezone',
  'import boto3',
  'from boto3.dynamodb.conditions import Key',
  'table = boto3.resource("dynamodb").Table("app")',
  'client = boto3.client("dynamodb")',
];

test('seed: sharded leaderboard writer and its scatter-gather reader', async () => {
  const r = await analyze(
    'seed.py',
    py(
      'import random',
      'import boto3',
      'from boto3.dynamodb.conditions import Key',
      'table = boto3.resource("dynamodb").Table("leaderboard")',
      '',
      'shard_count = 10',
      'shard_id = random.randint(1, shard_count)',
      'partition_key = f"LEADERBOARD#GLOBAL#{shard_id}"',
      '',
      'table.put_item(Item={',
      '    "PK": partition_key,',
      '    "SK": f"SCORE#{user_id}",',
      '    "Score": score,',
      '    "UserId": user_id',
      '})',
      '',
      'import concurrent.futures',
      '',
      'def query_shard(shard_id):',
      '    return table.query(',
      '        KeyConditionExpression=Key("PK").eq(f"LEADERBOARD#GLOBAL#{shard_id}"),',
      '        ScanIndexForward=False,  # descending order',
      '        Limit=10',
      '    )["Items"]',
      '',
      'with concurrent.futures.ThreadPoolExecutor() as executor:',
      '    results = list(executor.map(query_shard, range(1, 11)))',
    ),
  );
  assert.deepEqual(summarize(r), [
    '11 PutItem leaderboard PK=LEADERBOARD#GLOBAL#{shard 1..10} SK=SCORE#{entity-id} (sharded)',
    '21 Query leaderboard PK=LEADERBOARD#GLOBAL#{shard 1..10} (sharded)',
  ]);
  assert.deepEqual(findingLines(r), []);
  assert.equal(r.accesses[0].sdk, 'boto3-resource');
  assert.equal(r.accesses[1].kind, 'read');
});

test('seed without a table binding: the writer is still recognised by its Item', async () => {
  const r = await analyze(
    'seed.py',
    py(
      'import random',
      'shard_count = 10',
      'shard_id = random.randint(1, shard_count)',
      'partition_key = f"LEADERBOARD#GLOBAL#{shard_id}"',
      'table.put_item(Item={"PK": partition_key, "SK": f"SCORE#{user_id}"})',
    ),
  );
  assert.deepEqual(summarize(r), ['5 PutItem ? PK=LEADERBOARD#GLOBAL#{shard 1..10} SK=SCORE#{entity-id} (sharded)']);
});

test('a constant partition key is SL001 on the key line', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'table.put_item(',
      '    Item={',
      '        "pk": "GLOBAL#CONFIG",',
      '        "sk": "v1",',
      '    }',
      ')',
    ),
  );
  assert.deepEqual(summarize(r), ['9 PutItem app pk=GLOBAL#CONFIG sk=v1 (constant)']);
  assert.deepEqual(findingLines(r), ['9 SL001']);
});

test("today's date in the key is SL002", async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      `table.put_item(Item={"pk": f"LOGS#{datetime.now().strftime('%Y-%m-%d')}", "sk": str(uuid.uuid4())})`,
    ),
  );
  assert.deepEqual(summarize(r), ['7 PutItem app pk=LOGS#{time} sk={random} (time-bucket)']);
  assert.deepEqual(findingLines(r), ['7 SL002']);
});

test('a status-keyed query is SL003', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'def open_orders(order):',
      '    return table.query(KeyConditionExpression=Key("pk").eq(f"STATUS#{order.status}"))',
    ),
  );
  assert.deepEqual(summarize(r), ['8 Query app pk=STATUS#{low-cardinality} (low-cardinality)']);
  assert.deepEqual(findingLines(r), ['8 SL003']);
});

test('an ADD counter on one item is SL004', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'table.update_item(',
      '    Key={"pk": "COUNTER#orders"},',
      '    UpdateExpression="ADD #n :one",',
      '    ExpressionAttributeNames={"#n": "n"},',
      '    ExpressionAttributeValues={":one": 1},',
      ')',
    ),
  );
  assert.deepEqual(summarize(r), ['8 UpdateItem app pk=COUNTER#orders (counter)']);
  assert.deepEqual(findingLines(r), ['8 SL004']);
  assert.equal(r.accesses[0].increments, true);
});

test('a timestamp sort key under a constant partition key is SL001 + SL005', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'table.put_item(Item={',
      '    "pk": "EVENTS",',
      '    "sk": datetime.now(timezone.utc).isoformat(),',
      '})',
    ),
  );
  assert.deepEqual(summarize(r), ['8 PutItem app pk=EVENTS sk={timestamp} (constant)']);
  assert.deepEqual(findingLines(r), ['8 SL001', '9 SL005']);
});

test('client put_item with typed values', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'def save(user_id):',
      '    client.put_item(TableName="users", Item={"pk": {"S": f"USER#{user_id}"}, "n": {"N": "1"}})',
    ),
  );
  assert.deepEqual(summarize(r), ['8 PutItem users pk=USER#{entity-id} (high-cardinality)']);
  assert.equal(r.accesses[0].sdk, 'boto3-client');
  assert.deepEqual(findingLines(r), []);
});

test('batch_writer puts and deletes take the table of the batch', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'def load(rows):',
      '    with table.batch_writer() as batch:',
      '        for row in rows:',
      '            batch.put_item(Item={"pk": "IMPORT", "sk": row["id"]})',
      '            batch.delete_item(Key={"pk": f"USER#{row[\'user_id\']}"})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '10 PutItem app pk=IMPORT sk={entity-id} (constant)',
    '11 DeleteItem app pk=USER#{entity-id} (high-cardinality)',
  ]);
  assert.deepEqual(
    r.accesses.map((a) => a.sdk),
    ['boto3-resource', 'boto3-resource'],
  );
  assert.deepEqual(findingLines(r), ['10 SL001']);
});

test('transact_write_items yields one access per item', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'def order(user_id):',
      '    client.transact_write_items(TransactItems=[',
      '        {"Put": {"TableName": "orders", "Item": {"pk": {"S": f"USER#{user_id}"}}}},',
      '        {"Update": {"TableName": "stats", "Key": {"pk": {"S": "TOTAL"}},',
      '                    "UpdateExpression": "SET c = c + :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}},',
      '    ])',
    ),
  );
  assert.deepEqual(summarize(r), [
    '9 TransactWriteItems orders pk=USER#{entity-id} (high-cardinality)',
    '10 TransactWriteItems stats pk=TOTAL (counter)',
  ]);
  assert.deepEqual(findingLines(r), ['10 SL004']);
});

test('batch_write_item and batch_get_item on the client', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'client.batch_write_item(RequestItems={"orders": [{"PutRequest": {"Item": {"pk": {"S": "ALL"}}}}]})',
      'client.batch_get_item(RequestItems={"users": {"Keys": [{"pk": {"S": f"USER#{user_id}"}}]}})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '7 BatchWriteItem orders pk=ALL (constant)',
    '8 BatchGetItem users pk=USER#{entity-id} (high-cardinality)',
  ]);
});

test('batch requests built by a comprehension: one request shaped like its body, a table keyed from the environment', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'USERS = os.environ["USERS_TABLE"]',
      'client.batch_write_item(RequestItems={"orders": [{"PutRequest": {"Item": {"pk": {"S": "ALL"}, "sk": {"S": o["id"]}}}} for o in chunk]})',
      'client.batch_get_item(RequestItems={USERS: {"Keys": [{"userId": {"S": user_id}} for user_id in ids]}})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '8 BatchWriteItem orders pk=ALL sk={entity-id} (constant)',
    '9 BatchGetItem USERS_TABLE userId={entity-id} (high-cardinality)',
  ]);
});

test('batch_get_item of a page of a list (`keys[start:start + 100]`): the keys the list holds', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'def load(ids):',
      '    keys = [{"pk": {"S": f"USER#{user_id}"}} for user_id in ids]',
      '    for start in range(0, len(keys), 100):',
      '        client.batch_get_item(RequestItems={"users": {"Keys": keys[start:start + 100]}})',
      'stats = [{"pk": {"S": "STATS#global"}}]',
      'client.batch_get_item(RequestItems={"users": {"Keys": stats[:100]}})',
      // Number bounds cut the list: the key is made of the last two parts only.
      'parts = ["ORG", "acme", "USER"]',
      'table.get_item(Key={"pk": "#".join(parts[1:])})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '10 BatchGetItem users pk=USER#{entity-id} (high-cardinality)',
    '12 BatchGetItem users pk=STATS#global (constant)',
    '14 GetItem app pk=acme#USER (constant)',
  ]);
});

test('a query paginator is a paginated Query on the environment table', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'paginator = client.get_paginator("query")',
      'for page in paginator.paginate(TableName=os.getenv("EVENTS_TABLE"), KeyConditionExpression="pk = :pk",',
      '                               ExpressionAttributeValues={":pk": {"S": "EVENTS"}}):',
      '    pass',
      'client.get_paginator("scan").paginate(TableName="x")',
    ),
  );
  // The key's value is written on the call's second line.
  assert.deepEqual(summarize(r), ['9 Query EVENTS_TABLE pk=EVENTS (constant)']);
  assert.equal(r.accesses[0].paginated, true);
  assert.equal(r.accesses[0].sdk, 'boto3-client');
});

test('table names from the environment', async () => {
  const r = await analyze(
    'x.py',
    py(
      'import os, boto3',
      'dynamodb = boto3.resource("dynamodb")',
      'orders = dynamodb.Table(os.environ["ORDERS_TABLE"])',
      'USERS = os.environ.get("USERS_TABLE", "users")',
      'users = dynamodb.Table(USERS)',
      'orders.get_item(Key={"pk": order_id})',
      'users.get_item(Key={"pk": user_id})',
      'boto3.client("dynamodb").get_item(TableName=os.environ["T"], Key={"pk": {"S": user_id}})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '6 GetItem ORDERS_TABLE pk={entity-id} (high-cardinality)',
    '7 GetItem USERS_TABLE pk={entity-id} (high-cardinality)',
    '8 GetItem T pk={entity-id} (high-cardinality)',
  ]);
});

test('a settings helper of the file (`get_env(key, default=None)`) names the variable each call passes', async () => {
  const r = await analyze(
    'x.py',
    py(
      'import os, boto3',
      'def get_env(key, default=None):',
      '    value = os.getenv(key)',
      '    if value:',
      '        return value',
      '    if default is not None:',
      '        return default',
      '    raise RuntimeError(key)',
      'def env_or_local(key):',
      '    value = os.getenv(key)',
      '    if value:',
      '        return value',
      '    return "local-" + key.lower()',
      'dynamodb = boto3.resource("dynamodb")',
      'orders = dynamodb.Table(get_env("ORDERS_TABLE"))',
      'users = dynamodb.Table(env_or_local("USERS_TABLE"))',
      'orders.get_item(Key={"pk": order_id})',
      'users.get_item(Key={"pk": user_id})',
    ),
  );
  const tables = r.accesses.map((a) => a.table.kind + ('name' in a.table ? ` ${a.table.name}` : ''));
  assert.equal(tables[0], 'env ORDERS_TABLE');
  // The second helper's other return is text of its own: it is not read as a lookup of the variable.
  assert.notEqual(tables[1], 'env USERS_TABLE');
});

test('os.environ[NAME], os.getenv(NAME) and os.environ.get(NAME, ...) with NAME a constant name the variable', async () => {
  const r = await analyze(
    'x.py',
    py(
      'import os, boto3',
      'ORDERS_VAR = "ORDERS_TABLE"',
      'USERS_VAR = "USERS_TABLE"',
      'dynamodb = boto3.resource("dynamodb")',
      'def handler(event, context):',
      '    if ORDERS_VAR in os.environ.keys():',
      '        name = os.environ[ORDERS_VAR]',
      '    else:',
      '        return None',
      '    dynamodb.Table(name).get_item(Key={"pk": event["order_id"]})',
      '    dynamodb.Table(os.getenv(USERS_VAR)).get_item(Key={"pk": event["user_id"]})',
      '    dynamodb.Table(os.environ.get(USERS_VAR, "users")).get_item(Key={"pk": event["user_id"]})',
      'def read(variable, key):',
      '    return dynamodb.Table(os.environ[variable]).get_item(Key={"pk": key})',
    ),
  );
  assert.deepEqual(
    r.accesses.map((a) => ({ kind: a.table.kind, name: 'name' in a.table ? a.table.name : undefined })),
    [
      { kind: 'env', name: 'ORDERS_TABLE' },
      { kind: 'env', name: 'USERS_TABLE' },
      { kind: 'env', name: 'USERS_TABLE' },
      { kind: 'unknown', name: undefined },
    ],
  );
});

test('a per-user key is high-cardinality and has no finding', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'def save(user_id, name):',
      '    table.put_item(Item={"pk": f"USER#{user_id}", "sk": "PROFILE", "name": name})',
    ),
  );
  assert.deepEqual(summarize(r), ['8 PutItem app pk=USER#{entity-id} sk=PROFILE (high-cardinality)']);
  assert.deepEqual(findingLines(r), []);
});

test('dict.get, cache.get and look-alikes without DynamoDB arguments are not calls', async () => {
  const r = await analyze(
    'x.py',
    py(
      'import boto3',
      'cache = {}',
      'cache.get("x")',
      'd.get(k)',
      'd.put_item("x")',
      'session.query(User).filter(x)',
      'store.update_item(key, value)',
    ),
  );
  assert.deepEqual(summarize(r), []);
});

test('a file with syntax errors still yields its valid calls', async () => {
  const r = await analyze(
    'x.py',
    py(
      'import boto3',
      'table = boto3.resource("dynamodb").Table("t")',
      'def ok(user_id):',
      '    table.get_item(Key={"pk": f"USER#{user_id}"})',
      'def broken(:',
      '    x = = 3',
    ),
  );
  assert.equal(r.syntaxErrors, true);
  assert.deepEqual(summarize(r), ['4 GetItem t pk=USER#{entity-id} (high-cardinality)']);
});

test('garbage input does not throw', async () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const chars = 'abc()[]{}"\'=+%:.,\n #fx_019\\*&@';
  for (let i = 0; i < 20; i++) {
    const text =
      'boto3 put_item(Item=' + Array.from({ length: 2000 }, () => chars[Math.floor(rand() * chars.length)]).join('');
    const r = await analyze('x.py', text);
    assert.equal(r.skipped, null);
  }
});

test('deeply nested expressions do not overflow the stack', async () => {
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
    ['{"a": ', '}'],
    ['f(', ')'],
  ]) {
    const deep = open.repeat(5000) + '"X"' + close.repeat(5000);
    const r = await analyze(
      'x.py',
      py('import boto3', `table.put_item(Item={"pk": ${deep}})`, `x = ${deep}`, 'table.put_item(Item={"pk": x})'),
    );
    assert.equal(r.skipped, null);
    assert.equal(r.accesses.length, 2);
  }
  const chain = Array.from({ length: 3000 }, (_, i) => `x${i + 1} = x${i} + "a"`);
  const r = await analyze('x.py', py('import boto3', 'x0 = "s"', ...chain, 'table.put_item(Item={"pk": x3000})'));
  assert.equal(r.accesses.length, 1);
});

test('string forms: implicit concatenation, prefixes, +, .format, %, str(), join', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'table.put_item(Item={"pk": "A#" r"\\d" u"B" b"C"})',
      'table.put_item(Item={"pk": "A#" + str(user_id)})',
      'table.put_item(Item={"pk": "{}#{}".format("ORG", org_id)})',
      'table.put_item(Item={"pk": "{0}#{name}".format("ORG", name=tenant_id)})',
      'table.put_item(Item={"pk": "%s#%05d" % ("ORG", order_id)})',
      'table.put_item(Item={"pk": "#".join(["ORG", account_id])})',
      'table.put_item(Item={"pk": f"{{x}}#\\t{user_id!r}"})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '7 PutItem app pk=A#\\dBC (constant)',
    '8 PutItem app pk=A#{entity-id} (high-cardinality)',
    '9 PutItem app pk=ORG#{entity-id} (high-cardinality)',
    '10 PutItem app pk=ORG#{entity-id} (high-cardinality)',
    '11 PutItem app pk=ORG#{entity-id} (high-cardinality)',
    '12 PutItem app pk=ORG#{entity-id} (high-cardinality)',
    '13 PutItem app pk={x}#\t{entity-id} (high-cardinality)',
  ]);
});

test('time forms: instants and buckets', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'import datetime as dt',
      'now = datetime.utcnow()',
      'table.put_item(Item={"pk": f"D#{date.today()}"})',
      'table.put_item(Item={"pk": f"D#{now.date().isoformat()}"})',
      'table.put_item(Item={"pk": f"D#{now.isoformat()[:13]}"})',
      'table.put_item(Item={"pk": f"D#{now:%Y-%m}"})',
      'table.put_item(Item={"pk": "D#" + str(int(time.time() // 3600))})',
      'table.put_item(Item={"pk": f"T#{int(time.time())}"})',
      'table.put_item(Item={"pk": f"T#{time.time_ns()}"})',
      'table.put_item(Item={"pk": f"T#{dt.datetime.now().isoformat()}"})',
      'table.put_item(Item={"pk": f"T#{now.strftime(\'%Y%m%d%H%M%S\')}"})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '9 PutItem app pk=D#{time} (time-bucket)',
    '10 PutItem app pk=D#{time} (time-bucket)',
    '11 PutItem app pk=D#{time} (time-bucket)',
    '12 PutItem app pk=D#{time} (time-bucket)',
    '13 PutItem app pk=D#{time} (time-bucket)',
    '14 PutItem app pk=T#{timestamp} (high-cardinality)',
    '15 PutItem app pk=T#{timestamp} (high-cardinality)',
    '16 PutItem app pk=T#{timestamp} (high-cardinality)',
    '17 PutItem app pk=T#{timestamp} (high-cardinality)',
  ]);
});

test('random suffixes: randint is inclusive, randrange and choice are not', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'SHARDS = 4',
      'table.put_item(Item={"pk": f"R#{random.randint(0, SHARDS - 1)}"})',
      'table.put_item(Item={"pk": f"R#{random.randrange(SHARDS)}"})',
      'table.put_item(Item={"pk": f"R#{random.randrange(1, 5)}"})',
      'table.put_item(Item={"pk": f"R#{random.choice(range(1, 4))}"})',
      'table.put_item(Item={"pk": f"R#{random.choice([0, 2, 4])}"})',
      'table.put_item(Item={"pk": f"R#{int(random.random() * 8)}"})',
      'table.put_item(Item={"pk": f"U#{uuid.uuid4()}"})',
      'table.put_item(Item={"pk": str(uuid.uuid4())})',
      'table.put_item(Item={"pk": uuid.uuid4().hex})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '8 PutItem app pk=R#{shard 0..3} (sharded)',
    '9 PutItem app pk=R#{shard 0..3} (sharded)',
    '10 PutItem app pk=R#{shard 1..4} (sharded)',
    '11 PutItem app pk=R#{shard 1..3} (sharded)',
    '12 PutItem app pk=R#{shard 0,2,4} (sharded)',
    '13 PutItem app pk=R#{shard 0..7} (sharded)',
    '14 PutItem app pk=U#{random} (high-cardinality)',
    '15 PutItem app pk={random} (high-cardinality)',
    '16 PutItem app pk={random} (high-cardinality)',
  ]);
});

test('calculated suffixes: hash modulo N and (x % N) + 1', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'SHARDS = 16',
      'def save(uid):',
      '    s = int(hashlib.md5(uid.encode()).hexdigest(), 16) % SHARDS',
      '    table.put_item(Item={"pk": f"BOARD#{s}"})',
      '    table.put_item(Item={"pk": f"BOARD#{(zlib.crc32(uid.encode()) % 4) + 1}"})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '10 PutItem app pk=BOARD#{shard 0..15} (sharded)',
    '11 PutItem app pk=BOARD#{shard 1..4} (sharded)',
  ]);
  assert.deepEqual(findingLines(r), []);
});

test('loop readers: range, lists, comprehensions, call sites in loops, map', async () => {
  const q = (prefix: string, v: string) => `table.query(KeyConditionExpression=Key("pk").eq(f"${prefix}#{${v}}"))`;
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'SHARD_COUNT = 10',
      'for s in range(1, 11):',
      `    ${q('A', 's')}`,
      'for s in [0, 1, 2]:',
      `    ${q('B', 's')}`,
      `pages = [${q('C', 's')} for s in range(SHARD_COUNT)]`,
      'def one(n):',
      `    return ${q('D', 'n')}`,
      'for i in range(3):',
      '    one(i)',
      'def two(n):',
      `    return ${q('E', 'n')}`,
      'results = list(map(two, range(5)))',
      'def three(n):',
      `    return ${q('F', 'n')}`,
      'with ThreadPoolExecutor() as pool:',
      '    futures = [pool.submit(three, k) for k in range(2, 6)]',
      `found = pool.map(lambda s: ${q('G', 's')}, range(4))`,
      'SUFFIXES = [1, 3, 5]',
      'def four(n):',
      `    return ${q('H', 'n')}`,
      'list(pool.imap_unordered(four, SUFFIXES))',
      'for i, s in enumerate(range(7, 9)):',
      `    ${q('I', 's')}`,
      `    ${q('J', 'i')}`,
    ),
  );
  assert.deepEqual(summarize(r), [
    '9 Query app pk=A#{shard 1..10} (sharded)',
    '11 Query app pk=B#{shard 0..2} (sharded)',
    '12 Query app pk=C#{shard 0..9} (sharded)',
    '14 Query app pk=D#{shard 0..2} (sharded)',
    '18 Query app pk=E#{shard 0..4} (sharded)',
    '21 Query app pk=F#{shard 2..5} (sharded)',
    '24 Query app pk=G#{shard 0..3} (sharded)',
    '27 Query app pk=H#{shard 1,3,5} (sharded)',
    '30 Query app pk=I#{shard 7,8} (sharded)',
    '31 Query app pk=J#{shard 0,1} (sharded)',
  ]);
  assert.deepEqual(findingLines(r), []);
  assert.equal(
    r.accesses[1].partitionKey?.template.parts.some((p) => 'hole' in p && p.hole.shards?.method === 'list'),
    true,
  );
});

test('key conditions: Key() chains and expression strings', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'from boto3.dynamodb import conditions',
      'table.query(KeyConditionExpression=Key("pk").eq("FEED") & Key("sk").between(a, b))',
      'table.query(KeyConditionExpression=conditions.Key("sk").gte(ts) & conditions.Key("pk").eq(f"U#{user_id}"))',
      'table.query(KeyConditionExpression=boto3.dynamodb.conditions.Key("pk").eq("X") & Key("sk").begins_with("ORDER#"))',
      'table.query(KeyConditionExpression="#p = :p AND begins_with(sk, :s)", ExpressionAttributeNames={"#p": "pk"},',
      '            ExpressionAttributeValues={":p": "INBOX", ":s": "MSG#"})',
      'cond = Key("pk").eq(f"T#{tenant_id}")',
      'table.query(KeyConditionExpression=cond)',
    ),
  );
  assert.deepEqual(summarize(r), [
    '8 Query app pk=FEED sk={unknown} (constant)',
    '9 Query app pk=U#{entity-id} sk={timestamp} (high-cardinality)',
    '10 Query app pk=X sk=ORDER# (constant)',
    '12 Query app pk=INBOX sk=MSG# (constant)',
    '14 Query app pk=T#{entity-id} (high-cardinality)',
  ]);
});

test('**kwargs, dict(), annotated and lowercase constants, conditional keys', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'shard_count: int = 5',
      'params = {"KeyConditionExpression": Key("pk").eq(f"S#{random.randint(1, shard_count)}")}',
      'table.query(**params, Limit=5)',
      'table.put_item(Item=dict(pk="ROOT", sk=user_id))',
      'table.put_item(Item={"pk": "PREMIUM" if user.is_premium else "FREE"})',
      'base = {"sk": "META"}',
      'table.put_item(Item={**base, "pk": f"ACCT#{account_id}"})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '9 Query app pk=S#{shard 1..5} (sharded)',
    '10 PutItem app pk=ROOT sk={entity-id} (constant)',
    '11 PutItem app pk={low-cardinality} (low-cardinality)',
    '13 PutItem app pk=ACCT#{entity-id} sk=META (high-cardinality)',
  ]);
});

test('pagination: ExclusiveStartKey and LastEvaluatedKey loops', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'def scan_all(user_id, start):',
      '    table.query(KeyConditionExpression=Key("pk").eq(user_id), ExclusiveStartKey=start)',
      '    kwargs = {"KeyConditionExpression": Key("pk").eq(user_id)}',
      '    while True:',
      '        page = table.query(**kwargs)',
      '        if "LastEvaluatedKey" not in page:',
      '            break',
      '        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]',
      '    table.query(KeyConditionExpression=Key("pk").eq(user_id))',
    ),
  );
  assert.deepEqual(
    r.accesses.map((a) => a.paginated),
    [true, true, false],
  );
});

test('a repository class: self.table from the constructor argument', async () => {
  const r = await analyze(
    'x.py',
    py(
      'import os, boto3',
      'class Repo:',
      '    def __init__(self, table_name):',
      '        self.table = boto3.resource("dynamodb").Table(table_name)',
      '    def save(self, order):',
      '        self.table.put_item(Item={"pk": f"ORDER#{order.id}", "status": order.status})',
      '    def by_day(self):',
      '        self.table.query(KeyConditionExpression=Key("pk").eq(date.today().isoformat()))',
      'repo = Repo(os.environ["ORDERS_TABLE"])',
    ),
  );
  assert.deepEqual(summarize(r), [
    '6 PutItem ORDERS_TABLE pk=ORDER#{entity-id} (high-cardinality)',
    '8 Query ORDERS_TABLE pk={time} (time-bucket)',
  ]);
  // A time-bucket read is not SL002 (that rule is about writes).
  assert.deepEqual(findingLines(r), []);
});

test('a list of every shard of a key (`[base] + [f"...#{s}" for s in range(N)]`) is read shard by shard', async () => {
  const r = await analyze(
    'x.py',
    py(
      ...HEADER,
      'SHARDS = 10',
      'def total():',
      '    ids = ["visits"] + [f"visits#{shard}" for shard in range(SHARDS)]',
      '    keys = [{"pk": {"S": key}} for key in ids]',
      '    for start in range(0, len(keys), 100):',
      '        client.batch_get_item(RequestItems={"stats": {"Keys": keys[start : start + 100]}})',
      'def others(extra):',
      '    for key in ["other"] + [f"visits#{shard}" for shard in range(SHARDS)]:',
      '        table.get_item(Key={"pk": key})',
      '    for key in extra + [f"visits#{shard}" for shard in range(SHARDS)]:',
      '        table.get_item(Key={"pk": key})',
    ),
  );
  assert.deepEqual(summarize(r), [
    '12 BatchGetItem stats pk=visits#{shard 0..9} (sharded)',
    // Another key beside the shards, or a list not known: no one key is read.
    '15 GetItem app pk={unknown} (unknown)',
    '17 GetItem app pk={entity-id} (high-cardinality)',
  ]);
});

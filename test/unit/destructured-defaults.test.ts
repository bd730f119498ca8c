/**
 * Defaults written in a destructuring are values of the key where the object leaves the
 * property out: `const { board = "global" } = event.queryStringParameters ?? {}` in a
 * handler is `body.board ?? "global"` (a constant on some paths), and a repository
 * method's `listByStatus({ status = "OPEN" } = {})` called as `tasks.listByStatus()` from
 * a route queries `STATUS#OPEN` at that call. A caller giving the property, a spread of
 * what a request sent, or a default that is an id keeps the key spread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { render } from '../../server/src/engine/model/template';
import { indexedWorkspace } from './helpers';

const REPOSITORY = [
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
  "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';",
  "import { randomUUID } from 'node:crypto';",
  '',
  'export class TaskRepository {',
  '  private readonly doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
  '  constructor(private readonly tableName = process.env.TASKS_TABLE!) {}',
  '',
  '  async create({ id = randomUUID(), title, status = "OPEN" }: { id?: string; title: string; status?: string }) {',
  '    await this.doc.send(',
  '      new PutCommand({ TableName: this.tableName, Item: { pk: `TASK#${id}`, gsi1pk: `STATUS#${status}`, title } }),',
  '    );',
  '  }',
  '',
  '  async listByStatus({ status = "OPEN", limit = 50 }: { status?: string; limit?: number } = {}) {',
  '    const out = await this.doc.send(',
  '      new QueryCommand({',
  '        TableName: this.tableName,',
  "        IndexName: 'gsi1',",
  "        KeyConditionExpression: 'gsi1pk = :s',",
  "        ExpressionAttributeValues: { ':s': `STATUS#${status}` },",
  '        Limit: limit,',
  '      }),',
  '    );',
  '    return out.Items ?? [];',
  '  }',
  '}',
  '',
].join('\n');

const ROUTES = [
  "import express from 'express';",
  "import { TaskRepository } from './task-repository';",
  '',
  'const app = express();',
  'const tasks = new TaskRepository();',
  '',
  "app.get('/tasks/open', async (_req, res) => {",
  '  res.json(await tasks.listByStatus());',
  '});',
  "app.get('/tasks/done', async (_req, res) => {",
  "  res.json(await tasks.listByStatus({ status: 'DONE', limit: 10 }));",
  '});',
  "app.get('/tasks/:status', async (req, res) => {",
  '  res.json(await tasks.listByStatus({ ...req.params }));',
  '});',
  "app.post('/tasks', async (req, res) => {",
  '  await tasks.create({ title: req.body.title });',
  '  res.sendStatus(201);',
  '});',
  "app.post('/tasks/imported', async (req, res) => {",
  '  await tasks.create({ id: req.body.id, title: req.body.title, status: req.body.status });',
  '  res.sendStatus(201);',
  '});',
  'app.listen(3000);',
  '',
].join('\n');

const HANDLER = [
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
  "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';",
  "import type { APIGatewayProxyEvent } from 'aws-lambda';",
  '',
  'const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
  '',
  'export const topScores = async (event: APIGatewayProxyEvent) => {',
  "  const { board = 'global' } = event.queryStringParameters ?? {};",
  '  const out = await ddb.send(',
  "    new QueryCommand({ TableName: 'scores', KeyConditionExpression: 'pk = :b', ExpressionAttributeValues: { ':b': `BOARD#${board}` } }),",
  '  );',
  '  return { statusCode: 200, body: JSON.stringify(out.Items) };',
  '};',
  '',
  'async function save({ board = "weekly", player, points }: { board?: string; player: string; points: number }) {',
  "  await ddb.send(new PutCommand({ TableName: 'scores', Item: { pk: `BOARD#${board}`, sk: player, points } }));",
  '}',
  '',
  'export const submit = async (event: APIGatewayProxyEvent) => {',
  "  const { player, points } = JSON.parse(event.body ?? '{}');",
  '  await save({ player, points });',
  '};',
  '',
].join('\n');

async function workspace() {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{"dependencies":{"express":"4","@aws-sdk/lib-dynamodb":"3"}}',
    'src/task-repository.ts': REPOSITORY,
    'src/routes.ts': ROUTES,
    'src/handler.ts': HANDLER,
  });
  const at = (file: string) => path.join(dir, 'src', file);
  /** `line operation key` per access of a file, the key as rendered. */
  const keys = (file: string) =>
    index
      .results()
      .flatMap((r) => r.accesses)
      .filter((a) => a.file === at(file))
      .map((a) => `${a.span.startLine + 1} ${a.operation} ${a.partitionKey ? render(a.partitionKey.template) : '?'}`);
  const findings = (file: string) =>
    index.findingsFor(at(file)).map((f) => `${f.span.startLine + 1} ${f.rule} ${f.message.slice(0, 80)}`);
  return { keys, findings };
}

test('a repository method called without the property queries the default key, at the call', async () => {
  const { keys, findings } = await workspace();
  const routes = keys('routes.ts');
  assert.ok(routes.includes('8 Query STATUS#OPEN'), routes.join('\n'));
  assert.ok(routes.includes('11 Query STATUS#DONE'), routes.join('\n'));
  // The create leaving `status` out writes STATUS#OPEN; its `id` default is a random id.
  assert.ok(routes.includes('17 PutItem TASK#{random}'), routes.join('\n'));
  assert.ok(
    findings('routes.ts').some((f) => /^8 SL001 Partition key "STATUS#OPEN"/.test(f)),
    findings('routes.ts').join('\n'),
  );
});

test('a caller giving the property, or spreading what the request sent, is not the default', async () => {
  const { keys } = await workspace();
  const routes = keys('routes.ts');
  assert.ok(!routes.some((k) => k.startsWith('14 ') && k.includes('STATUS#OPEN')), routes.join('\n'));
  assert.ok(!routes.some((k) => k.startsWith('21 ') && k.includes('OPEN')), routes.join('\n'));
  assert.ok(!routes.some((k) => k.startsWith('21 ') && k.includes('{random}')), routes.join('\n'));
});

test("a handler's destructured query parameter with a default is that constant on some paths", async () => {
  const { keys, findings } = await workspace();
  assert.ok(keys('handler.ts').includes('10 Query BOARD#global'), keys('handler.ts').join('\n'));
  assert.ok(
    findings('handler.ts').some((f) => /^10 SL001 Partition key "BOARD#global" .* constant on some paths/.test(f)),
    findings('handler.ts').join('\n'),
  );
});

test('a function of the same module called with an object lacking the property writes its default', async () => {
  const { keys, findings } = await workspace();
  assert.ok(keys('handler.ts').includes('16 PutItem BOARD#weekly'), keys('handler.ts').join('\n'));
  assert.ok(findings('handler.ts').some((f) => /^16 SL001 Partition key "BOARD#weekly"/.test(f)));
});

test("Python: `.get(key, default)` on a request's parameters is the default on some paths; on a dict lacking the key, the default", async () => {
  const { index, dir } = await indexedWorkspace({
    'app.py': [
      'import json',
      'import os',
      '',
      'import boto3',
      '',
      'table = boto3.resource("dynamodb").Table(os.environ["SCORES_TABLE"])',
      '',
      '',
      'def top_scores(event, context):',
      '    params = event.get("queryStringParameters") or {}',
      '    board = params.get("board", "global")',
      '    limit = int(params.get("limit", 20))',
      '    out = table.query(KeyConditionExpression="pk = :b", ExpressionAttributeValues={":b": f"BOARD#{board}"}, Limit=limit)',
      '    return {"statusCode": 200, "body": json.dumps(out["Items"])}',
      '',
      '',
      'def submit(event, context):',
      '    body = json.loads(event["body"])',
      '    entry = {"player": body["player"], "points": body["points"]}',
      '    table.put_item(Item={"pk": f"BOARD#{entry.get(\'board\', \'weekly\')}", "sk": entry["player"]})',
      '    table.put_item(Item={"pk": f"PLAYER#{body.get(\'player\', \'anonymous\')}", "sk": "PROFILE"})',
      '',
    ].join('\n'),
  });
  const findings = index
    .findingsFor(path.join(dir, 'app.py'))
    .map((f) => `${f.span.startLine + 1} ${f.rule} ${f.message.slice(0, 120)}`);
  assert.ok(
    findings.some((f) => /^13 SL001 Partition key "BOARD#global" .*constant on some paths/.test(f)),
    findings.join('\n'),
  );
  assert.ok(
    findings.some((f) => /^20 SL001 Partition key "BOARD#weekly" .*is a constant:/.test(f)),
    findings.join('\n'),
  );
  // A body's own player with a fallback for a missing one: a constant on some paths, found as such.
  assert.ok(
    findings.some((f) => /^21 SL001 Partition key "PLAYER#anonymous" .*constant on some paths/.test(f)),
    findings.join('\n'),
  );
});

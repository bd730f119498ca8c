/**
 * Lambda handlers a factory makes: `export const handler = makeFeedHandler({ feed: new
 * FeedRepository() })`, whose handler calls `feed.latest()` on what it was given (typed by an
 * interface of its own module, which imports no repository), and `export const handler =
 * trendingService.handler()`, a method of an imported service returning the handler. Each
 * repository read is reached from its template's route, and the table the functions'
 * environment names comes through the handler files, which call no wrapper.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('a handler made by a factory given its dependencies reaches the repository it is given', async () => {
  const found = await findingsOf(fixture('factory-handlers'));
  const feed = at(found, 'src/repositories/feed-repository.ts:21');
  // Before, nothing was seen to reach it, and the hot read was lowered as dead code.
  assert.equal(feed.severity, 'error');
  assert.match(feed.message, /on table "feed-items"/);
  assert.match(feed.message, /Reached from GET \/feed \(template\.yaml:43\)\.$/);
  assert.doesNotMatch(feed.message, /makeFeedHandler/, 'the factory is no Lambda handler of its own');
});

test("a handler made by an imported service's method reaches what it calls", async () => {
  const found = await findingsOf(fixture('factory-handlers'));
  const trending = at(found, 'src/repositories/feed-repository.ts:35');
  assert.equal(trending.severity, 'error');
  assert.match(trending.message, /on table "feed-items"/);
  assert.match(trending.message, /Reached from GET \/trending \(template\.yaml:59\)\.$/);
});

test('a factory returning the handler it defines from inside an `if` is no handler of its own', async () => {
  const found = await findingsOf({
    'package.json': '{ "name": "audit" }',
    'src/lib/repo.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class AuditRepo {
  async append(id: string) {
    await doc.send(new PutCommand({ TableName: 'audit', Item: { stream: 'ALL', id } }));
  }
}
`,
    'src/lib/make-handler.ts': `import type { AuditRepo } from './repo';

export function createAuditHandler(repo: AuditRepo, opts: { warm?: boolean } = {}) {
  const inner = async (event: { id: string; source?: string }) => {
    await repo.append(event.id);
    return { statusCode: 204 };
  };
  if (!opts.warm) {
    return inner;
  }
  return async (event: { id: string; source?: string }) => (event.source === 'warmup' ? null : inner(event));
}

export function createTracedHandler(repo: AuditRepo) {
  async function traced(event: { id: string }) {
    await repo.append(event.id);
  }
  if (process.env.TRACE) {
    return traced;
  }
  return traced;
}
`,
    'src/handlers/audit.ts': `import { createAuditHandler, createTracedHandler } from '../lib/make-handler';
import { AuditRepo } from '../lib/repo';

export const handler = createAuditHandler(new AuditRepo());
export const tracedHandler = createTracedHandler(new AuditRepo());
`,
  });
  const append = at(found, 'src/lib/repo.ts:8');
  const names = (append.access.reach?.entryPoints ?? []).map((e) => `${e.kind} ${e.name}`).sort();
  // Before, each factory counted as a Lambda handler too (its name ends in Handler, and its
  // `return`s were not all read as giving a function).
  assert.deepEqual(names, ['unknown handler', 'unknown tracedHandler']);
});

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diskFiles } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { readCdkSource } from '../../server/src/engine/workspace/cdk-source';
import { checkJson } from './check-json';

/**
 * A CDK app kept apart from its services, as larger projects lay it out (infra/ and services/,
 * each a package): the stack builds its constructs in private methods with ids made from its
 * own (`${id}-Lambda`); the function's `entry` is a file beside the construct that passes the
 * handler on (`export { handler } from '../../services/src/handlers/worker'`); the handler is
 * made by a factory wiring a controller to a client and returning the controller's method;
 * the client's constant GSI key is also written by a jest spec. The queue reaches the helper
 * as a parameter, from the one call of it: the trigger names it by its construct id, as written.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const APP = 'cdk-layered-services';
before(() => initParsers());

test('a function built in a helper method, its id made from the construct’s, is declared with its trigger', () => {
  const file = path.join(FIXTURES, APP, 'infra/lib/WorkerConstruct.ts');
  const d = readCdkSource(file, fs.readFileSync(file, 'utf8'), diskFiles);
  assert.ok(d);
  assert.deepEqual(
    d.functions.map((f) => [f.name, path.basename(f.handlerFile ?? ''), f.triggers.map((t) => t.trigger)]),
    [['${id}-Lambda', 'workerEntry.ts', ['SQS ${id}-Queue, batchSize 10']]],
  );
});

test('shardlens check: the queue reaches the client through the passed-on handler, the factory and the controller’s method', () => {
  const report = checkJson(FIXTURES, APP);
  const client = `${APP}/services/src/worker/EsRaiseEventClient.ts`;
  const put = report.accesses.find((a) => a.file === client);
  assert.deepEqual(put?.entryPoints?.map((e) => [e.kind, e.trigger]).sort(), [
    ['queue', 'SQS ${id}-Queue, batchSize 10'],
    ['test', 'test run'],
  ]);
  // Written per message, not only by the spec: the constant GSI key is an error.
  const hot = report.findings.find((f) => f.file === client && f.rule === 'SL001');
  assert.equal(hot?.severity, 'error');
  assert.match(hot!.message, /Reached from the queue consumer handler \(.*WorkerConstruct\.ts:\d+\)/);
});

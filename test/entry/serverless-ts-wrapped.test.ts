/**
 * A `serverless.ts` service in the layouts the aws-nodejs-typescript template has used:
 * the path aliases in `tsconfig.paths.json`, which `tsconfig.json` extends; one function
 * module writing its handler path inline (`__dirname.split(process.cwd())[1]...`), as the
 * template's first layout did, the other through `handlerPath(__dirname)`; and each
 * handler exported wrapped in middleware (`export const main = middyfy(claimReward)`).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readInfrastructure } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { at, findingsOf, fixture, FIXTURES } from './helpers';

const SERVICE = path.join(FIXTURES, 'serverless-ts-rewards');

test('serverless.ts: functions imported through an alias of an extended tsconfig, handler paths written inline or by handlerPath', async () => {
  await initParsers();
  const file = path.join(SERVICE, 'serverless.ts');
  const d = readInfrastructure(file, fs.readFileSync(file, 'utf8'))!;
  assert.equal(d.unread, undefined);
  assert.deepEqual(d.skipped, []);
  assert.deepEqual(
    d.functions.map((f) => [f.name, path.relative(SERVICE, f.handlerFile ?? ''), f.handlerFunction]),
    [
      ['claimReward', path.join('src', 'functions', 'claim-reward', 'handler.ts'), 'main'],
      ['closeCampaigns', path.join('src', 'functions', 'close-campaigns', 'handler.ts'), 'main'],
    ],
  );
  assert.deepEqual(
    d.functions.map((f) => f.triggers.map((t) => [t.kind, t.trigger])),
    [[['api', 'POST campaigns/{campaignId}/claims']], [['schedule', 'rate(1 hour)']]],
  );
});

test('a handler exported wrapped in middleware reaches what the wrapped function calls: the route stays hot, the schedule is a cold path', async () => {
  const found = await findingsOf(fixture('serverless-ts-rewards'));
  const hot = at(found, 'src/functions/claim-reward/handler.ts:6');
  assert.equal(hot.severity, 'error');
  assert.match(
    hot.message,
    /Reached from POST campaigns\/\{campaignId\}\/claims \(src\/functions\/claim-reward\/index\.ts:4\)\.$/,
  );
  const cold = at(found, 'src/functions/close-campaigns/handler.ts:5');
  assert.equal(cold.severity, 'info');
  assert.match(
    cold.message,
    /Cold path: runs on rate\(1 hour\) \(src\/functions\/close-campaigns\/index\.ts:5\), at most 1 request\/hour\.$/,
  );
});

/**
 * A `serverless.ts` laid out as the aws-nodejs-typescript template lays it out: the
 * service imports its functions through a tsconfig path alias (`@functions/index`), and
 * each function module exports its handler (`${handlerPath(__dirname)}/handler.main`)
 * and events. The handlers become entry points with those events.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readInfrastructure } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { at, findingsOf, fixture, FIXTURES } from './helpers';

const SERVICE = path.join(FIXTURES, 'serverless-ts-polls');

test('serverless.ts: functions imported from their modules are read with their handler, events and environment', async () => {
  await initParsers();
  const file = path.join(SERVICE, 'serverless.ts');
  const d = readInfrastructure(file, fs.readFileSync(file, 'utf8'))!;
  assert.deepEqual(d.skipped, []);
  assert.deepEqual(
    d.functions.map((f) => [f.name, path.relative(SERVICE, f.handlerFile ?? ''), f.handlerFunction]),
    [
      ['castVote', path.join('src', 'functions', 'cast-vote', 'handler.ts'), 'main'],
      ['tallyVotes', path.join('src', 'functions', 'tally-votes', 'handler.ts'), 'main'],
    ],
  );
  const [cast, tally] = d.functions;
  assert.deepEqual(
    cast.triggers.map((t) => [t.kind, t.trigger]),
    [['api', 'POST polls/{pollId}/votes']],
  );
  assert.deepEqual(
    tally.triggers.map((t) => [t.kind, t.trigger, t.ratePerHour]),
    [['schedule', 'rate(30 minutes)', 2]],
  );
  // Placed in the function's own module, at its event.
  assert.equal(tally.triggers[0].source.file, path.join(SERVICE, 'src', 'functions', 'tally-votes', 'index.ts'));
  assert.equal(tally.triggers[0].source.span.startLine, 5);
  assert.equal(cast.source.file, path.join(SERVICE, 'src', 'functions', 'cast-vote', 'index.ts'));
  // provider.environment applies to functions defined elsewhere too.
  assert.deepEqual(tally.environment.POLLS_TABLE, { kind: 'template', text: 'polls-{$sls:stage}' });
});

test('serverless.ts: the functions as a whole module (import * as functions) read alike; a name nothing defines is still skipped with why', async () => {
  await initParsers();
  const file = path.join(SERVICE, 'serverless.ts');
  const text = fs.readFileSync(file, 'utf8');
  const whole = text
    .replace(
      "import { castVote, tallyVotes } from '@functions/index';",
      "import * as functions from '@functions/index';",
    )
    .replace('functions: { castVote, tallyVotes },', 'functions,');
  assert.notEqual(whole, text);
  const d = readInfrastructure(file, whole)!;
  assert.deepEqual(
    d.functions.map((f) => [f.name, f.triggers.map((t) => t.kind)]),
    [
      ['castVote', ['api']],
      ['tallyVotes', ['schedule']],
    ],
  );
  const unknown = readInfrastructure(file, text.replace('functions: { castVote, tallyVotes }', 'functions: { vote }'))!;
  assert.equal(unknown.functions.length, 0);
  assert.match(unknown.skipped[0].reason, /names `vote`/);
});

test('serverless.ts modules: the scheduled handler is a cold path named by its module, the HTTP one stays hot', async () => {
  const files = fixture('serverless-ts-polls');
  const found = await findingsOf(files);
  const hot = at(found, 'src/functions/cast-vote/handler.ts:9', 'SL004');
  assert.equal(hot.severity, 'warning');
  assert.match(hot.message, /Reached from POST polls\/\{pollId\}\/votes \(src\/functions\/cast-vote\/index\.ts:7\)\.$/);
  const cold = at(found, 'src/functions/tally-votes/handler.ts:6');
  assert.equal(cold.severity, 'info');
  assert.match(
    cold.message,
    /Cold path: runs on rate\(30 minutes\) \(src\/functions\/tally-votes\/index\.ts:6\), at most 2 requests\/hour\.$/,
  );
  // Without the service file nothing says how the handlers run.
  const alone = { ...files };
  delete alone['serverless.ts'];
  const unknown = await findingsOf(alone);
  assert.doesNotMatch(at(unknown, 'src/functions/tally-votes/handler.ts:6').message, /Cold path/);
  assert.doesNotMatch(at(unknown, 'src/functions/cast-vote/handler.ts:9', 'SL004').message, /Reached from POST/);
});

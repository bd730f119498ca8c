import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { readCdkFixture } from './read-cdk';
import type { InfraDeclarations } from '../../server/src/engine/model/entry-point';
import { checkJson, FIXTURES } from './check-json';

/**
 * CDK v1 apps as they were written before `aws-cdk-lib`:
 * - `Code.asset(...)` (later `Code.fromAsset`);
 * - the HTTP API's `LambdaProxyIntegration({ handler })`;
 * - in Python, function options shared through `**function_defaults`, the rule target
 *   `events_targets.LambdaFunction(handler=fn)` passed by keyword, and the stack split into
 *   plain classes that take the stack as their scope and no construct id
 *   (`QuizApi(self, quiz_lambdas)`), one module making the functions and another routing
 *   to them (`lambdas.get_summary_function`), imported as siblings (`from lambdas import ...`).
 * And the same split in a CDK v2 app: one stack makes the functions and hands out a field
 * holding `new LambdaIntegration(fn)` and the function itself; an API stack adds the method
 * with the integration it is given, a jobs stack schedules the function it is given.
 * Fixtures: cdk-v1-python-modules, cdk-v1-ts, cdk-stack-fields.
 */

before(() => initParsers());

const APP = 'cdk-v1-python-modules';

const summary = (d: InfraDeclarations) =>
  d.functions.map((f) => ({
    name: f.name,
    runtime: f.runtime,
    handlerFile: f.handlerFile && path.relative(path.join(FIXTURES, APP), f.handlerFile),
    triggers: f.triggers.map((t) => t.trigger),
  }));

test('Python v1: **function_defaults gives code and runtime; LambdaFunction(handler=fn) is the rule target', () => {
  const d = readCdkFixture(`${APP}/infra/quiz_stack/lambdas.py`);
  assert.deepEqual(summary(d), [
    { name: 'GetSummary', runtime: 'python3.8', handlerFile: 'backend/quiz/get_summary.py', triggers: [] },
    {
      name: 'RefreshSummary',
      runtime: 'python3.8',
      handlerFile: 'backend/quiz/refresh_summary.py',
      triggers: ['rate(15 minutes)'],
    },
  ]);
  assert.deepEqual(d.skipped, []);
});

test('Python v1: a module routing to another module’s function gives it the route, declaring no function', () => {
  const d = readCdkFixture(`${APP}/infra/quiz_stack/api.py`);
  assert.deepEqual(d.functions, []);
  const given = d.triggersOfOthers ?? [];
  assert.deepEqual(
    given.map((g) => [path.basename(g.function.file), g.triggers.map((t) => t.trigger)]),
    [['lambdas.py', ['GET /summary']]],
  );
  // The route is put on the function its own file declares, at that construction.
  const own = readCdkFixture(`${APP}/infra/quiz_stack/lambdas.py`).functions.find((f) => f.name === 'GetSummary');
  assert.deepEqual(given[0].function.span, own?.source.span);
});

test('shardlens check (Python v1): the summary read per request is hot, its refresh every 15 minutes is not', () => {
  const report = checkJson(FIXTURES, APP);
  assert.deepEqual(
    report.functions.map((f) => [f.name, f.triggers.map((t) => t.trigger)]),
    [
      ['GetSummary', ['GET /summary']],
      ['RefreshSummary', ['rate(15 minutes)']],
    ],
  );
  const at = (file: string) => report.findings.filter((f) => f.file === `${APP}/backend/quiz/${file}`);
  const read = at('get_summary.py');
  assert.deepEqual(
    read.map((f) => [f.rule, f.severity]),
    [['SL001', 'error']],
  );
  assert.match(read[0].message, /read-hot/);
  // Before, both handlers ran from unknown triggers: the write was "written and read hot", an error.
  const write = at('refresh_summary.py');
  assert.deepEqual(
    write.map((f) => [f.rule, f.severity]),
    [['SL001', 'info']],
  );
  assert.doesNotMatch(write[0].message, /written and read hot/);
});

test('shardlens check --cache (Python v1): a warm run keeps the route given across modules', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-v1-cache-'));
  try {
    const cold = checkJson(FIXTURES, APP, '--cache-location', dir);
    const warm = checkJson(FIXTURES, APP, '--cache-location', dir);
    assert.deepEqual(warm, cold);
    assert.deepEqual(
      warm.functions.find((f) => f.name === 'GetSummary')?.triggers.map((t) => t.trigger),
      ['GET /summary'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('TypeScript v1: Code.asset and LambdaProxyIntegration({ handler }) lead to the handler and its route', () => {
  const d = readCdkFixture('cdk-v1-ts/lib/visits-stack.ts');
  assert.deepEqual(
    d.functions.map((f) => [
      f.name,
      f.handlerFile && path.relative(FIXTURES, f.handlerFile),
      f.triggers.map((t) => t.trigger),
    ]),
    [['CountVisit', 'cdk-v1-ts/lambda/count-visit.js', ['POST /visit']]],
  );
  const report = checkJson(FIXTURES, 'cdk-v1-ts');
  const counter = report.findings.find((f) => f.rule === 'SL004');
  assert.ok(counter, 'the site-wide counter is found');
  assert.deepEqual(
    report.accesses.find((a) => a.file === counter.file)?.entryPoints?.map((e) => e.trigger),
    ['POST /visit'],
  );
});

test('TypeScript: an integration field and a function another stack is given carry their route and schedule', () => {
  const api = readCdkFixture('cdk-stack-fields/lib/api-stack.ts');
  const jobs = readCdkFixture('cdk-stack-fields/lib/jobs-stack.ts');
  const given = (d: InfraDeclarations) =>
    (d.triggersOfOthers ?? []).map((g) => [path.basename(g.function.file), g.triggers.map((t) => t.trigger)]);
  assert.deepEqual(given(api), [['lambda-stack.ts', ['POST /polls/{pollId}/votes']]]);
  assert.deepEqual(given(jobs), [['lambda-stack.ts', ['cron(0 2 * * ? *)']]]);

  const report = checkJson(FIXTURES, 'cdk-stack-fields');
  assert.deepEqual(
    report.functions.map((f) => [f.name, f.triggers.map((t) => t.trigger)]),
    [
      ['VoteLambda', ['POST /polls/{pollId}/votes']],
      ['TallyLambda', ['cron(0 2 * * ? *)']],
    ],
  );
  // The nightly summary write: an error while its schedule was lost in the other stack.
  assert.deepEqual(
    report.findings.filter((f) => f.file.endsWith('src/tally.ts')).map((f) => [f.rule, f.severity]),
    [['SL001', 'info']],
  );
});

/**
 * Functions that Step Functions state machines invoke (test/fixtures/infra/step-functions, a
 * SAM app in the shape SAM's own Step Functions template takes: a definition in an ASL file
 * with `DefinitionSubstitutions`, an inline `Definition`, and a CloudFormation machine
 * written as a `!Sub` string started by a rule). A step runs when its machine runs, so a
 * nightly or hourly machine's constant keys are cold paths; a machine no template starts
 * (started by code) keeps its step hot. The same for the Serverless Framework's
 * `stepFunctions.stateMachines` (test/fixtures/infra/serverless-step-functions, in the
 * `serverless-step-functions` plugin's documented forms) and the CDK in TypeScript and Python
 * (test/fixtures/infra/cdk-step-functions{,-python}: `tasks.LambdaInvoke` chained with `.next()`,
 * a `Map` state's `itemProcessor`, a rule's `SfnStateMachine` target, a `StepFunctionsRestApi`)
 * and Terraform (test/fixtures/infra/terraform-step-functions: `aws_sfn_state_machine` with a
 * `jsonencode` definition, with `templatefile` and with a `data "template_file"`, started by an
 * `aws_cloudwatch_event_target` and an `aws_scheduler_schedule`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readInfrastructure } from '../../server/src/engine/frontends/infra';
import { checkJson, FIXTURES } from './check-json';

const APP = path.join(FIXTURES, 'step-functions');

const SLS = path.join(FIXTURES, 'serverless-step-functions');

function triggersOf(name: string, file = path.join(APP, 'template.yaml')): Array<[string, string, number | null]> {
  const d = readInfrastructure(file, fs.readFileSync(file, 'utf8'));
  const fn = d?.functions.find((f) => f.name === name);
  assert.ok(fn, `function ${name} is read`);
  return fn.triggers.map((t) => [t.kind, t.trigger, t.ratePerHour]);
}

test('a step of a machine takes the triggers of the machine, named through it', () => {
  // ASL file + DefinitionSubstitutions, started by the machine's own SAM schedule.
  assert.deepEqual(triggersOf('RollupFunction'), [
    ['schedule', 'Step Functions NightlyRollup, started by cron(0 2 * * ? *)', 1 / 24],
  ]);
  // The ASL file runs this one in a Map state's ItemProcessor: once per item, no rate.
  assert.deepEqual(triggersOf('SweepFunction'), [
    ['schedule', 'Step Functions NightlyRollup, started by cron(0 2 * * ? *), for each item of a Map state', null],
  ]);
  // A `!Sub` definition string, started by an AWS::Events::Rule targeting the machine.
  assert.deepEqual(triggersOf('ReportFunction'), [
    ['schedule', 'Step Functions ReportMachine, started by rate(1 hour)', 1],
  ]);
  // An inline definition whose machine nothing in the template starts.
  assert.deepEqual(triggersOf('ApproveFunction'), [['event', 'Step Functions ApprovalFlow', null]]);
  assert.deepEqual(triggersOf('VoteFunction'), [['api', 'POST /polls/{pollId}/votes', null]]);
});

test("scheduled machines' constant keys are cold paths; a machine started elsewhere and an API route are not", () => {
  const report = checkJson(APP, '--fail-on', 'never');
  const found = report.findings
    .filter((f) => f.rule === 'SL001')
    .map((f) => `${f.file}:${f.line} ${f.severity}`)
    .sort();
  assert.deepEqual(found, [
    'src/approve/app.py:9 error',
    'src/report/handler.ts:10 info',
    'src/rollup/app.py:12 info',
    'src/rollup/sweep.py:9 info',
    'src/votes/handler.ts:11 error',
  ]);
  const approve = report.findings.find((f) => f.file.endsWith(path.join('approve', 'app.py')));
  assert.match(approve!.message, /Reached from Step Functions ApprovalFlow \(template\.yaml:\d+\)/);
  const rollup = report.findings.find((f) => f.file.endsWith(path.join('rollup', 'app.py')));
  assert.match(rollup!.message, /runs on Step Functions NightlyRollup, started by cron\(0 2 \* \* \? \*\)/);
});

test('Serverless: a function a state machine names, by name, logical id or ARN, takes its events', () => {
  const yml = path.join(SLS, 'serverless.yml');
  // `Fn::GetAtt: [rollup, Arn]`, started by a schedule event.
  assert.deepEqual(triggersOf('rollup', yml), [
    ['schedule', 'Step Functions nightlyRollup, started by cron(0 3 * * ? *)', 1 / 24],
  ]);
  // `!GetAtt ExpireDashsessionsLambdaFunction.Arn` inside a Map state: once per item, no rate.
  assert.deepEqual(triggersOf('expire-sessions', yml), [
    ['schedule', 'Step Functions sessionSweeper, started by rate(30 minutes), for each item of a Map state', null],
  ]);
  // An ARN ending with the deployed name, started by an http event: an API path.
  assert.deepEqual(triggersOf('importRows', yml), [['api', 'Step Functions csvImport, started by POST imports', null]]);
  assert.deepEqual(triggersOf('vote', yml), [['api', 'POST /polls/{pollId}/votes', null]]);
});

test("Serverless: the scheduled machines' steps are cold paths; the one an API starts is not", () => {
  const found = checkJson(SLS, '--fail-on', 'never')
    .findings.filter((f) => f.rule === 'SL001')
    .map((f) => `${f.file}:${f.line} ${f.severity}`)
    .sort();
  assert.deepEqual(found, [
    'src/expire.js:8 info',
    'src/import-rows.js:7 error',
    'src/rollup.js:8 info',
    'src/vote.js:10 error',
  ]);
});

test('CDK, TypeScript and Python: the steps of a nightly machine are cold paths, one behind a REST API is not', () => {
  const ts = checkJson(path.join(FIXTURES, 'cdk-step-functions'), '--fail-on', 'never').findings.filter(
    (f) => f.rule === 'SL001',
  );
  assert.deepEqual(ts.map((f) => `${f.file}:${f.line} ${f.severity}`).sort(), [
    'lambda/approve.ts:7 error',
    'lambda/rollup.ts:8 info',
    'lambda/sweep.js:7 info',
  ]);
  assert.match(
    ts.find((f) => f.file.endsWith('approve.ts'))!.message,
    /Reached from Step Functions Approval, started by ANY \//,
  );
  assert.match(
    ts.find((f) => f.file.endsWith('sweep.js'))!.message,
    /Step Functions NightlyRollup, started by cron\(0 3 \* \* \? \*\), for each item of a Map state/,
  );
  const py = checkJson(path.join(FIXTURES, 'cdk-step-functions-python'), '--fail-on', 'never').findings.filter(
    (f) => f.rule === 'SL001',
  );
  assert.deepEqual(py.map((f) => `${f.file}:${f.line} ${f.severity}`).sort(), [
    'lambda_src/rollup.py:10 info',
    'lambda_src/sweep.py:9 info',
  ]);
});

test("Terraform: a jsonencode definition's steps take the rule targeting the machine; a Map state's step runs per item", () => {
  const found = checkJson(path.join(FIXTURES, 'terraform-step-functions'), '--fail-on', 'never').findings.filter(
    (f) => f.rule === 'SL001',
  );
  assert.deepEqual(found.map((f) => `${f.file}:${f.line} ${f.severity}`).sort(), [
    'src/approve/app.py:9 error',
    'src/report/app.py:11 info',
    'src/rollup/app.py:10 info',
    'src/sweep/app.py:9 info',
  ]);
  // `definition = data.template_file.report_flow.rendered`, the function in its `vars`; a Scheduler schedule starts it.
  assert.match(
    found.find((f) => f.file.includes('report'))!.message,
    /Step Functions aws_sfn_state_machine\.report, started by rate\(1 hour\)/,
  );
  const sweep = found.find((f) => f.file.includes('sweep'))!;
  assert.match(
    sweep.message,
    /Step Functions aws_sfn_state_machine\.nightly, started by cron\(0 3 \* \* \? \*\), for each item/,
  );
  // `templatefile(..., { approve_arn = aws_lambda_function.approve.arn })`: named, started by nothing here.
  assert.match(
    found.find((f) => f.file.includes('approve'))!.message,
    /Reached from Step Functions aws_sfn_state_machine\.approval \(/,
  );
});

test('Serverless: an ARN ending with two function names (`...-todo-list`) names the longer one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-sfn-'));
  try {
    const yml = path.join(dir, 'serverless.yml');
    fs.writeFileSync(
      yml,
      [
        'service: todo',
        'provider:',
        '  name: aws',
        '  runtime: nodejs20.x',
        'functions:',
        '  list:',
        '    handler: list.handler',
        '  todo-list:',
        '    handler: todo.handler',
        'stepFunctions:',
        '  stateMachines:',
        '    nightly:',
        '      events:',
        '        - schedule: rate(1 day)',
        '      definition:',
        '        StartAt: Todo',
        '        States:',
        '          Todo:',
        '            Type: Task',
        '            Resource: arn:aws:lambda:#{AWS::Region}:#{AWS::AccountId}:function:${self:service}-${sls:stage}-todo-list',
        '            End: true',
        '',
      ].join('\n'),
    );
    assert.deepEqual(triggersOf('todo-list', yml), [
      ['schedule', 'Step Functions nightly, started by rate(1 day)', 1 / 24],
    ]);
    assert.deepEqual(triggersOf('list', yml), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

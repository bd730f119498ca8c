// A key the application's state machine and API Gateway also name, in their definitions
// (test/fixtures/fixes/desk-tickets: a SAM app whose tickets share the partition "tickets"; a
// Step Functions Map state updates each ticket by `"PK": {"S": "tickets"}`, an OpenAPI
// integration reads one with a VTL GetItem, an `AWS::ApiGateway::Method` counts them with a
// Query). A shard fix of the Lambda's put alone would leave those three asking for the bare
// key: the update would create a second item, the reads would find nothing. So the fix is
// refused, naming the request, until no definition names the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { readInfrastructure } from '../../server/src/engine/frontends/infra';
import { allFixes, blockedFixes } from '../../server/src/features/fixes';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { cleanup, copyFixture } from './helpers-write';

// Outside the type-checked tree: the fixtures import packages this project does not install.
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'fixes');

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));

/**
 * A fixture app indexed as the editor indexes it (its infrastructure files, then its code),
 * with the requests its definitions make and the SL001 on its put of "tickets".
 */
async function indexedApp(dir: string, infra: string[], code: string[]) {
  await initParsers();
  const index = new WorkspaceIndex({ root: dir });
  index.readInfrastructure(infra);
  index.analyzeAll(code);
  const put = index
    .results()
    .flatMap((r) => r.findings)
    .find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
  assert.ok(put, 'SL001 on the put of "tickets"');
  const direct = index.infrastructure().flatMap((d) => d.directAccesses ?? []);
  return { index, put, direct, ctx: fixContextOf(index) };
}

/** A SAM app's template and code, found under `dir`. */
const samApp = (dir: string) => {
  const files = filesUnder(dir);
  return indexedApp(
    dir,
    files.filter((f) => f.endsWith('template.yaml')),
    files.filter((f) => /\.(mjs|ts|js|py)$/.test(f)),
  );
};

async function ticketPut(dir: string) {
  const { put, ctx } = await samApp(dir);
  return {
    fixes: allFixes(put, ctx).filter((a) => a.changes.length > 0 && /shard/.test(a.id)),
    blocked: blockedFixes(put, ctx).map((a) => a.title),
  };
}

test('the requests a template makes without code are read: ASL tasks, an included OpenAPI body, a Method', () => {
  const file = path.join(FIXTURES, 'desk-tickets', 'template.yaml');
  const direct = readInfrastructure(file, fs.readFileSync(file, 'utf8'))?.directAccesses ?? [];
  const seen = direct.map((d) => [
    d.via,
    d.owner,
    d.operation,
    d.table,
    d.index,
    d.attributes.map((a) => `${a.name}=${a.value ?? '?'}`).join(' '),
    `${path.basename(d.source.file)}:${d.source.span.startLine + 1}`,
  ]);
  assert.deepEqual(seen, [
    // The table through DefinitionSubstitutions, the first task's Resource too (as SAM's own
    // templates write it); the Map state's task found inside ItemProcessor.
    [
      'state-machine',
      'EscalationStateMachine',
      'Query',
      'help-desk-tickets',
      'byStatus',
      'ticketStatus=OPEN',
      'escalation.asl.json:7',
    ],
    [
      'state-machine',
      'EscalationStateMachine',
      'UpdateItem',
      'help-desk-tickets',
      null,
      'PK=tickets SK=?',
      'escalation.asl.json:26',
    ],
    // The OpenAPI file's quoted template continues less indented than it starts: YAML the
    // `yaml` parser refuses and API Gateway accepts, read from its text.
    [
      'api-gateway',
      'DeskApi GET /tickets/{id}',
      'GetItem',
      'help-desk-tickets',
      null,
      'PK=tickets SK=?',
      'openapi.yaml:18',
    ],
    // `${TicketsTable}` in a `!Sub` template is the table's name.
    ['api-gateway', 'TicketCountMethod', 'Query', 'help-desk-tickets', null, 'PK=tickets', 'template.yaml:88'],
  ]);
});

test('a shard fix of a key a state machine or an API also names is refused, naming the request', async () => {
  const dir = copyFixture('desk-tickets', FIXTURES);
  try {
    const template = path.join(dir, 'template.yaml');
    const original = fs.readFileSync(template, 'utf8');
    let r = await ticketPut(dir);
    assert.deepEqual(r.fixes, []);
    assert.deepEqual(r.blocked, [
      'No shard fix: the state machine EscalationStateMachine makes a UpdateItem of "tickets" at escalation.asl.json:26, written in its definition where no fix can add the shard: it would no longer find the items once they are sharded',
    ]);

    // Without the machine, the API's GetItem still names the key.
    const withoutMachine = original.replace(/\n {2}EscalationStateMachine:[\s\S]*?(?=\n {2}DeskApi:)/, '\n');
    assert.notEqual(withoutMachine, original);
    fs.writeFileSync(template, withoutMachine);
    r = await ticketPut(dir);
    assert.deepEqual(r.fixes, []);
    assert.match(
      r.blocked[0] ?? '',
      /^No shard fix: the API DeskApi GET \/tickets\/\{id\} makes a GetItem of "tickets" at openapi\.yaml:18/,
    );

    // Without the OpenAPI body, the Method's Query.
    const withoutBody = withoutMachine.replace(/\n {6}DefinitionBody:[\s\S]*?openapi\.yaml'\n/, '\n');
    assert.notEqual(withoutBody, withoutMachine);
    fs.writeFileSync(template, withoutBody);
    r = await ticketPut(dir);
    assert.match(
      r.blocked[0] ?? '',
      /^No shard fix: the API TicketCountMethod makes a Query of "tickets" at template\.yaml:\d+/,
    );

    // With no definition naming it, the key is the code's alone: the fix is offered.
    fs.writeFileSync(template, withoutBody.replace(/"S": "tickets"/, '"S": "archived"'));
    r = await ticketPut(dir);
    assert.deepEqual(r.blocked, []);
    assert.ok(r.fixes.length > 0, 'a shard fix is offered');
  } finally {
    cleanup(dir);
  }
});

test('the API integrations reading the key count in its verdict, and a state machine only when a route or an event starts it', async () => {
  const dir = copyFixture('desk-tickets', FIXTURES);
  try {
    const template = path.join(dir, 'template.yaml');
    const openapi = path.join(dir, 'api', 'openapi.yaml');
    let { put } = await samApp(dir);
    // GET /tickets/{id} (openapi.yaml) and the TicketCountMethod's Query read it; the escalation
    // machine's UpdateItem writes it, and POST /tickets/{id}/escalate starts the machine: per request.
    assert.deepEqual(put.keyUse, {
      verdict: 'both',
      reads: 0,
      writes: 1,
      readEntries: 2,
      writeEntries: 2,
      directReads: 2,
      stepWrites: 1,
    });
    assert.match(
      put.message,
      /written and read hot \(read by 2 API integrations \(from 2 entry points\), written at 1 call site and by 1 state machine step \(from 2 entry points\)/,
    );
    assert.match(put.message, /Shard the writes, and cache the reads/);

    // Without the route, only its schedule (every 15 minutes) starts the machine: its steps do not count.
    fs.writeFileSync(
      openapi,
      fs.readFileSync(openapi, 'utf8').replace(/\n {2}\/tickets\/\{id\}\/escalate:[\s\S]*?(?=\n {2}\/|$)/, ''),
    );
    ({ put } = await samApp(dir));
    assert.deepEqual(put.keyUse, {
      verdict: 'both',
      reads: 0,
      writes: 1,
      readEntries: 2,
      writeEntries: 1,
      directReads: 2,
    });

    // No API naming the key: written hot, as before.
    fs.writeFileSync(
      template,
      fs
        .readFileSync(template, 'utf8')
        .replace(/\n {6}DefinitionBody:[\s\S]*?openapi\.yaml'\n/, '\n')
        .replace(/"S": "tickets"/, '"S": "archived"'),
    );
    ({ put } = await samApp(dir));
    assert.deepEqual(put.keyUse, { verdict: 'write', reads: 0, writes: 1, readEntries: null, writeEntries: 1 });
  } finally {
    cleanup(dir);
  }
});

test('a Serverless service: the requests of `stepFunctions` definitions refuse the fix too', async () => {
  const file = path.join(FIXTURES, 'desk-tickets-sls', 'serverless.yml');
  const direct = readInfrastructure(file, fs.readFileSync(file, 'utf8'))?.directAccesses ?? [];
  assert.deepEqual(
    direct.map((d) => [
      d.owner,
      d.operation,
      d.table,
      d.attributes.map((a) => `${a.name}=${a.value ?? '?'}`).join(' '),
      d.startedBy?.join(' '),
    ]),
    [
      // `Ref: TicketsTable` and `${self:custom.ticketsTable}` both name the table, its stage a hole;
      // the machine's `events` start it every 15 minutes (its steps do not count in the key's verdict).
      ['escalation', 'UpdateItem', 'help-desk-tickets-{$sls:stage}', 'PK=tickets SK=?', 'schedule'],
      ['escalation', 'PutItem', 'help-desk-tickets-{$sls:stage}', 'PK=archive SK=?', 'schedule'],
    ],
  );
  const dir = copyFixture('desk-tickets-sls', FIXTURES);
  try {
    const { put, ctx } = await indexedApp(
      dir,
      [path.join(dir, 'serverless.yml')],
      [path.join(dir, 'src', 'open-ticket.mjs')],
    );
    assert.match(
      blockedFixes(put, ctx)[0]?.title ?? '',
      /^No shard fix: the state machine escalation makes a UpdateItem of "tickets" at serverless\.yml:36/,
    );
  } finally {
    cleanup(dir);
  }
});

test('a CDK app: a DynamoUpdateItem task, an AwsIntegration and an ASL file naming the key refuse the fix', async () => {
  const dir = copyFixture('desk-tickets-cdk', FIXTURES);
  try {
    const files = filesUnder(dir);
    const { index, put, direct, ctx } = await indexedApp(
      dir,
      files.filter((f) => f.includes(`${path.sep}lib${path.sep}`)),
      files.filter((f) => f.includes(`${path.sep}src${path.sep}`)),
    );
    assert.deepEqual(
      direct.map((d) => [
        d.via,
        d.owner,
        d.operation,
        d.table,
        d.attributes.map((a) => `${a.name}=${a.value ?? '?'}`).join(' '),
      ]),
      [
        // `fromString(sfn.JsonPath.stringAt('$.SK'))` is a path: not known.
        ['state-machine', 'MarkEscalated', 'UpdateItem', 'help-desk-tickets', 'PK=tickets SK=?'],
        ['api-gateway', 'integration', 'Query', 'help-desk-tickets', 'PK=tickets'],
        // A machine defined in an ASL file (`DefinitionBody.fromFile`), its table substituted.
        ['state-machine', 'Archive', 'GetItem', 'help-desk-tickets', 'PK=tickets SK=?'],
      ],
    );
    // Both machines run on rules' schedules (every 15 minutes, nightly): shown, not counted.
    assert.deepEqual(
      direct.map((d) => d.startedBy),
      [['schedule'], undefined, ['schedule']],
    );
    // That file's Lambda step, named through `definitionSubstitutions`, runs when the machine runs.
    const archive = index
      .infrastructure()
      .flatMap((d) => d.functions)
      .find((f) => f.name === 'ArchiveTicket');
    assert.deepEqual(
      archive?.triggers.map((t) => t.trigger),
      ['Step Functions Archive, started by cron(0 3 * * ? *)'],
    );
    assert.match(
      blockedFixes(put, ctx)[0]?.title ?? '',
      /^No shard fix: the state machine MarkEscalated makes a UpdateItem of "tickets" at desk-stack\.ts:31/,
    );
    assert.equal(put.keyUse?.stepWrites, undefined);

    // The escalation machine started by an event pattern instead: its task runs per event, and counts.
    const stack = path.join(dir, 'lib', 'desk-stack.ts');
    fs.writeFileSync(
      stack,
      fs
        .readFileSync(stack, 'utf8')
        .replace(
          'schedule: events.Schedule.rate(Duration.minutes(15)),',
          "eventPattern: { source: ['help-desk.tickets'], detailType: ['TicketStale'] },",
        ),
    );
    const started = await indexedApp(
      dir,
      files.filter((f) => f.includes(`${path.sep}lib${path.sep}`)),
      files.filter((f) => f.includes(`${path.sep}src${path.sep}`)),
    );
    assert.deepEqual(
      started.direct.map((d) => d.startedBy),
      [['event'], undefined, ['schedule']],
    );
    assert.deepEqual([started.put.keyUse?.writes, started.put.keyUse?.stepWrites], [1, 1]);
  } finally {
    cleanup(dir);
  }
});

test('a Python CDK app: CallAwsService and DynamoUpdateItem (from_string) name the key', async () => {
  const dir = copyFixture('desk-tickets-cdk-python', FIXTURES);
  try {
    const { put, direct, ctx } = await indexedApp(
      dir,
      [path.join(dir, 'desk', 'desk_stack.py'), path.join(dir, 'app.py')],
      [path.join(dir, 'lambdas', 'open_ticket.py')],
    );
    assert.deepEqual(
      direct.map((d) => [
        d.owner,
        d.operation,
        d.table,
        d.attributes.map((a) => `${a.name}=${a.value ?? '?'}`).join(' '),
      ]),
      [
        ['FindOpen', 'Query', 'help-desk-tickets', 'PK=tickets'],
        ['MarkEscalated', 'UpdateItem', 'help-desk-tickets', 'PK=tickets SK=?'],
      ],
    );
    assert.match(
      blockedFixes(put, ctx)[0]?.title ?? '',
      /^No shard fix: the state machine FindOpen makes a Query of "tickets" at desk_stack\.py:42/,
    );
  } finally {
    cleanup(dir);
  }
});

test("the put's finding points at the requests the definitions make of its key", async () => {
  const { put } = await samApp(path.join(FIXTURES, 'desk-tickets'));
  assert.deepEqual(
    put.related
      .filter((r) => r.message.startsWith('Also addressed'))
      .map((r) => `${path.basename(r.file)}:${r.span.startLine + 1} ${r.message}`),
    [
      "escalation.asl.json:26 Also addressed without code: the state machine EscalationStateMachine's UpdateItem (state Mark escalated)",
      "openapi.yaml:18 Also addressed without code: the API DeskApi GET /tickets/{id}'s GetItem",
      "template.yaml:88 Also addressed without code: the API TicketCountMethod's Query",
    ],
  );
});

test('Terraform: the tasks of a jsonencode definition and of a templatefile one refuse the fix', async () => {
  const dir = copyFixture('desk-tickets-terraform', FIXTURES);
  try {
    const { put, direct, ctx } = await indexedApp(
      dir,
      [path.join(dir, 'main.tf')],
      [path.join(dir, 'src', 'open-ticket.mjs')],
    );
    assert.deepEqual(
      direct.map((d) => [
        d.owner,
        d.step,
        d.operation,
        d.table,
        d.attributes.map((a) => `${a.name}=${a.value ?? '?'}`).join(' '),
        `${path.basename(d.source.file)}:${d.source.span.startLine + 1}`,
      ]),
      [
        // The table by its reference, in the HCL object and through the template's variable.
        [
          'aws_sfn_state_machine.escalation',
          'MarkEscalated',
          'UpdateItem',
          'help-desk-tickets',
          'PK=tickets SK=?',
          'main.tf:51',
        ],
        [
          'aws_sfn_state_machine.archive',
          'Read ticket',
          'GetItem',
          'help-desk-tickets',
          'PK=tickets SK=?',
          'archive.asl.json:6',
        ],
      ],
    );
    assert.match(
      blockedFixes(put, ctx)[0]?.title ?? '',
      /^No shard fix: the state machine aws_sfn_state_machine\.escalation makes a UpdateItem of "tickets" at main\.tf:51/,
    );
    // Nothing in the module starts the machines: their steps are shown, not counted.
    assert.deepEqual(
      direct.map((d) => d.startedBy),
      [[], []],
    );
    assert.equal(put.keyUse?.stepWrites, undefined);

    // An EventBridge rule starting the escalation machine: its UpdateItem runs per event, and counts.
    const main = path.join(dir, 'main.tf');
    fs.appendFileSync(
      main,
      [
        '',
        'resource "aws_cloudwatch_event_rule" "ticket_stale" {',
        '  event_pattern = jsonencode({ source = ["help-desk.tickets"], detail-type = ["TicketStale"] })',
        '}',
        '',
        'resource "aws_cloudwatch_event_target" "escalate" {',
        '  rule     = aws_cloudwatch_event_rule.ticket_stale.name',
        '  arn      = aws_sfn_state_machine.escalation.arn',
        '  role_arn = aws_iam_role.sfn.arn',
        '}',
        '',
      ].join('\n'),
    );
    const started = await indexedApp(dir, [main], [path.join(dir, 'src', 'open-ticket.mjs')]);
    assert.deepEqual(
      started.direct.map((d) => d.startedBy),
      [['event'], []],
    );
    assert.deepEqual(
      [started.put.keyUse?.verdict, started.put.keyUse?.writes, started.put.keyUse?.stepWrites],
      ['write', 1, 1],
    );
  } finally {
    cleanup(dir);
  }
});

test('a route that starts the state machine (states:action/StartExecution) is a trigger of its steps', () => {
  const file = path.join(FIXTURES, 'desk-tickets', 'template.yaml');
  const fn = readInfrastructure(file, fs.readFileSync(file, 'utf8'))?.functions.find(
    (f) => f.name === 'NotifyFunction',
  );
  assert.ok(fn, 'NotifyFunction is read');
  // The machine's own schedule, and the API route whose integration starts it: a request path.
  assert.deepEqual(
    fn.triggers.map((t) => [t.kind, t.trigger]),
    [
      ['schedule', 'Step Functions EscalationStateMachine, started by rate(15 minutes)'],
      ['api', 'Step Functions EscalationStateMachine, started by POST /tickets/{id}/escalate'],
    ],
  );
});

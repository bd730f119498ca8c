import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { checkJson } from './check-json';

/**
 * `shardlens check --format json` over projects with infrastructure code, the CLI run as
 * a real process (after `npm run build`): environment-named tables resolve to the table
 * the template sets for the function that runs the code, and the table's key schema
 * decides which attribute is the partition key.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-infra-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const check = checkJson;

const accessIn = (report: JsonCheckReport, file: string) => {
  const found = report.accesses.filter((a) => a.file === file);
  assert.equal(found.length, 1, `one access in ${file}: ${JSON.stringify(report.accesses.map((a) => a.file))}`);
  return found[0];
};

test('SAM: $TABLE_NAME in a module the handler imports is the template table, keyed as the template says', () => {
  const report = check(FIXTURES, 'sam-app');
  const put = accessIn(report, 'sam-app/src/lib/votes.ts');
  assert.equal(put.table, '{$Stage}-poll-votes');
  assert.deepEqual(put.tableFrom, { variable: 'TABLE_NAME', logicalId: 'VotesTable', file: 'sam-app/template.yaml' });
  // The item lists `voter` first; the template's key schema says `poll` is the partition key.
  assert.equal(put.partitionKey.attribute, 'poll');
  assert.equal(put.partitionKey.template, 'POLL#current');
  const sl001 = report.findings.filter((f) => f.file === 'sam-app/src/lib/votes.ts' && f.rule === 'SL001');
  assert.equal(sl001.length, 1);
  assert.match(sl001[0].message, /on table \{\$Stage\}-poll-votes/);
  // A !Ref table with no TableName: the key schema is known, the physical name is not.
  const tally = accessIn(report, 'sam-app/src/handlers/tally.js');
  assert.equal(tally.table, '$TABLE_NAME');
  assert.equal(tally.tableFrom?.logicalId, 'TalliesTable');
  // A Python handler, SimpleTable with a stated name.
  assert.equal(accessIn(report, 'sam-app/src/handlers/session.py').table, 'poll-sessions');
  // What the template declares is in the report.
  const vote = report.functions?.find((f) => f.name === 'VoteFunction');
  assert.equal(vote?.handlerFile, 'sam-app/src/handlers/vote.ts');
  assert.deepEqual(
    vote?.triggers.map((t) => t.trigger),
    ['POST /polls/{pollId}/votes', 'POST /v2/votes'],
  );
  const votes = report.tables?.find((t) => t.logicalId === 'VotesTable');
  assert.deepEqual(votes?.partitionKey, { name: 'poll', type: 'S' });
  assert.equal(votes?.file, 'sam-app/template.yaml');
  assert.equal(report.coverage?.infrastructure?.read, 1);
  assert.match(report.coverage?.infrastructure?.skipped[0].reason ?? '', /MissingFunction/);
});

test('the same code without its template: the variable stays, and the key is read from the item', () => {
  const copy = path.join(tmp, 'no-template');
  fs.cpSync(path.join(FIXTURES, 'sam-app'), copy, { recursive: true });
  fs.rmSync(path.join(copy, 'template.yaml'));
  const report = check(copy, '.');
  const put = accessIn(report, 'src/lib/votes.ts');
  assert.equal(put.table, '$TABLE_NAME');
  assert.equal(put.tableFrom, undefined);
  assert.notEqual(put.partitionKey.attribute, 'poll');
  assert.equal(report.functions, undefined);
  assert.equal(report.findings.filter((f) => f.rule === 'SL001').length, 0, 'no constant key without the schema');
});

test('CloudFormation JSON and Serverless: Python and TypeScript handlers, ${self:custom} table names', () => {
  const cfn = check(FIXTURES, 'cfn-json');
  const puts = cfn.accesses.filter((a) => a.file === 'cfn-json/src/orders/api.py');
  assert.deepEqual([...new Set(puts.map((a) => a.table))], ['orders']);
  // The table's byStatus index, from the template, is written too: its constant key is found,
  // as the index's own finding (SL012, naming where the template defines it) in place of SL001's,
  // and the index's own sort key, `placedAt` from `time.time()`, under that constant (SL005).
  const index = cfn.findings.filter((f) => f.file === 'cfn-json/src/orders/api.py' && /byStatus/.test(f.message));
  assert.deepEqual(
    index.map((f) => [f.rule, f.severity]),
    [
      ['SL012', 'error'],
      ['SL005', 'info'],
    ],
  );
  assert.match(index[0].message, /^Index "byStatus" of table "orders" \(cfn-json\/orders\.template\.json:18\)/);
  const sls = check(FIXTURES, 'serverless-scores');
  assert.equal(accessIn(sls, 'serverless-scores/src/handlers/record.ts').table, 'scores-{$sls:stage}');
  const rollup = accessIn(sls, 'serverless-scores/src/handlers/rollup.ts');
  assert.equal(rollup.table, '$ROLLUP_TABLE', 'a Ref table with no TableName');
  assert.equal(rollup.tableFrom?.logicalId, 'RollupTable');
  const schedules = sls.functions?.find((f) => f.name === 'rollup')?.triggers.map((t) => t.ratePerHour);
  assert.deepEqual(schedules, [6, 1 / 24, 1]);
});

test('a monorepo: one variable name, a table per service; a module both import keeps the variable and its candidates', () => {
  const report = check(FIXTURES, 'monorepo');
  assert.equal(accessIn(report, 'monorepo/services/orders/src/write.ts').table, 'shop-orders');
  assert.equal(accessIn(report, 'monorepo/services/billing/src/write.ts').table, 'shop-invoices');
  const shared = accessIn(report, 'monorepo/services/shared/audit.ts');
  assert.equal(shared.table, '$AUDIT_TABLE');
  assert.deepEqual(shared.tableCandidates, ['billing-audit', 'orders-audit']);
  const tables = report.findings.filter((f) => f.rule === 'SL001').map((f) => f.table);
  assert.deepEqual(tables.sort(), ['$AUDIT_TABLE', 'shop-invoices', 'shop-orders']);
});

test('with --cache: a template removed between runs unbinds the tables of restored files', () => {
  const copy = path.join(tmp, 'cached');
  const cache = path.join(tmp, 'cache-dir');
  fs.cpSync(path.join(FIXTURES, 'sam-app'), copy, { recursive: true });
  const first = check(copy, '--cache-location', cache, '.');
  assert.equal(accessIn(first, 'src/handlers/session.py').table, 'poll-sessions');
  const again = check(copy, '--cache-location', cache, '.');
  assert.deepEqual(again.accesses, first.accesses, 'a warm run gives what the cold run gave');
  fs.rmSync(path.join(copy, 'template.yaml'));
  const after = check(copy, '--cache-location', cache, '.');
  assert.equal(accessIn(after, 'src/handlers/session.py').table, '$TABLE_NAME');
  assert.ok(after.accesses.every((a) => a.tableFrom === undefined));
});

test('CloudFormation: a counter behind a WebSocket route and an HTTP API route is reached from both, named as routes', () => {
  const report = check(FIXTURES, 'websocket-api');
  const counter = report.findings.find((f) => f.file === 'websocket-api/src/send.py' && f.rule === 'SL004');
  assert.ok(counter, JSON.stringify(report.findings.map((f) => [f.file, f.rule])));
  assert.match(counter.message, /Reached from GET \/rooms \(.*\) and the WebSocket route sendMessage \(/);
  const put = accessIn(report, 'websocket-api/src/connect.py');
  assert.deepEqual(
    put.entryPoints.map((e) => [e.kind, e.trigger]),
    [['websocket', 'websocket $connect']],
  );
});

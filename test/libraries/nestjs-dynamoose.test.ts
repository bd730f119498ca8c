/**
 * NestJS services given their dynamoose model by nestjs-dynamoose
 * (test/fixtures/libraries/nestjs-dynamoose): `@InjectModel('Loan') private readonly
 * loanModel: Model<Loan, LoanKey>` is the model the feature module beside the service
 * registers under that name, `DynamooseModule.forFeature([{ name: 'Loan', schema:
 * LoanSchema, options: { tableName } }])`, the schema imported from its own file; a name
 * given by a constant both sides import is the same name. `@InjectModel` of
 * `@nestjs/mongoose` is not a dynamoose model. A model registered by `forFeatureAsync([{ name,
 * useFactory: () => HoldSchema }])` is the schema the factory returns; the root module's
 * `forRoot({ table: { prefix, suffix } })` frames every table name. Read in this thread (the language server's
 * index) and in `check`'s analysis thread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('nestjs-dynamoose');
const ROOT = path.join(__dirname, '..', '..');

// Every table framed by the root module's `table: { prefix: `${process.env.STAGE}-`, suffix: '-table' }`.
const WANT = [
  'src/holds/holds.service.ts:21 PutItem {$STAGE}-holds-table',
  'src/holds/holds.service.ts:21 PutItem {$STAGE}-holds-table @holdsByStatus',
  'src/holds/holds.service.ts:26 Query {$STAGE}-holds-table @holdsByStatus',
  'src/holds/holds.service.ts:30 UpdateItem {$STAGE}-holds-table',
  'src/holds/holds.service.ts:30 UpdateItem {$STAGE}-holds-table @holdsByStatus',
  'src/loans/loans.service.ts:17 PutItem {$STAGE}-library-loans-table',
  'src/loans/loans.service.ts:18 PutItem {$STAGE}-library-loans-table @memberLoans',
  'src/loans/loans.service.ts:20 PutItem {$STAGE}-library-loans-table @loansByState',
  'src/loans/loans.service.ts:26 GetItem {$STAGE}-library-loans-table',
  'src/loans/loans.service.ts:32 Query {$STAGE}-library-loans-table @memberLoans',
  'src/loans/loans.service.ts:37 Query {$STAGE}-library-loans-table @loansByState',
  'src/loans/loans.service.ts:41 UpdateItem {$STAGE}-library-loans-table',
  'src/loans/loans.service.ts:41 UpdateItem {$STAGE}-library-loans-table @loansByState',
  'src/loans/loans.service.ts:45 DeleteItem {$STAGE}-library-loans-table',
  'src/members/services/members.service.ts:19 PutItem {$STAGE}-Member-table',
  'src/members/services/members.service.ts:23 Query {$STAGE}-Member-table @memberByEmail',
  'src/members/services/members.service.ts:28 GetItem {$STAGE}-Member-table',
];

test('an injected model is the one its feature module registers, with the schema and table options', () => {
  const got = fx.accesses
    .map((a) => `${fx.line(a)} ${a.operation} ${tableName(a.table) ?? '?'}${a.index ? ` @${a.index}` : ''}`)
    .sort();
  // Placed at the call here; `check` places a write at each key it gives.
  const atCall = WANT.map((w) => w.replace(/loans\.service\.ts:(17|18|20) PutItem/, 'loans.service.ts:16 PutItem'));
  assert.deepEqual(got, [...new Set(atCall)].sort());
  // The keys are the schema's, each model's own.
  const overdue = fx.accesses.find((a) => fx.line(a) === 'src/loans/loans.service.ts:37');
  assert.equal(overdue?.partitionKey?.attribute, 'state');
  assert.equal(overdue?.library?.library, 'dynamoose');
  // The constant state the overdue listing reads is a finding on the index.
  assert.ok(fx.findings.some((f) => f.rule === 'SL001' && fx.line(f) === 'src/loans/loans.service.ts:37'));
  // A model registered by `forFeatureAsync` is the schema its factory returns: the waiting holds' constant status.
  assert.ok(fx.findings.some((f) => f.rule === 'SL001' && fx.line(f) === 'src/holds/holds.service.ts:26'));
  // The Mongoose service's `create` is not a dynamoose call.
  assert.ok(!fx.accesses.some((a) => a.file.includes('legacy')));
});

test('check reads the same calls in its analysis thread', () => {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin', 'shardlens.js'), 'check', '--format', 'json', '--fail-on', 'never', '.'],
    { cwd: fx.dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as JsonCheckReport;
  const got = report.accesses
    .map((a) => `${a.file}:${a.line} ${a.operation} ${a.table}${a.index ? ` @${a.index}` : ''}`)
    .sort();
  assert.deepEqual(got, WANT);
});

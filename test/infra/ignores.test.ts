import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { runCheck } from './check-json';

/**
 * `shardlens-ignore` comments in infrastructure files, through the CLI run as a real
 * process (after `npm run build`): a YAML `#` comment or an HCL `#` / `//` comment on a
 * table's definition, or alone on the line above it, silences the finding on that
 * definition (SL013) as a source comment silences one on code; other rules' codes do not,
 * and a comment that silences nothing is reported by `--report-unused-ignores`.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-infra-ignore-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const run = (cwd: string, ...args: string[]) => runCheck(cwd, '.', ...args);

/** A copy of a fixture with one file's text changed by `edit` (which must change it). */
function copyWith(fixture: string, file: string, edit: (text: string) => string): string {
  const dir = fs.mkdtempSync(path.join(tmp, `${fixture}-`));
  fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  const at = path.join(dir, file);
  const before = fs.readFileSync(at, 'utf8');
  const after = edit(before);
  assert.notEqual(after, before, `the edit changes ${file}`);
  fs.writeFileSync(at, after);
  return dir;
}

const rules = (report: JsonCheckReport) => report.findings.map((f) => `${f.rule} ${f.file}:${f.line}`).sort();

test('SAM: a comment above the table, or on its name line, silences SL013 there and nothing else', () => {
  const plain = run(path.join(FIXTURES, 'sam-app')).report;
  assert.deepEqual(rules(plain), [
    'SL001 src/lib/votes.ts:12',
    'SL004 src/handlers/tally.js:10',
    'SL013 template.yaml:50',
  ]);

  const above = copyWith('sam-app', 'template.yaml', (t) =>
    t.replace(
      '\n  TalliesTable:\n',
      '\n  # shardlens-ignore SL013 -- tallies are rebuilt from the stream\n  TalliesTable:\n',
    ),
  );
  assert.deepEqual(rules(run(above).report), ['SL001 src/lib/votes.ts:12', 'SL004 src/handlers/tally.js:10']);

  const trailing = copyWith('sam-app', 'template.yaml', (t) =>
    t.replace('\n  TalliesTable:\n', '\n  TalliesTable: # shardlens-ignore\n'),
  );
  assert.deepEqual(rules(run(trailing).report), ['SL001 src/lib/votes.ts:12', 'SL004 src/handlers/tally.js:10']);

  // Another rule's code, or a `#` inside a quoted value, silences nothing.
  const other = copyWith('sam-app', 'template.yaml', (t) =>
    t
      .replace('\n  TalliesTable:\n', '\n  # shardlens-ignore SL001\n  TalliesTable:\n')
      .replace(
        /(\n\s+StreamViewType: NEW_IMAGE)/,
        '$1\n      SSESpecification: { SSEEnabled: "true # shardlens-ignore" }',
      ),
  );
  assert.deepEqual(rules(run(other).report), [
    'SL001 src/lib/votes.ts:12',
    'SL004 src/handlers/tally.js:10',
    'SL013 template.yaml:51',
  ]);
});

test('SAM: --report-unused-ignores names a template comment that silences nothing, not one that does', () => {
  const dir = copyWith('sam-app', 'template.yaml', (t) =>
    t
      .replace('\n  TalliesTable:\n', '\n  # shardlens-ignore SL013\n  TalliesTable:\n')
      .replace('\n  VotesTable:\n', '\n  # shardlens-ignore SL013 -- insights are on already\n  VotesTable:\n'),
  );
  const votesLine = fs.readFileSync(path.join(dir, 'template.yaml'), 'utf8').split('\n').indexOf('  VotesTable:');
  assert.ok(votesLine > 0);
  const { report, stderr } = run(dir, '--report-unused-ignores');
  assert.ok(!rules(report).some((r) => r.startsWith('SL013')));
  assert.equal(stderr.trim(), `template.yaml:${votesLine}: unused shardlens-ignore SL013: it silences no finding`);
});

test('Serverless: a comment in the included resources file silences SL013 where the table is written', () => {
  assert.deepEqual(rules(run(path.join(FIXTURES, 'orders-included')).report), [
    'SL001 src/place.ts:12',
    'SL013 resources/orders-table.yml:2',
  ]);
  const dir = copyWith('orders-included', 'resources/orders-table.yml', (t) =>
    t.replace(/^OrdersTable:/, '# shardlens-ignore SL013 -- the open-orders list moves to its own table\nOrdersTable:'),
  );
  assert.deepEqual(rules(run(dir).report), ['SL001 src/place.ts:12']);
});

test('Terraform: `#` and `//` comments silence SL013 on the resource; a `#` in a string does not', () => {
  assert.deepEqual(rules(run(path.join(FIXTURES, 'terraform-ignore')).report), [
    'SL004 src/counter/app.py:10',
    'SL013 infra/dynamodb.tf:1',
  ]);
  for (const comment of ['# shardlens-ignore SL013', '// shardlens-ignore SL013 -- a page-view rollup']) {
    const dir = copyWith('terraform-ignore', 'infra/dynamodb.tf', (t) => `${comment}\n${t}`);
    assert.deepEqual(rules(run(dir).report), ['SL004 src/counter/app.py:10'], comment);
  }
  const trailing = copyWith('terraform-ignore', 'infra/dynamodb.tf', (t) =>
    t.replace(
      'resource "aws_dynamodb_table" "views" {',
      'resource "aws_dynamodb_table" "views" { /* shardlens-ignore */',
    ),
  );
  assert.deepEqual(rules(run(trailing).report), ['SL004 src/counter/app.py:10']);
  const inString = copyWith('terraform-ignore', 'infra/dynamodb.tf', (t) =>
    t.replace(
      'resource "aws_dynamodb_table" "views" {',
      'resource "aws_dynamodb_table" "views" { tags = { note = "# shardlens-ignore" }',
    ),
  );
  assert.deepEqual(rules(run(inString).report), ['SL004 src/counter/app.py:10', 'SL013 infra/dynamodb.tf:1']);
});

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { FIXTURES, checkJson } from './check-json';

/**
 * A key part read from an environment variable is the text the infrastructure sets it to:
 * a SAM template's `SUMMARY_SKU: "#summary"` makes every parcel's summary row fill the
 * `bySku` index's partition `#summary` (SL012), and a Serverless function's
 * `SIGNUP_COUNTER: signups` names the counter item it increments (SL004). A value with
 * deploy-time parts (`!Sub "${Stage}#archived"`), or different values in the functions
 * sharing a module, leave the part unknown, as before.
 */

const report = checkJson(FIXTURES, '--fail-on', 'never', 'env-key-values');
const keys = (file: string) =>
  report.accesses
    .filter((a) => a.file === `env-key-values/${file}`)
    .map((a) => [a.line, a.index ?? null, a.partitionKey.template, a.sortKey?.template ?? null]);
const rules = (r: JsonCheckReport, file: string) =>
  r.findings.filter((f) => f.file === `env-key-values/${file}`).map((f) => [f.rule, f.line]);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-env-keys-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('a SAM Globals variable set to plain text is the key as deployed; one with ${Stage} stays unknown', () => {
  assert.deepEqual(keys('fulfilment/src/fulfilment/app.py'), [
    [16, null, '{entity-id}', '#summary'],
    [16, 'bySku', '#summary', '{entity-id}'],
    // `os.environ.get("ARCHIVE_SKU", "archived")`: the template sets it with a deploy-time part.
    [20, null, '{entity-id}', '{unknown}'],
    [20, 'bySku', '{unknown}', '{entity-id}'],
    [27, null, '{entity-id}', '{entity-id}'],
    [27, 'bySku', '{entity-id}', '{entity-id}'],
  ]);
  assert.deepEqual(rules(report, 'fulfilment/src/fulfilment/app.py'), [['SL012', 16]]);
  const hot = report.findings.find((f) => f.rule === 'SL012');
  assert.match(hot?.message ?? '', /fills it with a constant \("#summary"\)/);
});

test('a Serverless function variable names its counter item; a module two functions set differently stays unknown', () => {
  assert.deepEqual(keys('hits/handlers/signup.js'), [[10, null, 'signups', null]]);
  assert.deepEqual(rules(report, 'hits/handlers/signup.js'), [['SL004', 10]]);
  // `countPage` sets COUNTER_NAME to page-views, `countDownload` to downloads: both reach counter.js.
  assert.deepEqual(keys('hits/handlers/counter.js'), [[11, null, '{unknown}', null]]);
  assert.deepEqual(rules(report, 'hits/handlers/counter.js'), []);
});

test('with --cache: the template setting another value re-judges a file whose table is named in the code', () => {
  const copy = path.join(tmp, 'fulfilment');
  const cache = path.join(tmp, 'cache');
  fs.cpSync(path.join(FIXTURES, 'env-key-values', 'fulfilment'), copy, { recursive: true });
  const template = path.join(copy, 'template.yaml');
  const warm = () => checkJson(copy, '--fail-on', 'never', '--cache-location', cache, '.');
  const cold = () => checkJson(copy, '--fail-on', 'never', '.');
  const first = warm();
  const summary = (r: JsonCheckReport) =>
    r.accesses.find((a) => a.file === 'src/fulfilment/app.py' && a.line === 16 && a.index === 'bySku')?.partitionKey
      .template;
  assert.equal(summary(first), '#summary');
  fs.writeFileSync(template, fs.readFileSync(template, 'utf8').replace('"#summary"', '"#totals"'));
  const renamed = warm();
  assert.equal(summary(renamed), '#totals');
  assert.deepEqual(renamed.accesses, cold().accesses, 'the warm run gives what a cold run gives');
  fs.writeFileSync(template, fs.readFileSync(template, 'utf8').replace('"#totals"', '!Sub "${Stage}#totals"'));
  const staged = warm();
  assert.equal(summary(staged), '{unknown}');
  assert.deepEqual(staged.findings, cold().findings);
});

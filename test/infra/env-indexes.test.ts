import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { FIXTURES, checkJson } from './check-json';

/**
 * An `IndexName` read from an environment variable is the index the infrastructure code
 * sets the variable to: a CDK stack's `CONNECTION_INDEX: connectionIndexName` (a constant
 * of the stack) or `SITE_INDEX: 'bySite'`, a SAM function's `QUEUE_INDEX: byQueue`. The
 * query is then judged against that index's keys, and its findings name it. A variable no
 * function sets leaves the index unknown: SL011 does not judge the query against the
 * table's own keys, and the findings say an index, not the table.
 */

function check(): JsonCheckReport {
  return checkJson(FIXTURES, '--fail-on', 'never', 'env-indexes');
}

const report = check();
const findings = (file: string) => report.findings.filter((f) => f.file === `env-indexes/${file}`);

test('a CDK constant or literal set as the IndexName variable is that index', () => {
  const got = report.accesses
    .filter((a) => a.file === 'env-indexes/fleet/lambda/devices/index.py')
    .map((a) => [a.line, a.index ?? null, a.partitionKey.attribute]);
  assert.deepEqual(got, [
    [21, 'byConnection', 'connection'],
    [27, 'bySite', 'siteId'],
    // RETIRED_INDEX: no function sets it.
    [37, null, 'lifecycle'],
    // The IndexName set in the admin branch goes to the scan that branch returns, not to this query.
    [49, null, 'deviceId'],
  ]);
});

test('SL011 judges a query on its resolved index and stays silent on an unknown one', () => {
  const fleet = findings('fleet/lambda/devices/index.py');
  assert.deepEqual(
    fleet.filter((f) => f.rule === 'SL011').map((f) => f.line),
    [],
  );
  const lost = fleet.find((f) => f.line === 21 && f.rule === 'SL001');
  assert.match(lost?.message ?? '', /on index "byConnection" of table \$DEVICES_TABLE/);
  const retired = fleet.find((f) => f.line === 37 && f.rule === 'SL001');
  assert.match(retired?.message ?? '', /on an index of table \$DEVICES_TABLE \(the one \$RETIRED_INDEX names\)/);
});

test('a SAM variable set to a literal index name resolves the same way', () => {
  const kiosk = report.accesses.filter((a) => a.file === 'env-indexes/kiosk/src/next.mjs');
  assert.deepEqual(
    kiosk.map((a) => [a.index ?? null, a.partitionKey.attribute]),
    [['byQueue', 'queueId']],
  );
  assert.deepEqual(
    findings('kiosk/src/next.mjs').map((f) => [f.rule, /on index "byQueue"/.test(f.message)]),
    [['SL001', true]],
  );
});

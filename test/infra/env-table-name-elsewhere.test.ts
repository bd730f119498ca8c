import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, checkJson } from './check-json';

/**
 * `TABLE_NAME` is every team's variable. In table-name-elsewhere, the fulfilment handler
 * (deployed from another repository: no template here) queries an index `by-status` on
 * its `process.env.TABLE_NAME`; the payments template sets its own function's
 * `TABLE_NAME` to a table with no index at all. What the fulfilment query tells of its
 * table's indexes must not become the payments table's: its writer's `status` is a plain
 * attribute, not a constant index partition.
 */
test("a variable another service's code names alike tells nothing of a table the template declares", () => {
  const report = checkJson(FIXTURES, '--fail-on', 'never', 'table-name-elsewhere');
  const payments = 'table-name-elsewhere/services/payments/src/payments.js';
  assert.deepEqual(
    report.accesses.filter((a) => a.file === payments).map((a) => [a.line, a.index ?? null, a.partitionKey.attribute]),
    [[13, null, 'pk']],
  );
  assert.deepEqual(
    report.findings.filter((f) => f.file === payments),
    [],
  );
  // The fulfilment query keeps what it says of its own, unbound table.
  const fulfilment = report.accesses.filter((a) => a.file.includes('fulfilment'));
  assert.deepEqual(
    fulfilment.map((a) => [a.index, a.partitionKey.attribute]),
    [['by-status', 'status']],
  );
});

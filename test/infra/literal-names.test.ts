import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { FIXTURES, checkJson } from './check-json';

/**
 * Code that writes a table's name literally gets the table a template declares with that
 * name: a Serverless service's `${self:service}-orders-${sls:stage}` for
 * `'orders-api-orders-prod'`, a SAM template's `GameScores` for `Table("GameScores")`.
 * Two templates declaring `sessions-${Stage}` with different keys leave `'sessions-prod'`
 * unbound.
 */

function check(): JsonCheckReport {
  return checkJson(FIXTURES, 'literal-names');
}

test('literal table names take the declared key schema and indexes; SL011/SL012/SL013 apply', () => {
  const report = check();
  const at = (file: string) => report.accesses.filter((a) => a.file === `literal-names/${file}`);
  const rules = (file: string) =>
    report.findings
      .filter((f) => f.file === `literal-names/${file}`)
      .map((f) => f.rule)
      .sort();
  // A name with the stage filled in matches the Serverless name with its holes.
  assert.deepEqual(
    at('orders/src/place.ts').map((a) => [a.table, a.index ?? null, a.partitionKey.attribute]),
    [
      ['orders-api-orders-prod', null, 'customerId'],
      ['orders-api-orders-prod', 'byStatus', 'status'],
    ],
  );
  assert.deepEqual(rules('orders/src/place.ts'), ['SL012']);
  assert.deepEqual(rules('orders/serverless.yml'), ['SL013']);
  // The declared partition key wins over the Key a wrong get_item names.
  assert.deepEqual(
    at('games/src/scores.py').map((a) => [a.operation, a.index ?? null, a.partitionKey.attribute]),
    [
      ['PutItem', null, 'gameId'],
      ['PutItem', 'topByRegion', 'region'],
      ['GetItem', null, 'playerId'],
    ],
  );
  assert.deepEqual(rules('games/src/scores.py'), ['SL011', 'SL012']);
  // Ambiguous: nothing bound, nothing judged against either template.
  assert.deepEqual(
    at('tenants/src/sessions.js').map((a) => a.partitionKey.attribute),
    ['userId'],
  );
  assert.deepEqual(rules('tenants/src/sessions.js'), []);
  assert.ok(!report.findings.some((f) => f.file.startsWith('literal-names/tenants/')));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { FIXTURES, checkJson } from './check-json';

/**
 * A request object filled field by field (`params.IndexName = 'byQueue'`,
 * `kwargs["IndexName"] = "queue-index"`) holds the writes on the path to each request that
 * sends it: a branch that writes and then returns or throws gives its writes to its own
 * request only, never to the one after it; a `case` that breaks out of a `switch` gives them
 * to the one after the `switch`. The index the writes name is then the one the request reads,
 * and the one the findings name.
 */

function check(): JsonCheckReport {
  return checkJson(FIXTURES, '--fail-on', 'never', 'branch-writes');
}

const report = check();
const accesses = (file: string) =>
  report.accesses
    .filter((a) => a.file === `branch-writes/${file}`)
    .map((a) => [a.line, a.operation, a.index ?? null, a.partitionKey.attribute, a.partitionKey.template]);
const hot = (file: string) =>
  report.findings
    .filter((f) => f.file === `branch-writes/${file}` && f.rule === 'SL001')
    .map((f) => [f.line, f.message.match(/on index "([^"]+)"/)?.[1] ?? null]);

test('a branch that writes an index and returns keeps it from the request after it (JavaScript)', () => {
  assert.deepEqual(accesses('helpdesk/src/get-ticket.mjs'), [
    [17, 'Query', 'byQueue', 'queue', 'TRIAGE'],
    // The triage branch returned: this GetItem reads the table's own key.
    [22, 'GetItem', null, 'ticketId', '{entity-id}'],
  ]);
  assert.deepEqual(hot('helpdesk/src/get-ticket.mjs'), [[16, 'byQueue']]);
});

test('a switch case that breaks gives its writes to the request after the switch, one that returns to its own (TypeScript)', () => {
  assert.deepEqual(accesses('helpdesk/src/list-view.ts'), [
    [22, 'Query', 'byQueue', 'queue', 'ESCALATED'],
    [29, 'Query', 'byAssignee', 'assignee', '{entity-id}'],
  ]);
  assert.deepEqual(hot('helpdesk/src/list-view.ts'), [[21, 'byQueue']]);
});

test('a request inside a branch holds the writes made before it in that branch (Python)', () => {
  assert.deepEqual(accesses('escalations/tickets/app.py'), [
    [18, 'Query', 'queue-index', 'queue', 'ESCALATED'],
    [22, 'Query', 'agent-index', 'agent_id', '{entity-id}'],
  ]);
  assert.deepEqual(hot('escalations/tickets/app.py'), [[17, 'queue-index']]);
});

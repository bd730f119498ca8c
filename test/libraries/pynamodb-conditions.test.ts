/**
 * A PynamoDB count or query given a condition where the hash key belongs
 * (`Alert.count(Alert.state == "UNREAD")`, meant as a filter) sends no key PynamoDB can
 * serialise: it is not read as a query of a status partition. Before, the comparison was
 * read as a low-cardinality hash key and reported as SL003.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

test('a condition given as the hash key of a PynamoDB count is not read as a key', async () => {
  const { index, dir } = await indexedWorkspace({
    'alerts/models.py': `from pynamodb.models import Model
from pynamodb.attributes import UnicodeAttribute, NumberAttribute


class Alert(Model):
    class Meta:
        table_name = "alerts"

    alert_id = UnicodeAttribute(hash_key=True)
    raised_at = NumberAttribute(range_key=True)
    state = UnicodeAttribute()
`,
    'alerts/views.py': `from .models import Alert


def unread_total():
    return Alert.count(Alert.state == "UNREAD")


def unread_of(alert_id):
    return Alert.count(alert_id, filter_condition=(Alert.state == "UNREAD") & (Alert.raised_at > 0))
`,
  });
  const views = index.results().find((r) => path.relative(dir, r.file) === 'alerts/views.py')!;
  // The count by an id is read; the one given a condition is not.
  assert.deepEqual(
    views.accesses.map((a) => `${a.operation} ${a.span.startLine + 1} ${a.partitionKey?.attribute}`),
    ['Query 9 alert_id'],
  );
  assert.deepEqual(
    views.findings.map((f) => f.rule),
    [],
  );
});

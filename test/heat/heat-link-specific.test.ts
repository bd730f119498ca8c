// A live key that fits two templates of one table is counted under the one that pins more of
// it. Library services prefix every entity's key alike (`$shop#tenantid_…`), and an id hole
// matches any run, `#` included: an order's key fits the tenant's template too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileMatcher, type KeyPattern } from '../../server/src/engine/keys/matcher';
import type { KeyTemplate, LogicalKey } from '../../server/src/engine/model';
import { pickMatch } from '../../server/src/heat/link';

const id = (source: string) => ({ hole: { kind: 'entity-id' as const, source } });
const pattern = (name: string, template: KeyTemplate): KeyPattern => {
  const key: LogicalKey = { table: 'shop-data', index: null, attribute: 'pk', template, shards: null, id: name };
  return { key, template };
};
// Ids chosen so that the tenant's key sorts first: a tie broken by id alone picks it.
const tenant = pattern('shop-data · pk = $shop#tenantid_{entity-id}', {
  parts: [{ literal: '$shop#tenantid_' }, id('tenantId')],
});
const order = pattern('shop-data · pk = $shop#tenantid_{entity-id}#orderid_{entity-id}', {
  parts: [{ literal: '$shop#tenantid_' }, id('tenantId'), { literal: '#orderid_' }, id('orderId')],
});

test("an order's live key is linked to the order's template, not to the tenant's it also fits", () => {
  const match = compileMatcher([tenant, order]);
  const live = '$shop#tenantid_3f1c9a#orderid_77d0e2';
  assert.equal(match(live).length, 2, 'both templates fit the key');
  assert.equal(pickMatch(match(live), 'shop-data', null, 'pk')?.key.id, order.key.id);
  // The tenant's own key still goes to the tenant's template.
  assert.equal(pickMatch(match('$shop#tenantid_3f1c9a'), 'shop-data', null, 'pk')?.key.id, tenant.key.id);
});

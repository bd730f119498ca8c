import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickMatch } from '../../server/src/heat/link';
import type { KeyMatch } from '../../server/src/engine';

/** Live heat links a table named by a template with deploy-time parts to the account's table. */

const match = (table: string): KeyMatch =>
  ({
    key: { table, index: null, attribute: 'PK', id: `${table} · PK = BOARD#weekly` },
    shard: null,
  }) as unknown as KeyMatch;

test('template names with Serverless and CloudFormation holes match the deployed name', () => {
  assert.ok(pickMatch([match('scores-{$sls:stage}')], 'scores-prod', null, 'PK'));
  assert.ok(pickMatch([match('{$AWS::StackName}-orders')], 'shop-orders', null, 'PK'));
  assert.equal(pickMatch([match('scores-{$sls:stage}')], 'rollups-prod', null, 'PK'), null);
  // A literal name resolved from a template is matched as its own name.
  assert.ok(pickMatch([match('poll-sessions')], 'poll-sessions', null, 'PK'));
});

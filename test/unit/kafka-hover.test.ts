import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalizeSettings } from '../../protocol/src/settings';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { hoverMarkdown } from '../../server/src/lsp/hover';

// The hover on a Kafka producer's record speaks of the topic, its key and its partitions,
// not of a DynamoDB table's read and write units.

const SOURCE = `import { Kafka } from 'kafkajs';

const producer = new Kafka({ brokers: ['kafka:9092'] }).producer();

export async function tierChanged(account: { accountId: string; tier: string }) {
  await producer.send({ topic: 'account-tiers', messages: [{ key: account.tier, value: account.accountId }] });
  await producer.send({ topic: 'account-audit', messages: [{ partition: 3, value: account.accountId }] });
}
`;

before(() => initParsers());

test('a record keyed by a tier: the topic, the key, one partition per value, one consumer per partition', () => {
  const analysis = analyzeSource('/w/src/accounts.ts', SOURCE, 'typescript');
  const [keyed, pinned] = analysis.accesses;
  const md = hoverMarkdown(keyed, analysis.findings, normalizeSettings({})).value;
  assert.match(md, /Kafka record · topic `account-tiers` · key = `\{low-cardinality\}`/);
  assert.match(md, /each value goes to one partition/);
  assert.match(md, /one partition is read by one consumer only/);
  assert.match(md, /\*\*SL020\*\* \[skewed-kafka-key\]/);
  assert.doesNotMatch(md, /WCU|RCU|table/);
  const pinnedMd = hoverMarkdown(pinned, analysis.findings, normalizeSettings({})).value;
  assert.match(pinnedMd, /topic `account-audit` · partition `3`/);
  assert.match(pinnedMd, /fixed partition number/);
});

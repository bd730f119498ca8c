import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalizeSettings } from '../../protocol/src/settings';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { hoverMarkdown } from '../../server/src/lsp/hover';

// The hover on a tenant routed by a hash speaks of the routing function, the tenant and
// what a hash does with a hot tenant, not of a DynamoDB table's read and write units.

const SOURCE = `import crc32 from 'crc-32';

const CLUSTERS = ['pg-eu-1', 'pg-eu-2', 'pg-us-1'];
const PINNED = new Map<string, string>([['initech', 'pg-initech']]);

export function clusterFor(orgId: string): string {
  return CLUSTERS[Math.abs(crc32.str(orgId)) % CLUSTERS.length];
}

export function pinnedClusterFor(orgId: string): string {
  return PINNED.get(orgId) ?? CLUSTERS[Math.abs(crc32.str(orgId)) % CLUSTERS.length];
}
`;

before(() => initParsers());

test('a tenant routed by a hash alone: the function, the tenant, why a hash cannot move a hot tenant, the rule', () => {
  const analysis = analyzeSource('/w/src/clusters.ts', SOURCE, 'typescript');
  assert.equal(analysis.accesses.length, 1);
  const md = hoverMarkdown(analysis.accesses[0], analysis.findings, normalizeSettings({})).value;
  assert.match(md, /tenant route · `clusterFor` · hash of `orgId`/);
  assert.match(md, /spreads tenants evenly, not their traffic/);
  assert.match(md, /\*\*SL021\*\* \[tenant-shard-no-override\]/);
  assert.doesNotMatch(md, /WCU|RCU|table/);
  const off = hoverMarkdown(
    analysis.accesses[0],
    analysis.findings,
    normalizeSettings({ rules: { SL021: 'off' } }),
  ).value;
  assert.doesNotMatch(off, /SL021/);
});

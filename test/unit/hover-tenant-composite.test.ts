import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { normalizeSettings } from '../../protocol/src/settings';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import { indexedWorkspace } from './helpers';

/**
 * A tenant's id plus a status is many keys over all tenants, so the key reads as high
 * cardinality; the hover says instead that one tenant's traffic is not spread (SL022),
 * and goes back to the plain verdict when the rule is off.
 */
test('the hover on a tenant composite says one tenant is not spread', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/jobs.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

export function jobsInState(doc: DynamoDBDocumentClient, orgId: string, jobState: 'queued' | 'running' | 'done') {
  return doc.send(
    new QueryCommand({
      TableName: 'jobs',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': \`ORG#\${orgId}#\${jobState}\` },
    }),
  );
}
`,
  });
  try {
    const results = index.results();
    const a = results.flatMap((r) => r.accesses).find((x) => x.operation === 'Query');
    assert.ok(a, 'the query is read');
    const findings = results.flatMap((r) => r.findings);
    const on = hoverMarkdown(a, findings, normalizeSettings({})).value;
    assert.match(on, /Tenant composite: one key per tenant \(`orgId`\) and value of `jobState`/);
    assert.match(on, /at most 3,000 RCU\/s/);
    assert.match(on, /\*\*SL022\*\* \[low-cardinality-composite\]/);
    assert.doesNotMatch(on, /traffic spreads over many partition keys/);
    const off = hoverMarkdown(a, findings, normalizeSettings({ rules: { SL022: 'off' } })).value;
    assert.doesNotMatch(off, /Tenant composite/);
    assert.match(off, /High cardinality/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

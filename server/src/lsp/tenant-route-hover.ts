import type { MarkupContent } from 'vscode-languageserver';
import { docsUrl, type Access, type Finding } from '../engine';
import { code } from './markdown';

/**
 * The hover on a tenant routed by a hash (SL021): the function, the tenant hashed, and
 * what a hash does with a hot tenant. None of the DynamoDB hover's lines apply: no table,
 * no capacity ceilings, no shards to read back.
 */
export function tenantRouteHoverMarkdown(a: Access, findings: Finding[]): MarkupContent {
  const fn = a.library?.entity ?? '?';
  const tenant = a.library?.route?.tenant ?? '?';
  const lines = [
    `**ShardLens** · tenant route${fn === '?' ? '' : ` · ${code(fn)}`} · hash of ${code(tenant)}`,
    findings.length
      ? 'Every tenant is placed by the hash alone: a hash spreads tenants evenly, not their traffic, so the busiest tenant keeps its shard hot, and moving it changes the hash for all.'
      : 'The tenant is looked up before the hash: a hot tenant can be sent elsewhere.',
  ];
  const rules = [...new Map(findings.map((f) => [f.rule, f])).values()];
  if (rules.length) lines.push(rules.map((f) => `**${f.rule}** [${f.category}](${docsUrl(f.rule)})`).join(' · '));
  return { kind: 'markdown', value: lines.join('\n\n') };
}

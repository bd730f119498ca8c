import { docsUrl, type Finding, type InfraTable, type KeyAttribute } from '../engine';
import type { MarkupContent } from 'vscode-languageserver';
import { contains } from './convert';
import { code, text } from './markdown';

/**
 * The hover on a table's definition in a template (or Terraform file): the table as
 * ShardLens read it — its name, key schema, indexes, billing and Contributor Insights —
 * and the rules whose findings sit there, each with its docs. The diagnostic's message
 * is not repeated: the editor shows it beside the hover. Null away from any definition.
 */
export function templateHover(
  tables: readonly InfraTable[],
  findings: readonly Finding[],
  line: number,
  character: number,
): MarkupContent | null {
  const here = (s: Finding['span']) => contains(s, line, character);
  const table = tables.find((t) => here(t.source.span));
  // Over a definition, the findings anywhere in it (SL013 marks only its first line); elsewhere, those under the cursor.
  const inTable = (s: Finding['span']) => !!table && contains(table.source.span, s.startLine, s.startColumn);
  const rules = [...new Map(findings.filter((f) => here(f.span) || inTable(f.span)).map((f) => [f.rule, f])).values()];
  if (!table && !rules.length) return null;
  const lines: string[] = table ? tableLines(table) : [];
  if (rules.length) {
    if (lines.length) lines.push('');
    lines.push(rules.map((f) => `**${f.rule}** [${f.category}](${docsUrl(f.rule)})`).join(' · '));
  }
  return { kind: 'markdown', value: lines.join('\n') };
}

function tableLines(t: InfraTable): string[] {
  const name = t.tableName ? code(t.tableName) : 'its name chosen at deploy time';
  const out = [`**Table ${code(t.logicalId)}**: ${name}`, ''];
  const keys = [
    t.partitionKey && `partition key ${attribute(t.partitionKey)}`,
    t.sortKey && `sort key ${attribute(t.sortKey)}`,
  ];
  out.push(`Key schema: ${keys.filter(Boolean).join(', ') || 'not read'}`);
  for (const i of t.indexes) {
    const sort = i.sortKey ? `, sort key ${attribute(i.sortKey)}` : '';
    out.push(
      `- ${i.kind === 'global' ? 'GSI' : 'LSI'} ${code(i.name)}: partition key ${attribute(i.partitionKey)}${sort}`,
    );
  }
  if (t.unreadIndexes) out.push(`- ${t.unreadIndexes} more not read (computed)`);
  out.push('', `Billing: ${billing(t)} · Contributor Insights: ${insights(t.contributorInsights)}`);
  return out;
}

function attribute(k: KeyAttribute): string {
  return k.type ? `${code(k.name)} (${text(k.type)})` : code(k.name);
}

function billing(t: InfraTable): string {
  if (t.billingMode === 'PAY_PER_REQUEST') return 'on demand';
  if (t.billingMode !== 'PROVISIONED') return 'not stated';
  const units = (n: number | null | undefined, unit: string) => (n == null ? null : `${n} ${unit}`);
  const capacity = [units(t.capacity?.read, 'RCU'), units(t.capacity?.write, 'WCU')].filter(Boolean).join(', ');
  return capacity ? `provisioned, ${capacity}` : 'provisioned';
}

function insights(on: boolean | null): string {
  return on === true ? 'on' : on === false ? 'off' : 'off (not set)';
}

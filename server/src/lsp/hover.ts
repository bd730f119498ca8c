import type { MarkupContent } from 'vscode-languageserver';
import type { ShardLensSettings } from '../../../protocol/src/settings';
import type { Access, Classification, Finding, Span } from '../engine/model';
import { docsUrl } from '../engine/rules';
import { classifyAccess, render, shardSetOf } from '../engine/template';
import { contains } from './convert';

const WCU_PER_KEY = 1000;
const RCU_PER_KEY = 3000;

const VERDICT: Record<Classification, string> = {
  constant: 'Constant key: every request for it lands on one partition.',
  'time-bucket': 'Time bucket: every write in the current period shares this one key.',
  'low-cardinality': 'Low cardinality: a handful of keys take all the traffic, the most common value most of it.',
  counter: 'Counter item: every caller updates this one item.',
  sharded: 'Sharded: the logical key is spread over several partition keys.',
  'high-cardinality': 'High cardinality: traffic spreads over many partition keys.',
  unknown: 'ShardLens could not tell where this key’s value comes from.',
};

const n = (x: number) => x.toLocaleString('en-US');

/** The access whose key (or, failing that, whose call) is under the cursor. */
export function accessAt(accesses: Access[], line: number, character: number): Access | null {
  const onKey = accesses.find(
    (a) =>
      (a.partitionKey?.inline && contains(a.partitionKey.span, line, character)) ||
      (a.sortKey?.inline && contains(a.sortKey.span, line, character)),
  );
  if (onKey) return onKey;
  // The innermost call containing the cursor.
  const calls = accesses.filter((a) => contains(a.span, line, character));
  return calls.sort((x, y) => x.span.endLine - x.span.startLine - (y.span.endLine - y.span.startLine))[0] ?? null;
}

/** The key's throughput ceiling: one partition's, times the number of keys it is spread over. */
function ceilingLines(a: Access, c: Classification, settings: ShardLensSettings): string[] {
  const shards = a.partitionKey ? shardSetOf(a.partitionKey.template) : null;
  const keys = c === 'sharded' ? (shards?.values?.length ?? null) : 1;
  const lines: string[] = [];
  if (c === 'high-cardinality') {
    lines.push(
      `Each key is capped at ${n(WCU_PER_KEY)} WCU/s and ${n(RCU_PER_KEY)} RCU/s; spread over many keys, the table's capacity is the limit.`,
    );
  } else if (c === 'low-cardinality') {
    lines.push(
      `Ceiling: ${n(WCU_PER_KEY)} WCU/s and ${n(RCU_PER_KEY)} RCU/s **per distinct value**, and the most common value takes most of the traffic.`,
    );
  } else if (keys === null) {
    lines.push(
      `Ceiling: ${n(WCU_PER_KEY)} WCU/s and ${n(RCU_PER_KEY)} RCU/s per shard (the shard count is not known here).`,
    );
  } else if (c !== 'unknown') {
    const total = (perKey: number, unit: string) =>
      keys > 1 ? `${keys} keys × ${n(perKey)} ${unit} = **${n(keys * perKey)} ${unit}**` : `**${n(perKey)} ${unit}**`;
    lines.push(
      `Ceiling: ${total(WCU_PER_KEY, 'WCU/s')} for writes, ${total(RCU_PER_KEY, 'RCU/s')} for strongly consistent reads.`,
    );
    if (a.itemBytes !== null) {
      const wcu = Math.max(1, Math.ceil(a.itemBytes / 1024));
      lines.push(
        `This item is about ${n(a.itemBytes)} bytes (what the code shows) → ${wcu} WCU per write → at most ` +
          `**${n(Math.floor((keys * WCU_PER_KEY) / wcu))} writes/s** of it.`,
      );
    }
  }
  const peak = settings.shards.peakWriteUnits;
  const suggested = settings.shards.defaultCount;
  if (peak === 0 && keys === 1 && (c === 'constant' || c === 'time-bucket' || c === 'counter')) {
    lines.push(
      `Sharded over ${suggested} keys (\`shardlens.shards.defaultCount\`) it would take ` +
        `${n(suggested * WCU_PER_KEY)} WCU/s; set \`shardlens.shards.peakWriteUnits\` to size the shard count.`,
    );
  }
  if (peak > 0 && c !== 'high-cardinality') {
    const needed = Math.ceil(peak / 800);
    const have = keys ?? 0;
    lines.push(
      `Your expected peak of ${n(peak)} WCU/s needs at least **${needed} shard${needed === 1 ? '' : 's'}** ` +
        `(ceil(${n(peak)} / 800))${have ? `; this key has ${have}` : ''}.`,
    );
  }
  return lines;
}

function sameSpan(x: Span, y: Span): boolean {
  return (
    x.startLine === y.startLine &&
    x.startColumn === y.startColumn &&
    x.endLine === y.endLine &&
    x.endColumn === y.endColumn
  );
}

/** Markdown for the hover over a key expression. */
export function hoverMarkdown(a: Access, findings: Finding[], settings: ShardLensSettings): MarkupContent {
  const c = classifyAccess(a);
  const pk = a.partitionKey;
  const table =
    a.table.kind === 'literal'
      ? ` on table \`${a.table.name}\``
      : a.table.kind === 'env'
        ? ` on table \`$${a.table.name}\``
        : '';
  const lines = [
    pk
      ? `**ShardLens** · ${a.operation} · \`${pk.attribute}\` = \`${render(pk.template)}\`${table}`
      : `**ShardLens** · ${a.operation}${table}: the partition key could not be read.`,
  ];
  if (a.sortKey) lines.push(`Sort key \`${a.sortKey.attribute}\` = \`${render(a.sortKey.template)}\``);
  lines.push('', VERDICT[c], '', ...ceilingLines(a, c, settings));
  // The index may hold another analysis of the same text: match the access by position.
  const same = (b: Access) => b === a || (b.file === a.file && sameSpan(b.span, a.span));
  const mine = findings.filter((f) => same(f.access) && settings.rules[f.rule] !== 'off');
  for (const f of mine) lines.push('', `**${f.rule}** [${f.category}](${docsUrl(f.rule)}) — ${f.message}`);
  return { kind: 'markdown', value: lines.join('\n\n').replace(/\n\n\n\n/g, '\n\n') };
}

import {
  type AccessReach,
  type Access,
  type Classification,
  classifyAccess,
  docsUrl,
  envReadShown,
  type Finding,
  isKafkaAccess,
  formatUnits as n,
  type KeyUse,
  type KeyValue,
  PLANNED_WRITE_UNITS_PER_SHARD,
  READ_UNITS_PER_PARTITION as RCU_PER_KEY,
  modelOf,
  REASONS,
  render,
  sameSpan,
  shardSetOf,
  shardsForPeak,
  type Span,
  tableName,
  tableShown,
  tenantComposite,
  type TenantComposite,
  useText,
  whyUnresolved,
  WRITE_UNITS_PER_PARTITION as WCU_PER_KEY,
  writeUnitsPerItem,
} from '../engine';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver';
import { resolveTable, type ColdEntries, type ShardLensSettings } from '../../../protocol/src/settings';
import { isColdEntry } from '../config/cold-entries';
import { contains } from './convert';
import { code, text } from './markdown';
import { tenantRouteHoverMarkdown } from './tenant-route-hover';
import { kafkaHoverMarkdown } from './kafka-hover';

/** How the hover names a file: `update-score/index.js`. */
export type PlaceName = (file: string) => string;

const VERDICT: Record<Classification, string> = {
  constant: 'Constant key: every request for it lands on one partition.',
  'time-bucket': 'Time bucket: every write in the current period shares this one key.',
  'low-cardinality': 'Low cardinality: a handful of keys take all the traffic, the most common value most of it.',
  counter: 'Counter item: every caller updates this one item.',
  sharded: 'Sharded: the logical key is spread over several partition keys.',
  'high-cardinality': 'High cardinality: traffic spreads over many partition keys.',
  unknown: 'ShardLens could not tell where this key’s value comes from.',
};

/**
 * The live line for the hover (`Live (1h), writes: ...`) and the throttle events calls of
 * its kind may have met: under throttles the hover never says the key's traffic spreads.
 */
export interface LiveHover {
  line: string;
  throttles: number;
}

/** The verdicts that say traffic spreads, as live throttles correct them. */
const THROTTLED_VERDICT: Partial<Record<Classification, string>> = {
  'high-cardinality':
    'High cardinality in the code, but live data shows this key throttled: some value of it takes more than one partition serves.',
  sharded:
    'Sharded in the code, but live data shows this key throttled: a shard takes more than one partition serves (too few shards, or an uneven suffix).',
};

/** The access whose key (or, failing that, whose call) is under the cursor. */
export function accessAt(accesses: Access[], line: number, character: number): Access | null {
  // On the value written in the call, or on the property it enters by (`PK: GLOBAL_BOARD`);
  // a `use` that is the whole call (the request was built elsewhere) says nothing more.
  const under = (a: Access, k: KeyValue | null) =>
    !!k &&
    ((k.inline && contains(k.span, line, character)) || (!sameSpan(k.use, a.span) && contains(k.use, line, character)));
  const onKey = accesses.find((a) => under(a, a.partitionKey) || under(a, a.sortKey));
  if (onKey) return onKey;
  // The innermost call containing the cursor.
  const calls = accesses.filter((a) => contains(a.span, line, character));
  return calls.sort((x, y) => x.span.endLine - x.span.startLine - (y.span.endLine - y.span.startLine))[0] ?? null;
}

/** `10 keys × 1,000 WCU/s = **10,000 WCU/s**`, or `**1,000 WCU/s**` for one key. */
function total(keys: number, perKey: number, unit: string): string {
  return keys > 1
    ? `${keys} keys × ${n(perKey)} ${unit} = **${n(keys * perKey)} ${unit}**`
    : `**${n(perKey)} ${unit}**`;
}

/**
 * A read's ceiling: one partition's 3,000 RCU/s, a read unit being one strongly consistent
 * read of up to 4 KB; an eventually consistent read (the default) costs half, so twice as
 * many of them fit. Never a write figure: a read is not limited by write capacity.
 */
function readCeilingLines(a: Access, c: Classification, keys: number | null, throttled: boolean): string[] {
  // `read` (and so ConsistentRead) is known for queries; other reads state both costs.
  const consistent = a.read?.consistent === true;
  const perRead = consistent
    ? 'with `ConsistentRead: true` each read of up to 4 KB costs 1 RCU'
    : a.read
      ? 'eventually consistent (the default), each read of up to 4 KB costs half an RCU'
      : 'an eventually consistent read (the default) of up to 4 KB costs half an RCU, a strongly consistent one 1 RCU';
  if (c === 'high-cardinality' && throttled) return [`Ceiling: ${n(RCU_PER_KEY)} RCU/s per key value.`];
  if (c === 'high-cardinality')
    return [`Each key is capped at ${n(RCU_PER_KEY)} RCU/s; spread over many keys, the table's capacity is the limit.`];
  if (c === 'low-cardinality')
    return [
      `Ceiling: ${n(RCU_PER_KEY)} RCU/s **per distinct value**, and the most common value takes most of the reads.`,
    ];
  if (keys === null) return [`Ceiling: ${n(RCU_PER_KEY)} RCU/s per shard (the shard count is not known here).`];
  if (c === 'unknown') return [];
  const most = (perSecond: number) => `**${n(keys * perSecond)} reads/s**`;
  const reads = consistent
    ? most(RCU_PER_KEY)
    : a.read
      ? most(2 * RCU_PER_KEY)
      : `${most(2 * RCU_PER_KEY)} (${n(keys * RCU_PER_KEY)} strongly consistent)`;
  return [`Ceiling: ${total(keys, RCU_PER_KEY, 'RCU/s')} for reads; ${perRead}: at most ${reads} of items up to 4 KB.`];
}

/** The key's throughput ceiling: one partition's, times the number of keys it is spread over. */
function ceilingLines(a: Access, c: Classification, settings: ShardLensSettings, throttled = false): string[] {
  const shards = a.partitionKey ? shardSetOf(a.partitionKey.template) : null;
  const keys = c === 'sharded' ? (shards?.values?.length ?? null) : 1;
  // The write-side advice (item size, shard count for a write peak) means nothing on a read.
  if (a.kind === 'read') return readCeilingLines(a, c, keys, throttled);
  const lines: string[] = [];
  if (c === 'high-cardinality' && throttled) {
    lines.push(`Ceiling: ${n(WCU_PER_KEY)} WCU/s and ${n(RCU_PER_KEY)} RCU/s per key value.`);
  } else if (c === 'high-cardinality') {
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
    lines.push(
      `Ceiling: ${total(keys, WCU_PER_KEY, 'WCU/s')} for writes, ${total(keys, RCU_PER_KEY, 'RCU/s')} for strongly consistent reads.`,
    );
    if (a.itemBytes !== null) {
      const wcu = writeUnitsPerItem(a.itemBytes);
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
    const needed = shardsForPeak(peak);
    const have = keys ?? 0;
    lines.push(
      `Your expected peak of ${n(peak)} WCU/s needs at least **${needed} shard${needed === 1 ? '' : 's'}** ` +
        `(ceil(${n(peak)} / ${PLANNED_WRITE_UNITS_PER_SHARD}))${have ? `; this key has ${have}` : ''}.`,
    );
  }
  return lines;
}

/**
 * The index a read goes through, as its own section: the index has its own partitions
 * (its key's ceiling is theirs), and writes to the table feed it.
 */
function indexLines(a: Access): string[] {
  if (!a.index) return [];
  const attr = a.partitionKey ? ` by ${code(a.partitionKey.attribute)}` : '';
  // A write that sets the index's key (an update's SET, a put's attribute) reads nothing
  // through the index: DynamoDB copies it into the index's partitions.
  if (a.kind === 'write')
    return [
      `**Index** ${code(a.index)}: this ${a.operation} sets the index's key${attr}, so DynamoDB also writes the ` +
        `item to that key's partition of the index. Each index key has the same ${n(WCU_PER_KEY)} WCU/s ceiling, ` +
        `and a hot index key throttles the table writes that feed it.`,
    ];
  return [
    `**Index** ${code(a.index)}: this ${a.operation} reads the index's partitions${attr}, not the table's. ` +
      `Each index key has the same ${n(RCU_PER_KEY)} RCU/s ceiling, and every write to the table that sets the ` +
      `index's key is written to it too: a hot index key throttles those writes as well.`,
  ];
}

/** `= \`X\``, `begins_with \`PLAYER#\``, `BETWEEN \`a\` AND \`b\``: a sort-key condition's right-hand side. */
function condition(a: Access): string | null {
  const c = a.sortCondition;
  if (!c) return a.sortKey ? `= ${code(render(a.sortKey.template))}` : null;
  if (c.operands.length === 0) return null;
  const operands = c.operands.map((o) => code(render(o.template)));
  // The operator is one of the engine's own (KeyOperator), not text from the code.
  return c.operator === 'BETWEEN' ? `BETWEEN ${operands.join(' AND ')}` : `${c.operator} ${operands.join(', ')}`;
}

/** A call through a wrapper: the DynamoDB call it makes, which the key is put into. */
function throughLine(file: string, span: Span, callee: string, place: PlaceName): string {
  return `Through a wrapper: the key goes into ${code(callee)} at ${text(place(file))}:${span.startLine + 1}`;
}

/**
 * How the call is reached (docs/entry-points.md): each entry point with its trigger and
 * where it is declared, and what that says of how often the call runs.
 */
function reachLines(reach: AccessReach | undefined, place: PlaceName, cold: ColdEntries | null): string[] {
  if (!reach) return [];
  if (reach.unreached)
    return ['Reached from no entry point: nothing names its function, and the project declares its entry points.'];
  if (!reach.entryPoints.length) return [];
  const shown = reach.entryPoints.slice(0, 5).map((e) => {
    const rate = e.ratePerHour !== null ? `, at most ${e.ratePerHour} an hour` : '';
    // The team's word on how often it runs (entryPoints.cold), beside what the code says.
    const marked = cold && isColdEntry(e, cold) ? `, cold in ${text(cold.source)}` : '';
    return `${text(e.kind)} ${code(e.trigger)} (${text(place(e.source.file))}:${e.source.span.startLine + 1}${rate}${marked})`;
  });
  const more = reach.entryPoints.length - shown.length;
  const lines = [`Entry points: ${shown.join(' · ')}${more > 0 ? ` and ${more} more` : ''}`];
  if (reach.oncePerBatch) lines.push('Runs once per batch: the consumer makes it outside the loop over its records.');
  return lines;
}

/** The declaration the key came through, the nearest the call: `GLOBAL_BOARD` (line 6). */
function declaredAs(pk: KeyValue, file: string, place: PlaceName): string | null {
  const d = pk.via[0];
  if (!d) return null;
  const where = d.file === file ? `line ${d.span.startLine + 1}` : `${text(place(d.file))}:${d.span.startLine + 1}`;
  return `Partition key from ${code(d.name)} (${where})`;
}

/**
 * Why the call was not understood and what would help, so a call without findings that
 * was not read is not mistaken for a safe one: `Not understood: key from a parameter no caller
 * in the workspace gives a value — pk from parameter userKey`. Null when it was understood.
 */
function notUnderstood(a: Access, reached: boolean): string[] {
  if (reached) return ['Its key comes from the callers of this function: each is checked where it passes the value.'];
  const why = whyUnresolved(a);
  if (!why) return [];
  const { label } = REASONS[why.reason];
  const help = why.help ?? REASONS[why.reason].help;
  const from = why.source === null ? '' : ` from ${why.parameter ? 'parameter ' : ''}${code(why.source)}`;
  const subject = why.subject.startsWith('the ') ? text(why.subject) : code(why.subject);
  // A key judged on an unknown table is understood but for its table.
  const heading = why.reason === 'table-unknown' ? 'Table not known' : 'Not understood';
  // The label and help are ShardLens's own words (markdown); only the code's values are escaped.
  return [`**${heading}:** ${label} — ${subject}${from}.`, help];
}

/**
 * Markdown for the hover over a key expression. Every value taken from the code (key
 * values, names, the file a constant is in, messages quoting them) goes through
 * `code` or `text` (./markdown): inert, whatever characters it holds. `live` is the
 * heat service's live line for the key (`Live (1h): #1 of 4 keys · ...`), shown after
 * the heading; its values come from AWS and go through `text` too. `reached`: callers in
 * other modules reach this call through a wrapper (`Workspace.reachedFromCallers`). `place`
 * names another file (`update-score/index.js`: unambiguous among the workspace's files).
 */
export function hoverMarkdown(
  a: Access,
  findings: Finding[],
  settings: ShardLensSettings,
  live: LiveHover | null = null,
  reached = false,
  place: PlaceName = (file) => path.basename(file),
  reach?: AccessReach,
): MarkupContent {
  const c = classifyAccess(a);
  const same = (b: Access) => b === a || (b.file === a.file && sameSpan(b.span, a.span));
  if (a.library?.library === 'tenant-route')
    return tenantRouteHoverMarkdown(
      a,
      findings.filter((f) => same(f.access) && settings.rules[f.rule] !== 'off'),
    );
  if (isKafkaAccess(a))
    return kafkaHoverMarkdown(
      a,
      c,
      findings.filter((f) => same(f.access) && settings.rules[f.rule] !== 'off'),
    );
  const pk = a.partitionKey;
  const name = tableShown(a.table);
  const table = a.index
    ? ` on index ${code(a.index)}${name ? ` of table ${code(name)}` : ''}`
    : name
      ? ` on table ${code(name)}`
      : '';
  // An ElectroDB call names its entity and access pattern first: `Board entity · byBoard · Query`.
  const model = a.library ? `${text(modelOf(a) ?? '')} · ` : '';
  const operation = `${model}${a.operation}`;
  const lines = [
    pk
      ? `**ShardLens** · ${operation} · ${code(pk.attribute)} = ${code(render(pk.template))}${table}`
      : `**ShardLens** · ${operation}${table}: the partition key could not be read.`,
  ];
  const sortKey = a.sortCondition?.attribute ?? a.sortKey?.attribute;
  const sortCondition = condition(a);
  if (sortKey && sortCondition) lines.push(`Sort key ${code(sortKey)} ${sortCondition}`);
  const via = pk && declaredAs(pk, a.file, place);
  if (via) lines.push(via);
  const fromEnv = tableFromEnv(a, settings.tables);
  if (fromEnv) lines.push(fromEnv);
  const injected = injectedLine(a, place);
  if (injected) lines.push(injected);
  if (a.through) lines.push(throughLine(a.through.file, a.through.span, a.call.callee, place));
  if (a.guessed)
    lines.push(
      `Read by the call's shape: ${code(a.call.callee)} looks like a DynamoDB helper whose code is not in the workspace`,
    );
  lines.push(...reachLines(reach ?? a.reach, place, settings.coldEntries ?? null));
  // The live line quotes table and index names from AWS: text, never markdown.
  if (live) lines.push('', `**${text(live.line.replace(/:.*$/s, ''))}**${text(live.line.replace(/^[^:]*/, ''))}`);
  const throttled = (live?.throttles ?? 0) > 0;
  // The index may hold another analysis of the same text: match the access by position (`same`).
  const mine = findings.filter((f) => same(f.access) && settings.rules[f.rule] !== 'off');
  // A tenant's id makes the key many-valued, but one tenant's traffic is not spread (SL022).
  const composite = mine.some((f) => f.rule === 'SL022') ? tenantComposite(a) : null;
  // Live throttles overrule what the code suggests: the key did not spread.
  const verdict =
    (throttled && THROTTLED_VERDICT[c]) || (composite && compositeVerdict(composite, a.kind)) || VERDICT[c];
  lines.push(
    '',
    verdict,
    ...notUnderstood(a, reached),
    '',
    ...ceilingLines(a, c, settings, throttled),
    ...indexLines(a),
  );
  const use = mine.find((f) => f.keyUse)?.keyUse;
  if (use) lines.push('', keyUseLine(use));
  // The rules that fired, each with its documentation, but not their messages: VS Code
  // shows the diagnostic's message in the same hover already, so it would read twice.
  const rules = [...new Map(mine.map((f) => [f.rule, f])).values()];
  if (rules.length) lines.push('', rules.map((f) => `**${f.rule}** [${f.category}](${docsUrl(f.rule)})`).join(' · '));
  return { kind: 'markdown', value: lines.join('\n\n').replace(/\n\n\n\n/g, '\n\n') };
}

/**
 * The verdict on a tenant's id plus few-valued parts: many keys over all tenants, a
 * handful per tenant, the largest tenant's most common value on one partition.
 */
function compositeVerdict(t: TenantComposite, kind: string): string {
  const few = t.few.map(code).join(', ');
  const cap = kind === 'read' ? `${n(RCU_PER_KEY)} RCU/s` : `${n(WCU_PER_KEY)} WCU/s`;
  return (
    `Tenant composite: one key per tenant (${code(t.tenant)}) and value of ${few}. Traffic spreads over ` +
    `tenants, not within one: the busiest tenant's most common value is one partition, at most ${cap}.`
  );
}

/** How the workspace uses the key: read-hot, write-hot or both, with the evidence and what follows from it. */
function keyUseLine(u: KeyUse): string {
  const evidence = text(useText(u));
  if (u.verdict === 'read')
    return `**Read-hot**${u.mostly ? ' (mostly read)' : ''}: ${evidence}. A write shard would make each read query every shard; a cache serves the reads from memory.`;
  if (u.verdict === 'both')
    return `**Read and write hot**: ${evidence}. A cache relieves the reads, not the writes; a write shard relieves the writes and makes each read query every shard.`;
  return `**Write-hot**: ${evidence}.`;
}

/**
 * The table a repository was constructed with: `Table from the construction at app.py:14`,
 * or the different tables its constructions pass.
 */
function injectedLine(a: Access, place: PlaceName): string | null {
  if (!a.injected?.length) return null;
  const at = a.injected.map((r) => code(`${place(r.file)}:${r.span.startLine + 1}`)).join(', ');
  const t = a.table;
  if (t.kind === 'unknown' && t.candidates)
    return `The constructions at ${at} pass different tables: ${t.candidates.map(code).join(', ')}`;
  if (t.kind === 'unknown') return `A construction at ${at} passes a table not read`;
  return `Table passed to the constructor at ${at}`;
}

/**
 * Where infrastructure code says the table of an environment variable is, or why it cannot
 * say (and then the table `shardlens.tables` maps it to, when it does).
 */
function tableFromEnv(a: Access, tables: Record<string, string>): string | null {
  const t = a.table;
  if (t.kind === 'env' && t.candidates)
    return `The functions that run this code set ${code(envReadShown(t.name))} to different tables: ${t.candidates.map(code).join(', ')}`;
  if (t.kind === 'unknown' || !t.fromEnv) return null;
  const where = path.relative(path.dirname(a.file), t.fromEnv.file).split(path.sep).join('/');
  const table = t.fromEnv.logicalId ? ` table ${code(t.fromEnv.logicalId)}` : '';
  if (t.kind === 'env') {
    // Keyed as the key listing names the table (`$TABLE_NAME`); resolveTable also takes the bare variable.
    const mapped = resolveTable(tableName(t)!, tables);
    return (
      `${code(envReadShown(t.name))} names the${table} of ${code(where)}, which states no \`TableName\`: ` +
      (mapped
        ? `the name is chosen at deploy time; \`shardlens.tables\` maps it to ${code(mapped)}`
        : `the name is chosen at deploy time, so live heat needs it mapped to a table of the account`)
    );
  }
  return `${code(t.fromEnv.variable)} is set to this table for the functions that run this code (${code(where)}${t.fromEnv.logicalId ? `, ${code(t.fromEnv.logicalId)}` : ''})`;
}

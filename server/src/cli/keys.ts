import type { JsonKeysReport, JsonMatchReport } from '../../../protocol/src/report';
import {
  type AccessSubject,
  describeShards,
  type Finding,
  keyLabel,
  type KeyEntry,
  type KeyMatch,
  render,
  subjectOf,
  type TableEntry,
  type WorkspaceIndex,
} from '../engine';
import { displayPath, keyUseJson, location } from './report';

/**
 * `shardlens keys`: the workspace's tables → indexes → logical keys → call sites, and
 * `--match`, which links concrete keys (as Contributor Insights reports them) to the
 * templates in the code. Shapes in docs/keys.md.
 */

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - s.length));

function keyHeader(k: KeyEntry): string {
  const sharded = k.key.shards ? `  (sharded: ${describeShards(k.key.shards)})` : '';
  return `${keyLabel(k.key)}${sharded}`;
}

/**
 * What a table's calls are, by the subject of its first call: a DynamoDB table (null), a
 * Kafka topic, or a tenant route. One table holds calls of one subject only: a topic's
 * or a route's name is no DynamoDB table's (`frontends/kafka/site.ts`).
 */
export function subjectOfTable(t: TableEntry): AccessSubject | null {
  const site = t.indexes[0]?.keys[0]?.sites[0];
  return site ? subjectOf(site.access) : null;
}

/** The topic a Kafka topic's entry names (its records' topic), or null for any other table. */
function topicOf(t: TableEntry): string | null {
  if (subjectOfTable(t) !== 'kafka') return null;
  return t.indexes[0].keys[0].sites[0].access.library?.entity ?? null;
}

/** Indented text: a table, its indexes, its keys, and one line per call site. */
export function formatKeysText(tables: TableEntry[]): string {
  const lines: string[] = [];
  let keys = 0;
  let sites = 0;
  for (const t of tables) {
    // A Kafka topic's records are listed like a table's items (SL020), but named as what they are.
    const topic = topicOf(t);
    lines.push(topic !== null ? `topic ${topic}` : t.table === null ? 'table unknown' : `table ${t.table}`);
    for (const ix of t.indexes) {
      const indent = ix.index === null ? '  ' : '    ';
      if (ix.index !== null) lines.push(`  index ${ix.index}`);
      for (const k of ix.keys) {
        keys++;
        lines.push(indent + keyHeader(k));
        const rows = k.sites.map((s) => {
          const where = `${displayPath(s.file)}:${s.span.startLine + 1}:${s.span.startColumn + 1}`;
          const operation = topic !== null ? 'send' : s.operation;
          return [s.kind, operation, render(s.template), where, s.findings.map((f) => f.rule).join(' ')];
        });
        const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c].length)));
        for (const r of rows) {
          sites++;
          lines.push(`${indent}  ${r.map((x, c) => (c < 4 ? pad(x, widths[c]) : x)).join('  ')}`.trimEnd());
        }
      }
    }
  }
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const topics = tables.filter((t) => subjectOfTable(t) === 'kafka').length;
  const where = topics
    ? `${plural(tables.length - topics, 'table')} and ${plural(topics, 'Kafka topic')}`
    : plural(tables.length, 'table');
  lines.push(`${lines.length ? '\n' : ''}${plural(keys, 'logical key')} on ${where}, ${plural(sites, 'call site')}.`);
  return lines.join('\n') + '\n';
}

/**
 * The keys report as JSON. `judge` gives each site's finding as it is shown: the language
 * server passes its live reports there, so a verdict live data decided says so.
 */
export function toJsonKeys(tables: TableEntry[], judge: (f: Finding) => Finding = (f) => f): JsonKeysReport {
  return {
    version: 1,
    tables: tables.map((t) => ({
      table: t.table,
      ...withLogicalIds(t),
      indexes: t.indexes.map((ix) => ({
        index: ix.index,
        keys: ix.keys.map((k) => ({
          logicalKey: k.key.id,
          table: k.key.table,
          index: k.key.index,
          attribute: k.key.attribute,
          ...(k.key.model ? { model: k.key.model } : {}),
          template: render(k.key.template),
          shards: k.key.shards ? { method: k.key.shards.method, values: k.key.shards.values } : null,
          sites: k.sites.map((s) => ({
            kind: s.kind,
            operation: s.operation,
            ...location(s.file, s.span),
            template: render(s.template),
            shards: s.shards?.values ?? null,
            findings: s.findings.map(judge).map((f) => ({
              rule: f.rule,
              severity: f.severity,
              message: f.message,
              ...(f.keyUse ? { keyUse: keyUseJson(f.keyUse) } : {}),
            })),
          })),
        })),
      })),
    })),
  };
}

/** The logical ids of the tables the environment variable of an env-named table is set to, when any. */
function withLogicalIds(t: TableEntry): { logicalIds?: string[] } {
  const ids = new Set<string>();
  for (const ix of t.indexes)
    for (const k of ix.keys)
      for (const s of k.sites) {
        const table = s.access.table;
        if (table.kind === 'env' && table.fromEnv?.logicalId) ids.add(table.fromEnv.logicalId);
      }
  return ids.size ? { logicalIds: [...ids].sort() } : {};
}

/** One line per concrete key: `KEY  logical key  shard N  (template)`, or `no template`. */
export function formatMatchText(keys: string[], index: WorkspaceIndex): string {
  const width = Math.max(...keys.map((k) => k.length));
  const lines: string[] = [];
  for (const k of keys) {
    const matches = index.match(k);
    if (matches.length === 0) lines.push(`${pad(k, width)}  no template`);
    for (const m of matches) lines.push(`${pad(k, width)}  ${describeMatch(m)}`);
  }
  return lines.join('\n') + '\n';
}

function describeMatch(m: KeyMatch): string {
  const shard = m.shard === null ? '' : `  shard ${m.shard}`;
  return `${keyLabel(m.key)}${shard}  (${m.templates.join(', ')})`;
}

export function toJsonMatches(keys: string[], index: WorkspaceIndex): JsonMatchReport {
  return {
    version: 1,
    matches: keys.map((key) => ({
      key,
      logicalKeys: index.match(key).map((m) => ({
        logicalKey: m.key.id,
        table: m.key.table,
        index: m.key.index,
        attribute: m.key.attribute,
        ...(m.key.model ? { model: m.key.model } : {}),
        shard: m.shard,
        templates: m.templates,
      })),
    })),
  };
}

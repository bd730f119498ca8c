import { escapeRegExp, type KeyMatch, type LogicalKey, render, type TableEntry } from '../engine';
import { addThrottles, addUnits, emptyOps, resolveByCode, sumOps, toKeyOps, type Op, type OpsSums } from './attribute';
import type { HeatReport, HeatSite, KeyHeat, LiveData, LiveKey, RuleReport, ShardBalance, ShardHeat } from './types';

/**
 * Links what Contributor Insights reported to the code: every live partition key goes
 * through the workspace's matcher to its logical key (and shard), and the figures are
 * summed per logical key. A live key no template matches is listed as unmatched: heat
 * from code ShardLens has not seen.
 */

/** What linking needs from the workspace; `WorkspaceIndex` is one. */
export interface KeySource {
  match(concrete: string): KeyMatch[];
  keys(): TableEntry[];
}

interface Figures {
  units: number;
  throttles: number;
  peak: number;
  /** The same by operation (attribute.ts). */
  ops: OpsSums;
}

/** Where an attribute sits in a report's Keys, read from its KeyLabels (the partition key first when absent). */
const position = (r: RuleReport, attribute: string | null, fallback: number) => {
  const i = attribute === null ? -1 : r.keyLabels.indexOf(attribute);
  return i >= 0 ? i : fallback;
};

/**
 * How well a logical key's table fits the live table: its own name best, then a name
 * read from an environment variable (which may hold it), then a call that does not say.
 * A literal name of another table does not fit at all.
 */
function tableFit(key: LogicalKey, table: string, aliases: readonly string[]): number {
  // `$SCORES_TABLE_NAME` mapped to this table by the user fits as its own name does.
  if (key.table === table || (key.table !== null && aliases.includes(key.table))) return 3;
  // `inventory-{$STAGE}` fits `inventory-prod`: the variables stand for any text.
  if (key.table?.includes('{$')) return deployedName(key.table).test(table) ? 3 : 0;
  if (key.table?.startsWith('$')) return 2;
  if (key.table === null) return 1;
  return 0;
}

function deployedName(template: string): RegExp {
  // `{$STAGE}` from code, `{$sls:stage}` / `{$AWS::StackName}` from templates.
  const parts = template.split(/\{\$[^{}]+\}/).map(escapeRegExp);
  return new RegExp(`^${parts.join('.+')}$`);
}

/**
 * The one logical key a live key is counted under, so shares add up: the best table
 * fit, then a sharded key's shard over a literal read of that shard (`K#3` is shard 3
 * of `K`, as the key listing files it), then the template that pins the most literal
 * text, then the id for a stable choice. An id hole matches any run, `#` included, so
 * `$app#orgid_o1#userid_u7` fits both `$app#orgid_{id}` and `$app#orgid_{id}#userid_{id}`
 * (one library service's entities share the prefix): the user's key is the one written.
 */
export function pickMatch(
  matches: KeyMatch[],
  table: string,
  index: string | null,
  attribute: string,
  aliases: readonly string[] = [],
): KeyMatch | null {
  let best: KeyMatch | null = null;
  let bestScore = -1;
  for (const m of matches) {
    const fit = tableFit(m.key, table, aliases);
    if (fit === 0 || m.key.index !== index || m.key.attribute !== attribute) continue;
    const score = fit * 2 + (m.shard !== null ? 1 : 0);
    const better =
      score > bestScore ||
      (score === bestScore &&
        best !== null &&
        (pinned(m.key) > pinned(best.key) || (pinned(m.key) === pinned(best.key) && m.key.id < best.key.id)));
    if (better) {
      best = m;
      bestScore = score;
    }
  }
  return best;
}

/** Whether a kind of call had any units or throttles on a live key. */
const seen = (o: OpsSums[Op | 'unknown']): boolean => o.units > 0 || o.throttles > 0;

/**
 * A template with no literal text (`{id}`, read from a loop variable or a parameter) fits
 * every live key. When the live key's traffic is all of one kind (all writes, say) and
 * no call of that template is of that kind, the code did not make it: a counter's old
 * item throttled by writes before a fix is not the summing reader's `get_item(Key={"id": k})`.
 * Such a key is listed as unmatched, heat from code ShardLens has not seen.
 */
function wildcardOfOtherCalls(key: LogicalKey, ops: OpsSums, sites: readonly HeatSite[]): boolean {
  if (pinned(key) > 0 || sites.length === 0) return false;
  if (seen(ops.unknown)) return false;
  const kinds = (['read', 'write'] as const).filter((k) => seen(ops[k]));
  return kinds.length === 1 && !sites.some((s) => s.kind === kinds[0]);
}

/**
 * The sharded key whose base a live key is (`visits` for `visits#{shard 0..9}`): the item
 * written before the key was sharded, which a counter's reader reads beside the shards
 * (`["visits"] + [f"visits#{s}" ...]`). Its reads are that key's, with no shard; writes on
 * it are not (no call writes it now: heat from before the fix, or from code not seen).
 */
function baseItemOf(
  concrete: string,
  ops: OpsSums,
  listed: Iterable<{ key: LogicalKey; sites: HeatSite[] }>,
  table: string,
  index: string | null,
  attribute: string,
  aliases: readonly string[],
): KeyMatch | null {
  if (seen(ops.write)) return null;
  for (const { key, sites } of listed) {
    // A sharded key's template is its text without the shard part (`visits`, shards 0..9).
    const text = key.template.parts.every((p) => 'literal' in p) ? render(key.template) : null;
    if (!key.shards || text === null || key.index !== index || key.attribute !== attribute) continue;
    if (tableFit(key, table, aliases) === 0 || !sites.some((s) => s.kind === 'read')) continue;
    if (concrete === text || concrete === text.replace(/[^A-Za-z0-9]+$/, ''))
      return { key, shard: null, templates: [render(key.template)] };
  }
  return null;
}

/** How much literal text a key's template fixes: the more, the fewer concrete keys it fits. */
const pinned = (key: LogicalKey): number =>
  key.template.parts.reduce((n, p) => n + ('literal' in p ? p.literal.length : 0), 0);

/** `aliases`: the code's names for this table (`$SCORES_TABLE_NAME` mapped to it). */
export function linkReport(live: LiveData, source: KeySource, aliases: readonly string[] = []): HeatReport {
  const indexInfo = live.index ? live.table.indexes.find((i) => i.name === live.index) : undefined;
  const pkAttr = indexInfo?.partitionKey ?? live.table.partitionKey;
  const skAttr = indexInfo ? indexInfo.sortKey : live.table.sortKey;
  const units = live.mode === 'ACCESSED_AND_THROTTLED_KEYS';
  const report = (kind: RuleReport['kind']) => live.reports.find((r) => r.kind === kind);

  // Live partition keys with their figures (PKC: units, PKT: throttle events).
  const figures = new Map<string, Figures>();
  const at = (k: string) => {
    let f = figures.get(k);
    if (!f) figures.set(k, (f = { units: 0, throttles: 0, peak: 0, ops: emptyOps() }));
    return f;
  };
  const pkc = report('PKC');
  for (const c of pkc?.contributors ?? []) {
    const f = at(c.keys[position(pkc!, pkAttr, 0)] ?? '');
    f.units += c.value;
    f.peak = Math.max(f.peak, c.peak);
    addUnits(f.ops, c, live.periods);
  }
  const pkt = report('PKT');
  for (const c of pkt?.contributors ?? []) {
    const f = at(c.keys[position(pkt!, pkAttr, 0)] ?? '');
    f.throttles += c.value;
    addThrottles(f.ops, c, live.periods);
  }

  // Items (partition + sort key) from SKC/SKT.
  const items = new Map<string, { key: string; sortKey: string; units: number; throttles: number }>();
  for (const kind of ['SKC', 'SKT'] as const) {
    const r = report(kind);
    for (const c of r?.contributors ?? []) {
      const key = c.keys[position(r!, pkAttr, 0)] ?? '';
      const sortKey = c.keys[position(r!, skAttr, 1)] ?? '';
      const id = JSON.stringify([key, sortKey]);
      let it = items.get(id);
      if (!it) items.set(id, (it = { key, sortKey, units: 0, throttles: 0 }));
      if (kind === 'SKC') it.units += c.value;
      else it.throttles += c.value;
    }
  }

  // Call sites and the shard set the key listing shows (the writers' set) per logical key.
  const listed = new Map<string, { key: LogicalKey; sites: HeatSite[] }>();
  for (const t of source.keys())
    for (const ix of t.indexes)
      for (const k of ix.keys)
        listed.set(k.key.id, {
          key: k.key,
          sites: k.sites.map((s) => ({ file: s.file, span: s.span, kind: s.kind, access: s.access })),
        });

  const toLive = (key: string, f: Figures): LiveKey => ({
    key,
    consumedUnits: units ? f.units : null,
    throttles: f.throttles,
    peakUnitsPerSecond: units ? f.peak / live.periodSeconds : null,
  });

  const groups = new Map<
    string,
    { key: LogicalKey; members: Array<{ live: LiveKey; shard: number | null; ops: OpsSums }> }
  >();
  const unmatched: LiveKey[] = [];
  for (const [concrete, f] of figures) {
    const picked = pickMatch(source.match(concrete), live.table.table, live.index, pkAttr, aliases);
    const m =
      picked && !wildcardOfOtherCalls(picked.key, f.ops, listed.get(picked.key.id)?.sites ?? [])
        ? picked
        : baseItemOf(concrete, f.ops, listed.values(), live.table.table, live.index, pkAttr, aliases);
    if (!m) {
      unmatched.push(toLive(concrete, f));
      continue;
    }
    let g = groups.get(m.key.id);
    if (!g) groups.set(m.key.id, (g = { key: listed.get(m.key.id)?.key ?? m.key, members: [] }));
    g.members.push({ live: toLive(concrete, f), shard: m.shard, ops: f.ops });
  }

  const totalUnits = units ? (pkc?.aggregateValue ?? 0) : null;
  const keys: KeyHeat[] = [...groups.values()].map((g) => {
    const consumed = units ? g.members.reduce((s, x) => s + (x.live.consumedUnits ?? 0), 0) : null;
    const shards = g.key.shards ? shardsOf(g.key, g.members, units) : null;
    const topKeys = g.members.map((x) => x.live).sort(byHeat);
    const liveIds = new Set(topKeys.map((k) => k.key));
    // The same key written under another table name of the code that is this table too
    // (`$SCORES_TABLE_NAME` mapped here, beside a literal `scores`): one physical key, so
    // its calls share the figures (the matcher picked one of the names for the live key).
    const same = [...listed.values()].filter(
      (x) =>
        x.key.id !== g.key.id &&
        tableFit(x.key, live.table.table, aliases) === 3 &&
        tableFit(g.key, live.table.table, aliases) === 3 &&
        x.key.index === g.key.index &&
        x.key.attribute === g.key.attribute &&
        render(x.key.template) === render(g.key.template),
    );
    const sites = [...(listed.get(g.key.id)?.sites ?? []), ...same.flatMap((x) => x.sites)];
    const ops = resolveByCode(sumOps(g.members.map((x) => x.ops)), new Set<Op>(sites.map((s) => s.kind)));
    return {
      key: g.key,
      aliases: same.map((x) => x.key.id),
      template: render(g.key.template),
      sites,
      rank: 0,
      consumedUnits: consumed,
      share: consumed === null || !totalUnits ? (consumed === null ? null : 0) : consumed / totalUnits,
      throttles: g.members.reduce((s, x) => s + x.live.throttles, 0),
      peakUnitsPerSecond: units ? Math.max(0, ...topKeys.map((k) => k.peakUnitsPerSecond ?? 0)) : null,
      operations: toKeyOps(ops, units, live.periodSeconds),
      shards,
      shardBalance: shards && units ? balanceOf(shards) : null,
      topKeys,
      topItems: [...items.values()]
        .filter(
          (it) =>
            liveIds.has(it.key) ||
            pickMatch(source.match(it.key), live.table.table, live.index, pkAttr, aliases)?.key.id === g.key.id,
        )
        .map((it) => ({
          key: it.key,
          sortKey: it.sortKey,
          consumedUnits: units ? it.units : null,
          throttles: it.throttles,
        }))
        .sort((a, b) => (b.consumedUnits ?? 0) - (a.consumedUnits ?? 0) || b.throttles - a.throttles),
    };
  });
  keys.sort((a, b) => byHeat(a, b) || a.key.id.localeCompare(b.key.id));
  keys.forEach((k, i) => (k.rank = i + 1));

  return {
    version: 1,
    table: live.table.table,
    index: live.index,
    window: live.window,
    startMs: live.startMs,
    endMs: live.endMs,
    periodSeconds: live.periodSeconds,
    mode: live.mode,
    billingMode: live.table.billingMode,
    totalUnits,
    keys,
    unmatched: unmatched.sort(byHeat),
    metrics: live.metrics,
    series: live.series,
    problems: live.problems,
  };
}

/** Most consumed units first (throttles when there are no units), then most throttles. */
function byHeat(
  a: { consumedUnits: number | null; throttles: number; key?: unknown },
  b: { consumedUnits: number | null; throttles: number; key?: unknown },
): number {
  const d = (b.consumedUnits ?? 0) - (a.consumedUnits ?? 0) || b.throttles - a.throttles;
  if (d !== 0) return d;
  return typeof a.key === 'string' && typeof b.key === 'string' ? a.key.localeCompare(b.key) : 0;
}

/** Every shard of the set (idle ones at 0), or the shards seen when the set's numbers are unknown. */
function shardsOf(
  key: LogicalKey,
  members: Array<{ live: LiveKey; shard: number | null }>,
  units: boolean,
): ShardHeat[] {
  const byShard = new Map<number, ShardHeat>();
  const idle = (shard: number): ShardHeat => ({ shard, consumedUnits: units ? 0 : null, throttles: 0 });
  for (const n of key.shards?.values ?? []) byShard.set(n, idle(n));
  for (const m of members) {
    if (m.shard === null) continue;
    let s = byShard.get(m.shard);
    if (!s) byShard.set(m.shard, (s = idle(m.shard)));
    if (s.consumedUnits !== null) s.consumedUnits += m.live.consumedUnits ?? 0;
    s.throttles += m.live.throttles;
  }
  return [...byShard.values()].sort((a, b) => a.shard - b.shard);
}

export function balanceOf(shards: ShardHeat[]): ShardBalance | null {
  if (shards.length === 0) return null;
  let top = shards[0];
  let sum = 0;
  for (const s of shards) {
    sum += s.consumedUnits ?? 0;
    if ((s.consumedUnits ?? 0) > (top.consumedUnits ?? 0)) top = s;
  }
  const mean = sum / shards.length;
  const max = top.consumedUnits ?? 0;
  return { maxShard: top.shard, max, mean, ratio: mean > 0 ? max / mean : 0 };
}

import type { Access, Classification, Declaration, Hole, KeyTemplate, Origin, ShardSet, TemplatePart } from '.';

export function literal(text: string, origin?: Origin): KeyTemplate {
  return { parts: [origin ? { literal: text, origin } : { literal: text }] };
}

export function hole(h: Hole, origin?: Origin): KeyTemplate {
  return { parts: [origin ? { hole: h, origin } : { hole: h }] };
}

/**
 * Joins templates. Adjacent literals merge only when neither says where it came
 * from: a literal from a constant and one written inline stay two parts, so each
 * keeps its origin (`render` and `literalText` join them anyway).
 */
export function concat(...templates: KeyTemplate[]): KeyTemplate {
  const parts: TemplatePart[] = [];
  for (const t of templates) {
    for (const p of t.parts) {
      const last = parts[parts.length - 1];
      if ('literal' in p && p.literal === '') continue;
      if ('literal' in p && last && 'literal' in last && !p.origin && !last.origin) {
        parts[parts.length - 1] = { literal: last.literal + p.literal };
      } else {
        parts.push(p);
      }
    }
  }
  return { parts };
}

/** The template as reached through a declaration: each part's origin notes it. */
export function through(t: KeyTemplate, d: Declaration): KeyTemplate {
  return {
    parts: t.parts.map((p) => (p.origin ? { ...p, origin: { ...p.origin, via: [d, ...p.origin.via] } } : p)),
  };
}

/** Neighbouring literals joined, for display; each joined part keeps the first part's origin. */
export function displayParts(t: KeyTemplate): TemplatePart[] {
  const out: TemplatePart[] = [];
  for (const p of t.parts) {
    const last = out[out.length - 1];
    if ('literal' in p && last && 'literal' in last)
      out[out.length - 1] = { ...last, literal: last.literal + p.literal };
    else out.push(p);
  }
  return out;
}

export function holes(t: KeyTemplate): Hole[] {
  return t.parts.flatMap((p) => ('hole' in p ? [p.hole] : []));
}

/** The literal text when the template has no holes, else null. */
export function literalText(t: KeyTemplate): string | null {
  if (t.parts.length === 1) return 'literal' in t.parts[0] ? t.parts[0].literal : null;
  return holes(t).length === 0 ? t.parts.map((p) => ('literal' in p ? p.literal : '')).join('') : null;
}

export function describeShards(s: ShardSet | undefined): string {
  const v = s?.values;
  if (!v || v.length === 0) return 'shard';
  const sorted = [...v].sort((a, b) => a - b);
  const contiguous = sorted.every((n, i) => i === 0 || n === sorted[i - 1] + 1);
  return contiguous && sorted.length > 2
    ? `shard ${sorted[0]}..${sorted[sorted.length - 1]}`
    : `shard ${sorted.join(',')}`;
}

function describeHole(h: Hole): string {
  if (h.kind === 'shard') return describeShards(h.shards);
  // A fixed value whose text is not known here is named by what the code writes: `{Config.APP}`.
  if (h.kind === 'constant') return /^[\w.$]{1,40}$/.test(h.source) ? h.source : 'constant';
  if (h.kind === 'time') return h.time === 'instant' ? 'timestamp' : 'time';
  return h.kind;
}

/** `BOARD#global#{shard 0..9}`: literal text with each hole named by its class. */
export function render(t: KeyTemplate): string {
  return t.parts.map((p) => ('literal' in p ? p.literal : `{${describeHole(p.hole)}}`)).join('');
}

/** Literal tokens that stand for "the current day" in hand-written keys (`LOGS#TODAY`). */
const TODAY_TOKEN = /(^|[^A-Za-z])(TODAY|YESTERDAY|CURRENT_?DATE|CURRENT_?DAY|THIS_?HOUR|NOW)([^A-Za-z]|$)/;

export function hasTodayToken(t: KeyTemplate): boolean {
  return displayParts(t).some((p) => 'literal' in p && TODAY_TOKEN.test(p.literal));
}

/** The shard set of the key's shard part, if it has one. */
export function shardSetOf(t: KeyTemplate): ShardSet | null {
  const h = holes(t).find((x) => x.kind === 'shard');
  return h ? (h.shards ?? { method: 'random', values: null }) : null;
}

/**
 * How a partition key spreads traffic, from the classes of its holes. A shard part
 * wins; then any high-cardinality part; an unknown part makes the whole unknown;
 * what is left is time-bucketed, low-cardinality or constant.
 */
export function classifyTemplate(t: KeyTemplate): Classification {
  // A random part chosen once per process spreads nothing: the key is what the rest makes it.
  const live = holes(t).filter((h) => !h.once);
  const kinds = new Set(live.map((h) => h.kind));
  if (kinds.has('shard')) return 'sharded';
  const hasInstant = live.some((h) => h.kind === 'time' && (h.time === 'instant' || h.input));
  if (kinds.has('entity-id') || kinds.has('random') || kinds.has('counter') || hasInstant) {
    return 'high-cardinality';
  }
  if (kinds.has('unknown')) return 'unknown';
  if (kinds.has('time') || hasTodayToken(t)) return 'time-bucket';
  if (kinds.has('low-cardinality')) return 'low-cardinality';
  return 'constant';
}

/**
 * An increment on one fixed item (a constant or low-cardinality partition key and no
 * varying sort key) is a counter item: every caller passes through it.
 */
export function classifyAccess(a: Access): Classification {
  if (!a.partitionKey) return 'unknown';
  const c = classifyTemplate(a.partitionKey.template);
  const oneItem = !a.sortKey || classifyTemplate(a.sortKey.template) === 'constant';
  if (a.increments && oneItem && (c === 'constant' || c === 'low-cardinality')) return 'counter';
  return c;
}

/** Shard numbers `start..start+count-1`. */
export function shardRange(start: number, count: number): number[] | null {
  if (!Number.isInteger(count) || count <= 0 || count > 100_000) return null;
  return Array.from({ length: count }, (_, i) => start + i);
}

import { type Access, formatUnits, logicalKeysOf } from '../engine';
import type { HeatReport, KeyHeat, OpHeat } from './types';
import { clockTime } from '../../../protocol/src/clock';

export { clockTime };

/**
 * What the editor and the CLI say about one key's live heat. The language server's
 * hover, code lens and diagnostics call these with the report the heat service
 * returned; nothing here fetches.
 */

const pct = (x: number) => (x > 0 && x < 0.01 ? '<1%' : `${Math.round(x * 100)}%`);
const plural = (n: number, w: string) => `${formatUnits(n)} ${w}${n === 1 ? '' : 's'}`;

/** `1h` or `1h on index byStatus`. */
export function windowText(report: HeatReport): string {
  return report.index ? `${report.window}, index ${report.index}` : report.window;
}

/** The key's entry in a report by logical key id (`leaderboard · PK = BOARD#global`), or null. */
export function heatForKey(report: HeatReport, logicalKeyId: string): KeyHeat | null {
  return report.keys.find((k) => k.key.id === logicalKeyId || k.aliases.includes(logicalKeyId)) ?? null;
}

/**
 * The entry for an access: its own logical key, else the sharded key it reads one
 * shard of (a read of `BOARD#global#3` is counted under `BOARD#global`).
 */
export function heatForAccess(report: HeatReport, access: Access): KeyHeat | null {
  for (const k of logicalKeysOf(access)) {
    const h = k && heatForKey(report, k.id);
    if (h) return h;
  }
  return null;
}

export type OpKind = 'read' | 'write';
const OPS_WORD: Record<OpKind, string> = { read: 'reads', write: 'writes' };

/** What one kind of call did to a key, and what the periods left open between reads and writes. */
export function opFigures(heat: KeyHeat, kind: OpKind): { own: OpHeat; open: OpHeat } {
  return { own: heat.operations[kind], open: heat.operations.unknown };
}

/** Throttle events a call of this kind may have met: its own, and those no period could attribute. */
export function throttlesFor(heat: KeyHeat, kind: OpKind): number {
  const { own, open } = opFigures(heat, kind);
  return own.throttles + open.throttles;
}

const ran = (o: OpHeat) => (o.consumedUnits ?? 0) > 0 || o.throttles > 0;
/**
 * Whether calls of a kind show live figures: they made some, or met throttles no period
 * could attribute. Units left open alone do not count: in a period with reads and writes
 * a bound leaves a few units open on every key, which would give every idle reader a lens.
 */
const shows = (own: OpHeat, open: OpHeat) => ran(own) || open.throttles > 0;

/** `98% of consumed units · 6,306 throttles`, for one operation's figures. */
function figures(report: HeatReport, o: OpHeat, unitsWord: string): string[] {
  const parts: string[] = [];
  const total = report.totalUnits;
  if (o.consumedUnits !== null && total) parts.push(`${pct(o.consumedUnits / total)} of ${unitsWord}`);
  parts.push(plural(o.throttles, 'throttle'));
  return parts;
}

/** `2 more throttles may be reads or writes` when some of the key's throttles are unattributed. */
function openPart(o: OpHeat): string[] {
  return o.throttles > 0 ? [`${plural(o.throttles, 'more throttle')} may be reads or writes`] : [];
}

/**
 * The hover's live line for a call of `kind` (a reader sees what reads did, a writer
 * what writes did): `Live (1h), writes: #1 of 4 keys · 62% of consumed units · 1,900 throttles`.
 * Without `kind`, the key's figures. For a key with no entry: it is not among the (at
 * most 25) contributors reported when the report was read — said with the time, since a
 * key the code took up after that (a fix that sharded it) has no entry until the next read.
 */
export function liveLine(report: HeatReport, heat: KeyHeat | null, kind: OpKind | null = null): string {
  const head = `Live (${windowText(report)})`;
  if (!heat) {
    return report.mode
      ? `${head}: not among the top contributors of table ${report.table} when read at ${clockTime(report.endMs)}.`
      : `${head}: no per-key data (Contributor Insights is off on table ${report.table}).`;
  }
  const rank = `#${heat.rank} of ${report.keys.length} ${report.keys.length === 1 ? 'key' : 'keys'}`;
  const balance = heat.shardBalance
    ? [
        heat.shardBalance.mean > 0
          ? `shards: max ${heat.shardBalance.ratio.toFixed(1)}× mean (shard ${heat.shardBalance.maxShard})`
          : 'shards: idle',
      ]
    : [];
  if (!kind) {
    const parts = [rank];
    if (heat.share !== null) parts.push(`${pct(heat.share)} of consumed units`);
    parts.push(plural(heat.throttles, 'throttle'));
    return `${head}: ${[...parts, ...balance].join(' · ')}`;
  }
  const { own, open } = opFigures(heat, kind);
  const other = heat.operations[kind === 'read' ? 'write' : 'read'];
  if (!shows(own, open)) {
    const theirs = ran(other)
      ? ` (its ${OPS_WORD[kind === 'read' ? 'write' : 'read']}: ${figures(report, other, 'consumed units').join(' · ')})`
      : '';
    return `${head}, ${OPS_WORD[kind]}: none attributed in the window${theirs}.`;
  }
  return `${head}, ${OPS_WORD[kind]}: ${[rank, ...figures(report, own, 'consumed units'), ...openPart(open), ...balance].join(' · ')}`;
}

/**
 * The code lens title for a call of `kind`: `writes: 41% of table traffic · 120 throttles (1h)`;
 * null when calls of that kind did nothing in the window (a reader that never ran gets no lens).
 */
export function codeLensTitle(report: HeatReport, heat: KeyHeat, kind: OpKind): string | null {
  const { own, open } = opFigures(heat, kind);
  if (!shows(own, open)) return null;
  const parts = [...figures(report, own, `${report.index ? 'index' : 'table'} traffic`), ...openPart(open)];
  return `${OPS_WORD[kind]}: ${parts.join(' · ')} (${report.window})`;
}

/**
 * The evidence sentence appended to a finding's message when live data backs it, from
 * what calls of the finding's kind did: ` Live (1h), writes: 1,900 throttle events, 62%
 * of table leaderboard's consumed units.` Empty when they did nothing in the window.
 */
export function evidenceText(report: HeatReport, heat: KeyHeat, kind: OpKind): string {
  const { own, open } = opFigures(heat, kind);
  if (!shows(own, open)) return '';
  const parts = [plural(own.throttles, 'throttle event')];
  if (own.consumedUnits !== null && report.totalUnits)
    parts.push(
      `${pct(own.consumedUnits / report.totalUnits)} of ${report.index ? `index ${report.index}` : `table ${report.table}`}'s consumed units`,
    );
  parts.push(...openPart(open));
  return ` Live (${report.window}), ${OPS_WORD[kind]}: ${parts.join(', ')}.`;
}

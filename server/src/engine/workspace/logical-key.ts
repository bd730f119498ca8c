import type { Access, Hole, KeyTemplate, TableRef } from '../model';

/**
 * A logical key groups the accesses of one item collection across files: the table
 * plus the partition-key template with its shard part removed, so
 * `BOARD#global#{shard 0..9}`, `BOARD#global#{shard 1..10}` and `BOARD#global` are
 * one logical key. Other holes keep their class: `{time}#{shard}` is `{time}`.
 */
const SEPARATORS = '#.:_-|/';

/** Each part as text, holes as `\u0001class\u0001` tokens; the shard hole as null. */
function tokens(t: KeyTemplate): Array<string | null> {
  return t.parts.map((p) =>
    'literal' in p ? p.literal : p.hole.kind === 'shard' ? null : `\u0001${holeClass(p.hole)}\u0001`,
  );
}

function holeClass(h: Hole): string {
  return h.kind === 'time' ? `time-${h.time ?? 'bucket'}` : h.kind;
}

export interface ShardShape {
  /** The key text before the shard part, without its separator (`BOARD#global`). */
  stem: string;
  /** The separator before the shard part (`#`), or '' when there is none. */
  separator: string;
  /** The text after the shard part. */
  suffix: string;
}

/** Splits a template around its shard part, or null when it has none. */
export function shardShape(t: KeyTemplate): ShardShape | null {
  const toks = tokens(t);
  const at = toks.indexOf(null);
  if (at < 0) return null;
  let before = toks.slice(0, at).join('');
  const suffix = toks
    .slice(at + 1)
    .map((x) => x ?? '')
    .join('');
  let separator = '';
  if (before.length > 0 && SEPARATORS.includes(before[before.length - 1])) {
    separator = before[before.length - 1];
    before = before.slice(0, -1);
  }
  return { stem: before, separator, suffix };
}

/** The template as comparable text (holes as class tokens, no shard part). */
export function keyText(t: KeyTemplate): string {
  const shape = shardShape(t);
  return shape ? shape.stem + shape.suffix : tokens(t).join('');
}

export function tableId(t: TableRef): string {
  return t.kind === 'unknown' ? '*' : `${t.kind}:${t.name}`;
}

/**
 * Whether a read's key names one shard of a sharded writer's key by a literal
 * suffix (`BOARD#global#3` against `BOARD#global#{shard}`); returns that shard.
 */
export function literalShardOf(read: KeyTemplate, writer: ShardShape): number | null {
  const text = tokens(read).join('');
  const head = writer.stem + writer.separator;
  if (!text.startsWith(head) || !text.endsWith(writer.suffix)) return null;
  const middle = text.slice(head.length, text.length - writer.suffix.length);
  return /^\d{1,6}$/.test(middle) ? Number(middle) : null;
}

/**
 * The logical keys an access belongs to: its key text without the shard part, and,
 * for a key ending in a literal number (`BOARD#global#3`), also the key without it,
 * so a read of one literal shard meets the sharded writers of the whole key.
 */
export function logicalKeysOf(a: Access): string[] {
  if (!a.partitionKey) return [];
  const t = a.partitionKey.template;
  const text = keyText(t);
  if (text === '\u0001unknown\u0001') return [];
  const m = shardShape(t) ? null : text.match(/^(.+)[#.:_\-|/]\d{1,6}$/);
  return m ? [text, m[1]] : [text];
}

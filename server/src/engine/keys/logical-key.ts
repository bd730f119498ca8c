import type { Access, KeyTemplate, LogicalKey, TemplatePart } from '../model';
import { render, shardSetOf } from '../model/template';
import { tableName } from './table';
import { escapeRegExp } from '../model/regexp';

/**
 * A logical key is one item collection as the code addresses it, whatever the shard:
 * the table, the index (a GSI/LSI read is its own key, `table/index`), the partition-key
 * attribute and the key template with its shard part removed. So
 * `BOARD#global#{shard 0..9}`, `BOARD#global#{shard 1..10}` and `BOARD#global` on one
 * table are one logical key; other holes keep their class (`{time}#{shard}` is `{time}`).
 *
 * Its display form, `id`, is also what the workspace groups call sites by:
 *
 *     leaderboard · PK = BOARD#global
 *     $EVENTS_TABLE/byCountry · country = {low-cardinality}
 *     ? · pk = K              (the call does not say which table)
 *
 * The shard part is left out of the id on purpose: writers of 0..9, readers of 1..10,
 * a bare read and a read of one literal shard must meet to be checked against each other.
 */

/** The characters that separate the pieces of a composite key (`BOARD#global`, `a:b`, `x_y`). */
export const SEPARATORS = '#.:_-|/';

/** Each part as display text (holes as `{class}`); the shard hole as null. */
function tokens(t: KeyTemplate): Array<string | null> {
  return t.parts.map((p) => ('literal' in p ? p.literal : p.hole.kind === 'shard' ? null : render({ parts: [p] })));
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
  let stem = toks.slice(0, at).join('');
  const suffix = toks
    .slice(at + 1)
    .map((x) => x ?? '')
    .join('');
  let separator = '';
  if (stem.length > 0 && SEPARATORS.includes(stem[stem.length - 1])) {
    separator = stem[stem.length - 1];
    stem = stem.slice(0, -1);
  }
  return { stem, separator, suffix };
}

/**
 * A label naming the shard just before it, with its separator (`#shard` of `$desk#shard_3`,
 * as ElectroDB writes a `shard` composite attribute): part of the shard, not of the key.
 */
const SHARD_LABEL = new RegExp(`[${SEPARATORS.replace(/[-\]\\]/g, '\\$&')}][A-Za-z]*shard[A-Za-z]*$`, 'i');

/** The template as comparable text: holes as `{class}`, no shard part (`BOARD#global`, `{time}`). */
export function keyText(t: KeyTemplate): string {
  // Templates are never changed in place (accesses are immutable): each is read once.
  let text = keyTexts.get(t);
  if (text === undefined) {
    const shape = shardShape(t);
    text = shape ? shape.stem.replace(SHARD_LABEL, '') + shape.suffix : tokens(t).join('');
    keyTexts.set(t, text);
  }
  return text;
}

const keyTexts = new WeakMap<KeyTemplate, string>();

/** Drops `n` characters from the end of the parts, keeping each part's origin. */
function trimEnd(parts: TemplatePart[], n: number): TemplatePart[] {
  const out = [...parts];
  while (n > 0 && out.length > 0) {
    const last = out[out.length - 1];
    if (!('literal' in last)) break;
    if (last.literal.length <= n) {
      n -= last.literal.length;
      out.pop();
    } else {
      out[out.length - 1] = { ...last, literal: last.literal.slice(0, last.literal.length - n) };
      n = 0;
    }
  }
  return out;
}

/** The template without its shard part and the separator before it. */
export function withoutShard(t: KeyTemplate): KeyTemplate {
  const at = t.parts.findIndex((p) => 'hole' in p && p.hole.kind === 'shard');
  if (at < 0) return t;
  const shape = shardShape(t)!;
  return { parts: [...trimEnd(t.parts.slice(0, at), shape.separator.length), ...t.parts.slice(at + 1)] };
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

/** The library model an access is declared in (`score entity · byBoard`): the pattern of the index it is on. */
export function modelOf(a: Access): string | undefined {
  const lib = a.library;
  if (!lib) return undefined;
  const pattern = (a.index && lib.byIndex?.[a.index]) || lib.accessPattern;
  // PynamoDB, dynamoose: `Thread model` for the table, `Thread model · status_index` for an index.
  if (lib.library === 'pynamodb' || lib.library === 'dynamoose')
    return `${lib.entity} model${pattern ? ` · ${pattern}` : ''}`;
  if (lib.library === 'dynamodb-onetable') return `${lib.entity} model · ${pattern}`;
  // TypeDORM: `user entity · primary`, `user entity · GSI1`.
  return `${lib.entity}${lib.entity.endsWith(' collection') ? '' : ' entity'} · ${pattern}`;
}

/** The key as a person reads it: the library model it is declared in, when any, before its id. */
export function keyLabel(k: LogicalKey): string {
  return k.model ? `${k.model} · ${k.id}` : k.id;
}

/** `leaderboard`, `leaderboard/byStatus`, `?/byStatus`: the table part of an id. */
function where(table: string | null, index: string | null): string {
  return `${table ?? '?'}${index ? `/${index}` : ''}`;
}

/** Each key's family, computed with its id: the index asks for it once per access. */
const families = new WeakMap<LogicalKey, string>();

function family(index: string | null, attribute: string, text: string): string {
  return `${index ? `/${index} · ` : ''}${attribute} = ${text}`;
}

/**
 * A key that is nothing but its shard (a numeric counter id `str(random.randrange(N))`, or
 * `0 * N + shard` after a spread-counter fix) has no text left once the shard is taken out:
 * it reads as `{shard}` rather than as an empty key.
 */
const shown = (text: string) => (text === '' ? '{shard}' : text);

function make(a: Access, keyText: string, template: KeyTemplate, literalShard: boolean): LogicalKey {
  const text = shown(keyText);
  const table = tableName(a.table);
  const index = a.index ?? null;
  const attribute = a.partitionKey!.attribute;
  const key: LogicalKey = {
    table,
    index,
    attribute,
    template,
    shards: literalShard ? null : shardSetOf(a.partitionKey!.template),
    id: `${where(table, index)} · ${attribute} = ${text}`,
    ...(a.library ? { model: modelOf(a) } : {}),
  };
  families.set(key, family(index, attribute, text));
  return key;
}

const LITERAL_SHARD = new RegExp(`^(.+)[${SEPARATORS.replace(/[-\]\\]/g, '\\$&')}]\\d{1,6}$`);

/** The access's own logical key, or null when its partition key is unknown. */
export function logicalKeyOf(a: Access): LogicalKey | null {
  // Accesses are immutable and kept across edits: their keys are computed once.
  const known = ownKeys.get(a);
  if (known !== undefined) return known;
  const k = computeLogicalKey(a);
  ownKeys.set(a, k);
  return k;
}

const ownKeys = new WeakMap<Access, LogicalKey | null>();
const allKeys = new WeakMap<Access, LogicalKey[]>();

function computeLogicalKey(a: Access): LogicalKey | null {
  if (!a.partitionKey) return null;
  const t = a.partitionKey.template;
  const text = keyText(t);
  if (text === '{unknown}') return null;
  return make(a, text, withoutShard(t), false);
}

/**
 * The logical keys an access belongs to: its own, and, for a key ending in a literal
 * number (`BOARD#global#3`), also the key without it, so a read of one literal shard
 * meets the sharded writers of the whole key.
 */
export function logicalKeysOf(a: Access): LogicalKey[] {
  let keys = allKeys.get(a);
  if (!keys) allKeys.set(a, (keys = computeLogicalKeys(a)));
  return keys;
}

function computeLogicalKeys(a: Access): LogicalKey[] {
  const own = logicalKeyOf(a);
  if (!own) return [];
  if (own.shards) return [own];
  const text = keyText(a.partitionKey!.template);
  const m = text.match(LITERAL_SHARD);
  if (!m) return [own];
  const parent = make(a, m[1], { parts: trimEnd(a.partitionKey!.template.parts, text.length - m[1].length) }, true);
  return [own, parent];
}

/**
 * What the cross-file rules group by: the id without its table. A call whose table
 * is unknown may address any table, so the rules see every table's calls of one key
 * shape together and compare tables themselves (`sameTable`).
 */
export function familyOf(k: LogicalKey): string {
  return families.get(k) ?? family(k.index, k.attribute, shown(keyText(k.template)));
}

/** The pattern `valueFamiliesOf` matches a family's key text with: two keys with the same one take the same values. */
export function valuePatternOf(k: LogicalKey): string {
  const parts = k.template.parts.map((p) =>
    'literal' in p ? escapeRegExp(p.literal) : p.hole.kind === 'low-cardinality' ? '[^#:|/]+' : '.+',
  );
  return `^${parts.join('')}$`;
}

/**
 * The families of keys a low-cardinality key takes as literal values (`STATUS#{low-cardinality}`
 * is written as `STATUS#open` by the create path): one of its values each, so their reads and
 * writes load the same partitions as the key's own. Matched on the same index and attribute,
 * each low-cardinality hole as one run without a separator, any other hole as any text.
 */
export function valueFamiliesOf(k: LogicalKey, families: Iterable<string>): string[] {
  const head = family(k.index, k.attribute, '');
  const pattern = new RegExp(valuePatternOf(k));
  const out: string[] = [];
  for (const f of families) {
    if (!f.startsWith(head)) continue;
    const text = f.slice(head.length);
    if (!text.includes('{') && pattern.test(text)) out.push(f);
  }
  return out;
}

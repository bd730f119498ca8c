import type { Access, Span, WrittenRequest } from '../../engine';
import { offsetAt, textIn } from './apply';
import { enclosingFunction, nodeAt, withTree } from './syntax';
import { escapeRegExp } from '../../engine';

/**
 * A Query's own fields beyond its key — `FilterExpression`, `ProjectionExpression`,
 * `Select` and the aliases they use — kept by a reader of every shard: the call passes
 * them as the read wrote them, in one options object, and the reader sends them to every
 * shard. What cannot keep the read's meaning over several shards is refused, with the
 * reason (`blocked`), which the fix's refusal names.
 */

/** Fields sent to every shard as written. */
const PASSED = ['FilterExpression', 'ProjectionExpression', 'Select'];
/**
 * Legacy fields, which DynamoDB refuses beside the reader's `KeyConditionExpression`.
 * `AttributesToGet` is not among them: it is passed as the `ProjectionExpression` it means.
 */
const LEGACY = ['QueryFilter', 'ConditionalOperator'];

export interface ReaderOptions {
  /** The options object the call passes (`{ FilterExpression: ..., ExpressionAttributeValues: { ... } }`). */
  arg: string;
  /** The aliases it holds, which the reader's own (`#pk`, `:pk`) must not reuse. */
  aliases: string[];
}

export type OptionsPlan = ReaderOptions | { blocked: string } | null;

/** The read's options for its reader: null when it has none, `blocked` when a reader of every shard would change them. */
export function readerOptions(site: Access, text: string, python: boolean): OptionsPlan {
  const read = site.read;
  if (site.kind !== 'read' || !read) return null;
  const legacy = LEGACY.find((f) => read.shaping.includes(f));
  if (legacy)
    return { blocked: `it uses the legacy ${legacy}, which DynamoDB refuses beside a KeyConditionExpression` };
  const fields = PASSED.filter((f) => read.shaping.includes(f));
  const toGet = read.shaping.includes('AttributesToGet');
  if (read.limit !== null && paged(site, text))
    return {
      blocked: `its caller reads pages of Limit items with LastEvaluatedKey, and a read of every shard has no such pages`,
    };
  if (fields.length === 0 && !toGet) return null;
  const w = read.written;
  if (!w) return { blocked: 'its request is built where the reader cannot see it' };
  const projected = toGet ? projectionOf(w, text, python) : null;
  if (projected && 'blocked' in projected) return projected;
  if (read.limit !== null && fields.includes('FilterExpression'))
    return {
      blocked:
        'its Limit counts items before the filter, so the first items of each shard are not the first of the key',
    };
  const select = w.fields.Select?.literal;
  if (
    fields.includes('Select') &&
    read.limit !== null &&
    select !== 'ALL_ATTRIBUTES' &&
    select !== 'SPECIFIC_ATTRIBUTES'
  )
    return { blocked: `it asks for Select ${select ?? '(chosen at run time)'} with a Limit` };
  const scope = callerScope(site, text);
  const inScope = (s: Span | null): s is Span => !!s && scope(s);
  const entries: string[] = [];
  for (const f of fields) {
    const field = w.fields[f];
    if (!inScope(field.span)) return { blocked: `its ${f} is built where the call cannot see it` };
    entries.push(python ? `${JSON.stringify(f)}: ${textIn(text, field.span)}` : `${f}: ${textIn(text, field.span)}`);
  }
  if (projected) entries.push(projected.entry);
  // The aliases the filter and projection use; the key condition's own stay with it.
  const uses = fields.length ? aliasUser(w, fields) : () => false;
  if (!uses) return { blocked: 'its key condition is built at run time, so the aliases of its filter cannot be told' };
  const aliases: string[] = [];
  for (const map of ['ExpressionAttributeNames', 'ExpressionAttributeValues'] as const) {
    const list = map === 'ExpressionAttributeNames' ? w.names : w.values;
    if (list === null) return { blocked: `its ${map} is built at run time` };
    const kept = list.filter((e) => uses(e.alias));
    const added = map === 'ExpressionAttributeNames' && projected ? projected.names : [];
    if (kept.length === 0 && added.length === 0) continue;
    if (!kept.every((e) => inScope(e.pair))) return { blocked: `its ${map} is built where the call cannot see it` };
    aliases.push(...kept.map((e) => e.alias), ...added.map(([alias]) => alias));
    const pairs = [...kept.map((e) => textIn(text, e.pair!)), ...added.map(([, pair]) => pair)];
    let body = `{ ${pairs.join(', ')} }`;
    if (python) body = `{${body.slice(2, -2)}}`;
    // SDK v3's low-level client takes its values marshalled, as the read wrote them
    // (the engine reads `marshall({...})` as its argument, so the call is before the span).
    if (w.fields[map] && marshalled(text, w.fields[map].span)) body = `marshall(${body})`;
    entries.push(python ? `${JSON.stringify(map)}: ${body}` : `${map}: ${body}`);
  }
  const arg = python ? `{${entries.join(', ')}}` : `{ ${entries.join(', ')} }`;
  return { arg, aliases };
}

/**
 * `AttributesToGet: ['ticketId', 'title']` as the `ProjectionExpression` it means, one
 * alias per attribute (`'#ticketId, #title'`, `'#title': 'title'`): an alias keeps a name
 * that is a reserved word or holds a dot a top-level attribute, as AttributesToGet does.
 * The entry and the alias pairs are written in the read's own quotes.
 */
function projectionOf(
  w: WrittenRequest,
  text: string,
  python: boolean,
): { entry: string; names: Array<[string, string]> } | { blocked: string } {
  if (w.fields.ProjectionExpression) return { blocked: 'it asks for both AttributesToGet and a ProjectionExpression' };
  const list = textIn(text, w.fields.AttributesToGet.span).trim();
  const items = /^[[(]([\s\S]*)[\])]$/
    .exec(list)?.[1]
    .split(',')
    .map((x) => x.trim());
  if (items && items.at(-1) === '') items.pop();
  const strings = items?.map((x) => /^(['"])([^'"\\\n]*)\1$/.exec(x));
  if (!strings?.length || !strings.every(Boolean))
    return { blocked: 'its AttributesToGet is built where the reader cannot read the names' };
  const quote = strings[0]![1];
  const taken = new Set((w.names ?? []).map((e) => e.alias));
  const names: Array<[string, string]> = [];
  const aliases: string[] = [];
  for (const m of strings) {
    const attr = m![2];
    const base = `#${attr.replace(/\W/g, '_') || 'attr'}`;
    let alias = base;
    for (let i = 2; taken.has(alias); i++) alias = `${base}${i}`;
    taken.add(alias);
    aliases.push(alias);
    names.push([alias, `${quote}${alias}${quote}: ${quote}${attr}${quote}`]);
  }
  const projection = `${quote}${aliases.join(', ')}${quote}`;
  return { entry: python ? `"ProjectionExpression": ${projection}` : `ProjectionExpression: ${projection}`, names };
}

/**
 * Whether an alias belongs to the fields passed on: it appears in their literal text; or,
 * when one of them is built at run time, it is not the literal key condition's (the read
 * ran, so every alias it sends is used by one of the two). Null when neither can be told.
 */
function aliasUser(w: WrittenRequest, fields: string[]): ((alias: string) => boolean) | null {
  const texts = fields.map((f) => w.fields[f].literal);
  const appears = (alias: string, t: string) => new RegExp(`${escapeRegExp(alias)}(?![\\w])`).test(t);
  if (texts.every((t) => t !== null)) return (alias) => texts.some((t) => appears(alias, t!));
  const condition = w.fields.KeyConditionExpression;
  // A boto3 `Key(...)` condition names its attributes itself: every alias is the filter's.
  if (condition?.kind === 'condition') return () => true;
  if (condition?.literal == null) return null;
  return (alias) => !appears(alias, condition.literal!);
}

/** Whether a value is written as `marshall(<value>)`. */
function marshalled(text: string, span: Span): boolean {
  const start = offsetAt(text, span.startLine, span.startColumn);
  return /\bmarshall\s*\(\s*$/.test(text.slice(Math.max(0, start - 40), start));
}

/** Whether the function around the read pages with `LastEvaluatedKey` / `ExclusiveStartKey`. */
function paged(site: Access, text: string): boolean {
  if (site.read?.exclusiveStartKey || site.read?.paginator || site.paginated) return true;
  const body = withTree(site.file, text, (tree) => enclosingFunction(nodeAt(tree, site.span))?.text ?? null) ?? null;
  return body !== null && /LastEvaluatedKey/.test(body);
}

/** Whether a span is in the function that makes the call (or in the call), where the call's arguments are written. */
function callerScope(site: Access, text: string): (s: Span) => boolean {
  const fn = (s: Span) =>
    withTree(site.file, text, (tree) => enclosingFunction(nodeAt(tree, s))?.startIndex ?? -1) ?? -2;
  const home = fn(site.span);
  return (s) => fn(s) === home;
}

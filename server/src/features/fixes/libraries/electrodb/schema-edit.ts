import type { FixContext, TextChange } from '../../fix-model';
import type { Blocked } from '../../key-sites';
import type { EntityPlan } from './plan';
import { indentUnitOf, trailingCommaOf } from '../../reader-conventions';
import { projectLineWidth } from '../../line-width';
import { appendEntry, appendToString, quoteIn, textOf } from './text-edit';

/** How the shard is chosen: at random per item, or from an attribute every access gives. */
export type ShardKind = { kind: 'random' } | { kind: 'hash'; attribute: string };

/** The name of the shard attribute the fix adds to the entity. */
export const SHARD_ATTRIBUTE = 'shard';

/**
 * The `shard` attribute in ElectroDB's terms. A random shard is a `default` drawn per
 * item. A calculated one is a `set` of the watched attribute's hash; ElectroDB checks a
 * put's composite attributes before it runs setters, so the attribute also needs a
 * `default` to be present at all (electrodb 3.9.3: with `set` and `watch` alone a put
 * fails with "Missing properties: shard"); the setter then replaces it, and replaces a
 * shard a caller passes too, so no put can store an item under another shard than its hash.
 * `readOnly`: an update cannot move an item to another partition.
 */
export function shardAttribute(shard: ShardKind, count: string, quote: string): string[] {
  const q = (s: string) => `${quote}${s}${quote}`;
  const head = [`type: ${q('string')}`, 'required: true', 'readOnly: true'];
  if (shard.kind === 'random') return [...head, `default: () => String(Math.floor(Math.random() * ${count}))`];
  return [
    ...head,
    `default: () => ${q('')}`,
    `watch: [${q(shard.attribute)}]`,
    `set: (_, item) => String(shardlensHash(String(item.${shard.attribute})) % ${count})`,
  ];
}

/**
 * The attribute's entry as prettier prints it: on one line when it fits the project's width
 * (`projectLineWidth`), else one property a line one step deeper.
 */
function attributeEntry(props: string[], file: string, text: string): (indent: string) => string {
  return (indent) => {
    const line = `${SHARD_ATTRIBUTE}: { ${props.join(', ')} }`;
    if (!indent || indent.length + line.length + 1 <= projectLineWidth(file, text)) return line;
    const inner = indent + indentUnitOf(text, false);
    // The last property ends in a comma where the file's multi-line literals do (prettier's default).
    const trailing = trailingCommaOf(text);
    const lines = props.map((p, i) => `${inner}${p}${i < props.length - 1 ? ',' : trailing}`);
    return `${SHARD_ATTRIBUTE}: {\n${lines.join('\n')}\n${indent}}`;
  };
}

/**
 * The schema's edits: the attribute joins `attributes`, and the pattern's partition key
 * gets it as its last composite attribute (`composite: ['board', 'shard']`; a `template`
 * gains `#${shard}`, so `STREAM#${stream}` stores `STREAM#requests#3`).
 */
export function schemaChanges(
  ctx: FixContext,
  plan: EntityPlan,
  shard: ShardKind,
  count: string,
): TextChange[] | Blocked {
  const file = plan.edit.schemaFile;
  const text = ctx.textOf(file);
  const { attributes } = plan.edit;
  const { composite, template } = plan.sites;
  const cannot = { blocked: `the schema of ${plan.entity} is not written where the fix can edit it` };
  if (text === null || !attributes || (!composite && !template)) return cannot;
  if (new RegExp(`\\b${SHARD_ATTRIBUTE}\\s*:`).test(textOf(text, attributes)))
    return { blocked: `${plan.entity} already has an attribute named '${SHARD_ATTRIBUTE}'` };
  const quote = quoteIn(text, composite ?? attributes);
  const changes = [
    appendEntry(file, text, attributes, attributeEntry(shardAttribute(shard, count, quote), file, text)),
    composite ? appendEntry(file, text, composite, `${quote}${SHARD_ATTRIBUTE}${quote}`) : null,
    template ? appendToString(file, text, template, `#\${${SHARD_ATTRIBUTE}}`) : null,
  ];
  if (changes[0] === null || (composite && changes[1] === null) || (template && changes[2] === null)) return cannot;
  return changes.filter((c): c is TextChange => c !== null);
}

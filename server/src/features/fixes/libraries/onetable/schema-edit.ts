import type { Span } from '../../../../engine';
import type { TextChange } from '../../fix-model';
import type { ModelPlan } from './plan';
import type { ObjectSyntax } from './schema-syntax';

/**
 * The schema's side of a OneTable shard fix, in OneTable's own terms: the key's value
 * template gains the shard (`'board#${board}#${shard}'`) and the model a `shard` field that
 * fills it on every write. Random: `generate`, a function OneTable calls on each create
 * (hidden, so items read back as they were). Calculated: `value: true`, which OneTable
 * fills from the table's `value` callback on every call, computing the shard from the
 * attribute with the FNV-1a helper, so a get, update or remove finds the item its create
 * stored without any change at the call.
 */
export type Method = { kind: 'random' } | { kind: 'hash'; attribute: string };

export function templateChange(p: ModelPlan): TextChange {
  const s = p.template.span;
  // Before the closing quote.
  const at = { startLine: s.endLine, startColumn: s.endColumn - 1, endLine: s.endLine, endColumn: s.endColumn - 1 };
  return { file: p.fields.file, span: at, newText: `${p.d.separator || '#'}\${shard}` };
}

/**
 * The `shard` field, placed right after the key's field and written as the key's field is:
 * its `type` as the schema spells it (`String`, `'string'`), on one line or one property a
 * line, in the file's indentation step.
 */
export function shardFieldChange(p: ModelPlan, method: Method, count: string, step: string): TextChange {
  const type = p.key.props.get('type')?.text ?? 'String';
  const props =
    method.kind === 'random'
      ? [`type: ${type}`, `generate: () => String(Math.floor(Math.random() * ${count}))`, 'hidden: true']
      : [`type: ${type}`, 'value: true'];
  const indent = p.fields.indent;
  const multiline = p.key.value.span.endLine > p.key.value.span.startLine;
  const field = multiline
    ? `shard: {\n${props.map((x) => `${indent}${step}${x},`).join('\n')}\n${indent}},`
    : `shard: { ${props.join(', ')} },`;
  const why =
    method.kind === 'random'
      ? `// The write shard of the key, drawn per item: find every shard to read the key.`
      : `// The write shard of the key, from ${method.attribute} (the table's value callback).`;
  const next = p.fields.pairs[p.fields.pairs.indexOf(p.key) + 1];
  if (next) return insert(p.fields.file, next.span, `${why}\n${indent}${field}\n${indent}`);
  return afterLast(p.fields, `${why}\n${indent}${field}`);
}

/** The table's `value` callback: the shard of an item from its attribute, else the value the call gives. */
export function valueCallbackChange(
  p: ModelPlan,
  table: ObjectSyntax,
  attribute: string,
  count: string,
  step: string,
): TextChange {
  const i = table.indent;
  const text = [
    `// Computes the models' \`value: true\` fields: ${p.model}'s write shard, from ${attribute}.`,
    `${i}value: (model, field, properties) =>`,
    `${i}${step}field === 'shard' && properties.${attribute} !== undefined`,
    `${i}${step}${step}? String(shardlensHash(String(properties.${attribute})) % ${count})`,
    `${i}${step}${step}: properties[field],`,
  ].join('\n');
  return afterLast(table, text);
}

function insert(file: string, before: Span, text: string): TextChange {
  const at = {
    startLine: before.startLine,
    startColumn: before.startColumn,
    endLine: before.startLine,
    endColumn: before.startColumn,
  };
  return { file, span: at, newText: text };
}

/** A new last pair of an object literal. */
function afterLast(o: ObjectSyntax, text: string): TextChange {
  const e = o.end;
  const at = { startLine: e.endLine, startColumn: e.endColumn, endLine: e.endLine, endColumn: e.endColumn };
  return {
    file: o.file,
    span: at,
    newText: `${o.trailingComma ? '' : ','}\n${o.indent}${text}`,
  };
}

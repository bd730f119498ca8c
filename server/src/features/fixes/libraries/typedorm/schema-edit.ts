import type { Span } from '../../../../engine';
import type { TextChange } from '../../fix-model';
import type { EntitySyntax } from './entity-syntax';

/**
 * The entity's side of a TypeDORM shard fix, in TypeDORM's own terms: the key's template
 * gains the shard (`'BOARD#{{board}}#{{shard}}'`) and the class a `shard` attribute whose
 * `default` fills it on each create, before TypeDORM renders the key. Random: a shard drawn
 * per item. Calculated: TypeDORM calls a default function with the entity, so the shard is
 * computed from one of its attributes with the FNV-1a helper, and the calls that address an
 * item by its key give the same value.
 */
export type Method = { kind: 'random' } | { kind: 'hash'; attribute: string };

const point = (s: Span, line = s.endLine, column = s.endColumn): Span => ({
  startLine: line,
  startColumn: column,
  endLine: line,
  endColumn: column,
});

export function templateChange(e: EntitySyntax, separator: string): TextChange {
  const s = e.partition.span;
  // Before the closing quote.
  return { file: e.file, span: point(s, s.endLine, s.endColumn - 1), newText: `${separator || '#'}{{shard}}` };
}

/** The `shard` attribute, after the class's last member. */
export function shardFieldChange(
  e: EntitySyntax,
  method: Method,
  count: string,
  hashOf: (expression: string) => string,
): TextChange {
  const i = e.indent;
  const item = e.className.charAt(0).toLowerCase() + e.className.slice(1);
  const [why, value] =
    method.kind === 'random'
      ? ['drawn per item: every find reads all of them', `() => String(Math.floor(Math.random() * ${count}))`]
      : [
          `from ${method.attribute}: findOne, exists, update and delete give it too`,
          `(${item}: ${e.className}) => String(${hashOf(`${item}.${method.attribute}`)})`,
        ];
  return {
    file: e.file,
    span: point(e.end),
    newText: `\n\n${i}// The write shard of the key, ${why}.\n${i}@Attribute({ default: ${value} })\n${i}shard!: string;`,
  };
}

/** `Attribute` joins the file's import from @typedorm/common when it is not there; null when there is no such import. */
export function attributeImport(e: EntitySyntax): TextChange[] | null {
  if (!e.common) return null;
  if (e.common.names.includes('Attribute')) return [];
  return [{ file: e.file, span: point(e.common.last), newText: ', Attribute' }];
}

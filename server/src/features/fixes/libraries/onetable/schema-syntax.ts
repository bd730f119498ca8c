import type { Node } from 'web-tree-sitter';
import { type SourceRange, type Span, spanOf } from '../../../../engine';
import type { FixContext } from '../../fix-model';
import { nodeAt, withTree } from '../../syntax';

/**
 * A OneTable model's fields and a table's options as the fix edits them: the object
 * literals written in the schema (`Score: { pk: { type: String, value: 'board#${board}' }, ... }`)
 * and given to `new Table({ ... })`. Plain data: the spans and texts of the properties.
 */
export interface ObjectSyntax {
  file: string;
  /** Each `name: value` pair in order, with the value's own properties when it is an object. */
  pairs: PairSyntax[];
  /** Where a new pair goes: after the last one (its comma included), and the pairs' indentation. */
  end: Span;
  trailingComma: boolean;
  indent: string;
  /** A spread or a computed name: the object holds more than its pairs show. */
  open: boolean;
}

export interface PairSyntax {
  name: string;
  span: Span;
  /** The value's text and span. */
  value: { text: string; span: Span; type: string };
  /** The value's own `name: text` properties, when it is an object literal. */
  props: Map<string, { text: string; span: Span; type: string }>;
}

/** The object literal at `at`, or null when there is none there. */
export function objectAt(ctx: FixContext, at: SourceRange): ObjectSyntax | null {
  const text = ctx.textOf(at.file);
  if (text === null) return null;
  return withTree(at.file, text, (tree) => {
    let n: Node | null = nodeAt(tree, at.span);
    while (n && n.type !== 'object') n = n.parent;
    return n ? readObject(at.file, n, text) : null;
  });
}

/**
 * The fields object of model `model` in a schema written in `file` (`models: { Score: { ... } }`):
 * found by name, since an imported schema's values carry the positions of their use.
 */
export function modelObject(ctx: FixContext, file: string, model: string): ObjectSyntax | null {
  const text = ctx.textOf(file);
  if (text === null) return null;
  return withTree(file, text, (tree) => {
    for (const models of tree.rootNode.descendantsOfType('pair')) {
      if (models?.childForFieldName('key')?.text !== 'models') continue;
      const body = models.childForFieldName('value');
      const pair = body?.namedChildren.find(
        (c) => c?.type === 'pair' && c.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') === model,
      );
      const fields = pair?.childForFieldName('value');
      if (fields) return readObject(file, unwrap(fields), text);
    }
    return null;
  });
}

function readObject(file: string, n: Node, text: string): ObjectSyntax {
  const pairs: PairSyntax[] = [];
  let open = false;
  for (const c of n.namedChildren) {
    if (!c || c.type === 'comment') continue;
    if (c.type !== 'pair') {
      open ||= c.type !== 'shorthand_property_identifier';
      continue;
    }
    const k = c.childForFieldName('key');
    const v = c.childForFieldName('value');
    if (!k || !v || k.type === 'computed_property_name') {
      open = true;
      continue;
    }
    const name = k.type === 'string' ? k.text.slice(1, -1) : k.text;
    const props = new Map<string, { text: string; span: Span; type: string }>();
    const inner = unwrap(v);
    if (inner.type === 'object')
      for (const p of inner.namedChildren) {
        const pk = p?.type === 'pair' ? p.childForFieldName('key') : null;
        const pv = p?.type === 'pair' ? p.childForFieldName('value') : null;
        if (pk && pv)
          props.set(pk.text.replace(/^['"]|['"]$/g, ''), { text: pv.text, span: spanOf(pv), type: pv.type });
      }
    pairs.push({ name, span: spanOf(c), value: { text: v.text, span: spanOf(v), type: v.type }, props });
  }
  const last = [...n.children].reverse().find((c) => c && c.type !== '}' && c.type !== 'comment');
  const trailingComma = last?.type === ',';
  const lines = text.split('\n');
  const first = pairs[0]?.span.startLine ?? n.startPosition.row;
  const indent = /^\s*/.exec(lines[first] ?? '')?.[0] ?? '  ';
  return { file, pairs, end: last ? spanOf(last) : spanOf(n), trailingComma, indent, open };
}

/** `{ ... } as const`, `({ ... })`. */
function unwrap(n: Node): Node {
  let e = n;
  while (/^(as_expression|satisfies_expression|parenthesized_expression)$/.test(e.type) && e.namedChild(0))
    e = e.namedChild(0)!;
  return e;
}

/** A string literal's text without its quotes, or null for anything else (a template literal with `${}`, a name). */
export function stringText(v: { text: string; type: string }): string | null {
  if (v.type === 'string') return v.text.slice(1, -1);
  if (v.type === 'template_string' && !v.text.includes('${')) return v.text.slice(1, -1);
  return null;
}

/** How many schemas (`models: { ... }` objects) `file` declares. */
export function schemaCount(ctx: FixContext, file: string): number {
  const text = ctx.textOf(file);
  if (text === null) return 0;
  const count = withTree(
    file,
    text,
    (tree) =>
      tree.rootNode.descendantsOfType('pair').filter((p) => p?.childForFieldName('key')?.text === 'models').length,
  );
  return count ?? 0;
}

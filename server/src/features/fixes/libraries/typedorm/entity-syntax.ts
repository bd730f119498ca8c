import type { Node } from 'web-tree-sitter';
import { type SourceRange, type Span, spanOf } from '../../../../engine';
import type { FixContext } from '../../fix-model';
import { withTree } from '../../syntax';

/**
 * A TypeDORM entity as the fix edits it: the `@Entity({ primaryKey: { partitionKey:
 * 'BOARD#{{board}}', sortKey: ... } })` decorator's key templates and the decorated class's
 * fields. Plain data: names, texts and spans.
 */
export interface EntitySyntax {
  file: string;
  className: string;
  /** The partition template's string literal (quotes included) and its text. */
  partition: { text: string; span: Span };
  /** The sort template of the same key, null when it has none. */
  sort: string | null;
  /** The class's property names, and where a new field goes: after the last member. */
  fields: string[];
  end: Span;
  indent: string;
  /** The names the file imports from @typedorm/common, and the last of them (a name joins after it). */
  common: { names: string[]; last: Span } | null;
}

/** The entity whose key template is the `partitionKey` pair at `declaration`, or null when it is not written so. */
export function entityAt(ctx: FixContext, declaration: SourceRange): EntitySyntax | null {
  const text = ctx.textOf(declaration.file);
  if (text === null) return null;
  return withTree(declaration.file, text, (tree) => {
    const start = { row: declaration.span.startLine, column: declaration.span.startColumn };
    let pair: Node | null = tree.rootNode.namedDescendantForPosition(start, start);
    while (pair && !(pair.type === 'pair' && keyName(pair) === 'partitionKey')) pair = pair.parent;
    const value = pair?.childForFieldName('value');
    if (!pair || value?.type !== 'string') return null;
    const sortPair = pair.parent?.namedChildren.find((c) => c?.type === 'pair' && keyName(c) === 'sortKey');
    const sortValue = sortPair?.childForFieldName('value');
    const cls = classOf(pair);
    const body = cls?.childForFieldName('body');
    const name = cls?.childForFieldName('name')?.text;
    if (!cls || !body || !name) return null;
    const members = body.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
    const fields = members.flatMap((m) =>
      m.type === 'public_field_definition' ? [m.childForFieldName('name')?.text ?? ''] : [],
    );
    const last = members[members.length - 1];
    // After the member's `;`, a node of its own in the class body.
    const after = body.children.filter((c): c is Node => !!c && c.type !== '}' && c.type !== 'comment').pop();
    const lines = text.split('\n');
    const indent = /^\s*/.exec(lines[(last ?? body).startPosition.row] ?? '')?.[0] || '  ';
    return {
      file: declaration.file,
      className: name,
      partition: { text: value.text.slice(1, -1), span: spanOf(value) },
      sort: sortValue?.type === 'string' ? sortValue.text.slice(1, -1) : null,
      fields,
      end: after ? spanOf(after) : spanOf(body),
      indent,
      common: commonImport(tree.rootNode),
    };
  });
}

const keyName = (pair: Node) => pair.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');

/** The class an `@Entity(...)` decorator holding `n` is written on. */
function classOf(n: Node): Node | null {
  let d: Node | null = n;
  while (d && d.type !== 'decorator') d = d.parent;
  const holder = d?.parent;
  if (holder?.type === 'class_declaration' || holder?.type === 'class') return holder;
  // `@Entity(...) export class Score`: the decorator sits on the export statement.
  const declared = holder?.type === 'export_statement' ? holder.childForFieldName('declaration') : null;
  return declared?.type === 'class_declaration' ? declared : null;
}

function commonImport(root: Node): EntitySyntax['common'] {
  for (const i of root.namedChildren) {
    if (i?.type !== 'import_statement' || !/['"]@typedorm\/common['"]/.test(i.text)) continue;
    const specifiers = (i.descendantsOfType('named_imports')[0]?.namedChildren ?? []).filter(
      (s): s is Node => s?.type === 'import_specifier',
    );
    const last = specifiers[specifiers.length - 1];
    if (last) return { names: specifiers.map((s) => s.text), last: spanOf(last) };
  }
  return null;
}

/** `{{name}}` parts of a TypeDORM key template. */
export const templateVars = (template: string | null) =>
  [...(template ?? '').matchAll(/\{\{(.+?)\}\}/g)].map((m) => m[1].trim());

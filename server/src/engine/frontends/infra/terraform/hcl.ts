/**
 * A Terraform file as plain data: its blocks (type, labels, attributes, nested blocks)
 * and each attribute's expression read into a small value model. References
 * (`aws_lambda_function.vote.arn`, `var.stage`) stay references: the module reader
 * (module.ts) decides what they name.
 */
import type { Node } from 'web-tree-sitter';
import type { Span } from '../../../model';

export interface Block {
  type: string;
  labels: string[];
  attributes: Map<string, TfExpr>;
  blocks: Block[];
  span: Span;
}

/** An expression: literal text, a template with interpolations, a reference, a collection, or anything else. */
export type TfExpr =
  | { kind: 'literal'; text: string; span: Span }
  | { kind: 'template'; parts: Array<string | TfExpr>; span: Span }
  | { kind: 'ref'; path: string[]; span: Span }
  | { kind: 'object'; entries: Array<{ key: string; value: TfExpr }>; span: Span }
  | { kind: 'list'; items: TfExpr[]; span: Span }
  | { kind: 'opaque'; text: string; span: Span };

export const spanOf = (n: Node): Span => ({
  startLine: n.startPosition.row,
  startColumn: n.startPosition.column,
  endLine: n.endPosition.row,
  endColumn: n.endPosition.column,
});

/** The blocks of a file's `config_file` node. */
export function blocksOf(root: Node): Block[] {
  const body = root.namedChildren.find((c) => c?.type === 'body');
  return body ? bodyBlocks(body) : [];
}

function bodyBlocks(body: Node): Block[] {
  return body.namedChildren.flatMap((c) => (c?.type === 'block' ? [blockOf(c)] : []));
}

function blockOf(n: Node): Block {
  const kids = n.namedChildren.filter((c): c is Node => !!c);
  const type = kids[0]?.type === 'identifier' ? kids[0].text : '';
  const labels: string[] = [];
  for (const c of kids.slice(1)) {
    if (c.type === 'string_lit') labels.push(stringText(c));
    else if (c.type === 'identifier') labels.push(c.text);
  }
  const attributes = new Map<string, TfExpr>();
  let blocks: Block[] = [];
  const body = kids.find((c) => c.type === 'body');
  if (body) {
    for (const c of body.namedChildren) {
      if (c?.type !== 'attribute') continue;
      const name = c.namedChildren.find((k) => k?.type === 'identifier');
      const value = c.namedChildren.find((k) => k?.type === 'expression');
      if (name && value) attributes.set(name.text, exprOf(value));
    }
    blocks = bodyBlocks(body);
  }
  return { type, labels, attributes, blocks, span: spanOf(n) };
}

/** `"text"` without its quotes (a label, or a literal string). */
function stringText(n: Node): string {
  return n.namedChildren
    .filter((c) => c?.type === 'template_literal')
    .map((c) => c!.text)
    .join('');
}

/** An `expression` (or any node below one) read into the value model. */
export function exprOf(n: Node): TfExpr {
  const span = spanOf(n);
  const opaque: TfExpr = { kind: 'opaque', text: n.text, span };
  if (n.type === 'expression') {
    const kids = n.namedChildren.filter((c): c is Node => !!c);
    if (kids.length === 0) return opaque;
    const [head, ...rest] = kids;
    if (head.type === 'variable_expr') {
      const path = [head.text];
      for (const r of rest) {
        if (r.type !== 'get_attr') return opaque;
        const id = r.namedChildren.find((c) => c?.type === 'identifier');
        if (!id) return opaque;
        path.push(id.text);
      }
      return { kind: 'ref', path, span };
    }
    if (rest.length) return opaque;
    return exprOf(head);
  }
  switch (n.type) {
    case 'literal_value': {
      const s = n.namedChildren[0];
      if (!s) return opaque;
      if (s.type === 'string_lit') return { kind: 'literal', text: stringText(s), span };
      if (s.type === 'numeric_lit' || s.type === 'bool_lit') return { kind: 'literal', text: s.text, span };
      return opaque;
    }
    case 'template_expr': {
      const q = n.namedChildren[0];
      if (q?.type !== 'quoted_template') return opaque;
      const parts: Array<string | TfExpr> = [];
      for (const c of q.namedChildren) {
        if (c?.type === 'template_literal') parts.push(c.text);
        else if (c?.type === 'template_interpolation') {
          const e = c.namedChildren.find((k) => k?.type === 'expression');
          parts.push(e ? exprOf(e) : { kind: 'opaque', text: c.text, span: spanOf(c) });
        } else if (c && !/^quoted_template_(start|end)$/.test(c.type))
          parts.push({ kind: 'opaque', text: c.text, span: spanOf(c) });
      }
      return { kind: 'template', parts, span };
    }
    case 'collection_value': {
      const c = n.namedChildren[0];
      if (c?.type === 'object') {
        const entries: Array<{ key: string; value: TfExpr }> = [];
        for (const e of c.namedChildren) {
          if (e?.type !== 'object_elem') continue;
          const k = e.childForFieldName('key');
          const v = e.childForFieldName('val');
          if (!k || !v) continue;
          const key = exprOf(k);
          // `{ TABLE = x }` writes its key as a bare name, read as a one-part reference.
          const name =
            key.kind === 'ref' && key.path.length === 1 ? key.path[0] : key.kind === 'literal' ? key.text : null;
          if (name !== null) entries.push({ key: name, value: exprOf(v) });
        }
        return { kind: 'object', entries, span };
      }
      if (c?.type === 'tuple')
        return {
          kind: 'list',
          items: c.namedChildren.flatMap((e) => (e?.type === 'expression' ? [exprOf(e)] : [])),
          span,
        };
      return opaque;
    }
    default:
      return opaque;
  }
}

/** The first syntax error or missing node of a tree, as a place and a description; null when none. */
export function firstError(root: Node): { span: Span; what: string } | null {
  if (!root.hasError) return null;
  const walk = (n: Node): { span: Span; what: string } | null => {
    if (n.isMissing) return { span: spanOf(n), what: `missing ${n.type}` };
    if (n.type === 'ERROR') return { span: spanOf(n), what: `unexpected "${n.text.slice(0, 40)}"` };
    for (const c of n.children) if (c && c.hasError) return walk(c) ?? null;
    return null;
  };
  return walk(root) ?? { span: spanOf(root), what: 'a syntax error' };
}

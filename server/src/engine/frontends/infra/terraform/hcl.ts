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

/** One step of a reference: an attribute (`.name`) or an index (`["orders"]`, `[count.index]`). */
export type Step = string | { index: TfExpr };

/**
 * An expression: literal text, a template with interpolations, a reference, a collection,
 * a function call (`toset([...])`), a `for` expression, text with deploy-time holes already
 * worked out (`hole`: a module argument, a key no instance fixes), or anything else.
 */
export type TfExpr =
  | { kind: 'literal'; text: string; span: Span }
  | { kind: 'template'; parts: Array<string | TfExpr>; span: Span }
  | { kind: 'ref'; path: Step[]; span: Span }
  | { kind: 'object'; entries: Array<{ key: string; value: TfExpr }>; span: Span }
  | { kind: 'list'; items: TfExpr[]; span: Span }
  | { kind: 'call'; name: string; args: TfExpr[]; text: string; span: Span }
  | {
      kind: 'for';
      /** The iterator names: `[value]` or `[key, value]`. */
      names: string[];
      collection: TfExpr;
      /** `{ for ... : key => value }`; null for a list (`[for ... : value]`). */
      key: TfExpr | null;
      value: TfExpr;
      text: string;
      span: Span;
    }
  | { kind: 'hole'; text: string; span: Span }
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
  const body = kids.find((c) => c.type === 'body');
  const attributes = body ? bodyAttributes(body) : new Map<string, TfExpr>();
  const blocks = body ? bodyBlocks(body) : [];
  return { type, labels, attributes, blocks, span: spanOf(n) };
}

/** The `name = value` lines of a file with no blocks (a `terraform.tfvars`). */
export function attributesOf(root: Node): Map<string, TfExpr> {
  const body = root.namedChildren.find((c) => c?.type === 'body');
  return body ? bodyAttributes(body) : new Map();
}

function bodyAttributes(body: Node): Map<string, TfExpr> {
  const attributes = new Map<string, TfExpr>();
  for (const c of body.namedChildren) {
    if (c?.type !== 'attribute') continue;
    const name = c.namedChildren.find((k) => k?.type === 'identifier');
    const value = c.namedChildren.find((k) => k?.type === 'expression');
    if (name && value) attributes.set(name.text, exprOf(value));
  }
  return attributes;
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
      const path: Step[] = [head.text];
      for (const r of rest) {
        const step = stepOf(r);
        if (step === null) return opaque;
        path.push(step);
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
            key.kind === 'ref' && key.path.length === 1 && typeof key.path[0] === 'string'
              ? key.path[0]
              : key.kind === 'literal'
                ? key.text
                : null;
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
    case 'function_call': {
      const name = n.namedChildren.find((c) => c?.type === 'identifier')?.text ?? '';
      const args = n.namedChildren.find((c) => c?.type === 'function_arguments');
      return {
        kind: 'call',
        name,
        args: (args?.namedChildren ?? []).flatMap((a) => (a?.type === 'expression' ? [exprOf(a)] : [])),
        text: n.text,
        span,
      };
    }
    case 'for_expr':
      return forOf(n.namedChildren[0], n.text, span) ?? opaque;
    default:
      return opaque;
  }
}

/** `.name`, `[expr]` or `.0` after a reference; null for a splat or anything else. */
function stepOf(r: Node): Step | null {
  if (r.type === 'get_attr') return r.namedChildren.find((c) => c?.type === 'identifier')?.text ?? null;
  if (r.type !== 'index') return null;
  const i = r.namedChildren[0];
  if (i?.type === 'legacy_index') {
    const digits = /\d+/.exec(i.text);
    return digits ? { index: { kind: 'literal', text: digits[0], span: spanOf(i) } } : null;
  }
  const e = i?.namedChildren.find((c) => c?.type === 'expression');
  return e ? { index: exprOf(e) } : null;
}

/** `{ for k, v in coll : k => v }` / `[for x in coll : x.name]`; null with an `if` filter (which items stay is not read). */
function forOf(f: Node | null, text: string, span: Span): TfExpr | null {
  if (!f || (f.type !== 'for_object_expr' && f.type !== 'for_tuple_expr')) return null;
  if (f.namedChildren.some((c) => c?.type === 'for_cond')) return null;
  const intro = f.namedChildren.find((c) => c?.type === 'for_intro');
  const names = (intro?.namedChildren ?? []).flatMap((c) => (c?.type === 'identifier' ? [c.text] : []));
  const collection = intro?.namedChildren.find((c) => c?.type === 'expression');
  const body = f.namedChildren.filter((c): c is Node => c?.type === 'expression');
  if (!collection || names.length === 0) return null;
  const object = f.type === 'for_object_expr';
  if (body.length !== (object ? 2 : 1)) return null;
  return {
    kind: 'for',
    names,
    collection: exprOf(collection),
    key: object ? exprOf(body[0]) : null,
    value: exprOf(body[object ? 1 : 0]),
    text,
    span,
  };
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

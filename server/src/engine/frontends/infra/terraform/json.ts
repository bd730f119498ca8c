/**
 * Terraform's JSON syntax (`*.tf.json`): the same blocks as HCL, written as nested
 * objects (`{ "resource": { "aws_dynamodb_table": { "orders": { ... } } } }`). A string
 * holding `${...}` is an HCL template, read with the Terraform grammar so references
 * come out as they do from `.tf` files. Which keys of a resource are nested blocks is
 * the provider's schema: the blocks the readers look at are listed here.
 */
import type { Span } from '../../../model';
import { parseTerraform } from '../../../syntax/parser';
import { parseTree, type TNode } from '../tree';
import { exprOf, type Block, type TfExpr } from './hcl';

/** Keys of a resource body that are nested blocks, not attributes. */
const BLOCKS = new Set([
  'attribute',
  'global_secondary_index',
  'local_secondary_index',
  'environment',
  'target',
  'dynamic',
  'content',
  'ttl',
  'point_in_time_recovery',
  'server_side_encryption',
  'replica',
  'lifecycle',
  'vpc_config',
  'dead_letter_config',
  'tracing_config',
  'timeouts',
]);

/** The top-level keys whose entries are named blocks, and how many labels they take. */
const LABELS: Record<string, number> = { resource: 2, data: 2, module: 1, variable: 1, output: 1, provider: 1 };

export function blocksOfJson(text: string): { blocks: Block[] } | { error: string; span: Span } {
  const { root, error } = parseTree(text);
  const nowhere = { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };
  if (error !== null || !root) return { error: `malformed JSON: ${error ?? 'empty document'}`, span: nowhere };
  if (root.kind !== 'map') return { error: 'malformed Terraform JSON: not an object', span: root.span };
  const blocks: Block[] = [];
  for (const { key, value } of root.entries) {
    if (key === 'locals') for (const body of bodies(value)) blocks.push(blockOf('locals', [], body));
    else if (LABELS[key]) named(key, LABELS[key], [], value, blocks);
  }
  return { blocks };
}

/** `{ "aws_dynamodb_table": { "orders": body } }`: labels down to the bodies. */
function named(type: string, depth: number, labels: string[], n: TNode, out: Block[]): void {
  if (depth === 0) {
    for (const body of bodies(n)) out.push(blockOf(type, labels, body));
    return;
  }
  if (n.kind !== 'map') return;
  for (const { key, value } of n.entries) named(type, depth - 1, [...labels, key], value, out);
}

/** A block body may be written once or as a list of bodies. */
const bodies = (n: TNode): TNode[] => (n.kind === 'seq' ? n.items : [n]).filter((b) => b.kind === 'map');

function blockOf(type: string, labels: string[], body: TNode): Block {
  const attributes = new Map<string, TfExpr>();
  const blocks: Block[] = [];
  if (body.kind === 'map')
    for (const { key, value } of body.entries) {
      if (key === 'dynamic' && value.kind === 'map')
        for (const d of value.entries) for (const b of bodies(d.value)) blocks.push(blockOf('dynamic', [d.key], b));
      else if (BLOCKS.has(key) && (value.kind === 'map' || value.kind === 'seq'))
        for (const b of bodies(value)) blocks.push(blockOf(key, [], b));
      else attributes.set(key, exprOfJson(value));
    }
  return { type, labels, attributes, blocks, span: body.span };
}

function exprOfJson(n: TNode): TfExpr {
  const span = n.span;
  if (n.kind === 'seq') return { kind: 'list', items: n.items.map(exprOfJson), span };
  if (n.kind === 'map')
    return { kind: 'object', entries: n.entries.map(({ key, value }) => ({ key, value: exprOfJson(value) })), span };
  if (n.value === null) return { kind: 'opaque', text: 'null', span };
  if (typeof n.value !== 'string' || !n.value.includes('${')) return { kind: 'literal', text: String(n.value), span };
  return templateOf(n.value, span);
}

/** A string with interpolations, read as the HCL template it is; placed at the JSON string. */
function templateOf(text: string, span: Span): TfExpr {
  const escaped = text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  const tree = parseTerraform(`x = "${escaped}"\n`);
  if (!tree) return { kind: 'opaque', text, span };
  try {
    if (tree.rootNode.hasError) return { kind: 'opaque', text, span };
    const body = tree.rootNode.namedChildren.find((c) => c?.type === 'body');
    const attr = body?.namedChildren.find((c) => c?.type === 'attribute');
    const expr = attr?.namedChildren.find((c) => c?.type === 'expression');
    return expr ? placed(exprOf(expr), span) : { kind: 'opaque', text, span };
  } finally {
    tree.delete();
  }
}

/** The expression with every part placed at `span` (the positions in the wrapper text mean nothing in the file). */
function placed(e: TfExpr, span: Span): TfExpr {
  const p = (x: TfExpr) => placed(x, span);
  switch (e.kind) {
    case 'template':
      return { ...e, span, parts: e.parts.map((x) => (typeof x === 'string' ? x : p(x))) };
    case 'ref':
      return { ...e, span, path: e.path.map((s) => (typeof s === 'string' ? s : { index: p(s.index) })) };
    case 'object':
      return { ...e, span, entries: e.entries.map(({ key, value }) => ({ key, value: p(value) })) };
    case 'list':
      return { ...e, span, items: e.items.map(p) };
    case 'call':
      return { ...e, span, args: e.args.map(p) };
    case 'for':
      return { ...e, span, collection: p(e.collection), key: e.key ? p(e.key) : null, value: p(e.value) };
    default:
      return { ...e, span };
  }
}

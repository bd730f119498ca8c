import type { Node, Tree } from 'web-tree-sitter';
import { languageForFile, parse, type SourceLanguage, type Span, spanOf } from '../../engine';

/**
 * The few syntax questions the fixes ask that the model does not answer: which
 * function a declaration lives in (a local `const key = ...` is evaluated on every
 * call, a module constant once), which attributes sit beside the key in the item,
 * and where a reader's loop bounds are. The last few texts' trees are kept (the
 * fixes of one file ask several questions of the same text: parsing a 3,000-line
 * file for each made the first code actions on it take 25-135 ms); a tree is freed
 * when it leaves the cache, so nothing a question returns may hold on to nodes.
 */
export function withTree<T>(file: string, text: string, use: (tree: Tree, language: SourceLanguage) => T): T | null {
  const language = languageForFile(file);
  if (!language) return null;
  // An open editor's tree of this very text: no parse, and never freed here.
  const open = openTrees?.(file, text);
  if (open) return use(open, language);
  let tree = recent.find((r) => r.language === language && r.text === text)?.tree;
  if (!tree) {
    try {
      tree = parse(language, text, 2000);
    } catch {
      return null;
    }
    recent.unshift({ text, language, tree });
    for (const old of recent.splice(KEPT)) old.tree.delete();
  }
  return use(tree, language);
}

const KEPT = 8;
const recent: Array<{ text: string; language: SourceLanguage; tree: Tree }> = [];

/** Where trees already parsed elsewhere come from (the language server's open documents). */
let openTrees: ((file: string, text: string) => Tree | null) | null = null;

/**
 * Lends `withTree` the trees of open documents: after an edit of a 3,000-line file,
 * parsing it again from scratch was most of a hover's or light bulb's time, while the
 * editor's own tree of that text had just been reparsed incrementally.
 */
export function borrowTrees(from: ((file: string, text: string) => Tree | null) | null): void {
  openTrees = from;
}

/**
 * The smallest named node covering the span, up to its last character. The end column
 * is of the end line: only a span on one line is kept from ending before it starts (an
 * empty span is its start), since a span over several lines often ends left of its start.
 */
export function nodeAt(tree: Tree, s: Span): Node | null {
  const last = s.endLine > s.startLine ? Math.max(0, s.endColumn - 1) : Math.max(s.startColumn, s.endColumn - 1);
  return tree.rootNode.namedDescendantForPosition(
    { row: s.startLine, column: s.startColumn },
    { row: s.endLine, column: last },
  );
}

const FUNCTION_TYPES = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'arrow_function',
  'method_definition',
  'generator_function_declaration',
  'function_definition',
  'lambda',
]);

/** The name a function is known by: its own, or the variable or property it is assigned to. */
export function functionNameOf(fn: Node | null): string | null {
  if (!fn) return null;
  const own = fn.childForFieldName('name')?.text;
  if (own) return own;
  const holder = fn.parent;
  if (holder?.type === 'variable_declarator') return holder.childForFieldName('name')?.text ?? null;
  if (holder?.type === 'pair') return holder.childForFieldName('key')?.text ?? null;
  return null;
}

/** The nearest function around a node, or null at module level. */
export function enclosingFunction(n: Node | null): Node | null {
  for (let p = n?.parent ?? null; p; p = p.parent) if (FUNCTION_TYPES.has(p.type)) return p;
  return null;
}

export { sameSpan, spanWithin as within } from '../../engine';

/** One attribute written beside the key in an item or key object. */
export interface ItemAttribute {
  name: string;
  /** The value expression as written (`playerId`, `input.player.id`, `self.player_id`). */
  expression: string;
  span: Span;
}

/** A read of a name or a property chain: evaluating it again gives the same value. */
const PURE_JS = new Set(['identifier', 'member_expression', 'shorthand_property_identifier', 'this']);
const PURE_PY = new Set(['identifier', 'attribute']);

/**
 * The other attributes of the object the key's `use` pair sits in (`{ PK: KEY, playerId,
 * score }`, a dict, `Item=dict(...)`), whose values are plain reads. A low-level
 * `{ S: x }` wrapper is looked through.
 */
export function siblingAttributes(tree: Tree, language: SourceLanguage, use: Span): ItemAttribute[] {
  let pair = nodeAt(tree, use);
  // `{ customerId, orderId }`: a shorthand property is a pair of its own.
  const isPair = (n: Node) =>
    n.type === 'pair' || n.type === 'keyword_argument' || n.type === 'shorthand_property_identifier';
  while (pair && !isPair(pair)) pair = pair.parent;
  const container = pair?.parent;
  if (!pair || !container) return [];
  return objectAttributes(container, language, pair.startIndex);
}

/** The attributes of an object, dict or argument list whose values are plain reads, but the one at `skip`. */
export function objectAttributes(
  container: Node,
  language: SourceLanguage,
  skip: number | null = null,
): ItemAttribute[] {
  const out: ItemAttribute[] = [];
  for (const c of container.namedChildren) {
    if (!c || c.startIndex === skip) continue;
    let name: string | null = null;
    let value: Node | null = null;
    if (c.type === 'shorthand_property_identifier') [name, value] = [c.text, c];
    else if (c.type === 'pair') {
      const k = c.childForFieldName('key');
      name = k ? k.text.replace(/^['"]|['"]$/g, '') : null;
      value = c.childForFieldName('value');
    } else if (c.type === 'keyword_argument') {
      name = c.childForFieldName('name')?.text ?? null;
      value = c.childForFieldName('value');
    }
    if (!name || !value) continue;
    value = unwrapTyped(value);
    const pure = language === 'python' ? PURE_PY : PURE_JS;
    if (!pure.has(value.type)) continue;
    out.push({ name, expression: value.text, span: spanOf(value) });
  }
  return out;
}

/** `{ S: x }` / `{"S": x}` → `x`. */
function unwrapTyped(v: Node): Node {
  if (v.type !== 'object' && v.type !== 'dictionary') return v;
  const pairs = v.namedChildren.filter((c): c is Node => !!c && c.type === 'pair');
  if (pairs.length !== 1) return v;
  const key = pairs[0].childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
  const value = pairs[0].childForFieldName('value');
  return key && /^(S|N)$/.test(key) && value ? value : v;
}

/** The end of the last import statement (zero-based line), or -1 when there is none. */
export function lastImportLine(imports: Array<{ span: Span }>): number {
  return imports.reduce((m, i) => Math.max(m, i.span.endLine), -1);
}

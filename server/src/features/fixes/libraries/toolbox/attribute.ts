import type { Node } from 'web-tree-sitter';
import { type Span, spanOf } from '../../../../engine';
import { withTree } from '../../syntax';
import type { FixContext } from '../../fix-model';
import type { Blocked } from '../../key-sites';
import { readOptionsAttribute, stringValue, type OptionsKeyAttribute } from './options-attribute';
import { lineOf } from '../../apply';

/**
 * The dynamodb-toolbox (v1/v2) attribute whose `.default('FEED#storefront')` makes an
 * entity's partition key one constant, read from the entity's schema as written:
 * `feed: string().key().savedAs('PK').default('FEED#storefront')`. The shard fixes
 * replace that one `.default(...)` call, so every put, get, update and delete of the
 * entity computes the sharded key the same way, through the library.
 */
export interface KeyAttribute {
  version: 1;
  file: string;
  /** The attribute's name in the schema (`feed`). */
  name: string;
  /** The `default('...')` step, from its name to its closing parenthesis. */
  defaultSpan: Span;
  /** The default's string, as the library gets it (before a `prefix` transform). */
  value: string;
  /** The other key attributes (`.key()` with no default or link): every key input of the entity gives them. */
  givenKeys: string[];
  /** The attribute's lines (the pair, its comma and line break), when it has lines of its own. */
  lines: Span | null;
  /** The attribute's builder before and after its `default(...)` step: `string().key().savedAs('PK').` and ``. */
  before: string;
  after: string;
  /** The end of the `item({...})` call the attribute is declared in, where an `.and(...)` goes. */
  itemEnd: Span;
  /** The indentation of the attribute's line. */
  indent: string;
}

interface Step {
  name: string;
  args: Node[];
  /** From the name to the end of the call. */
  span: Span;
}

/** The attribute declared at `declaration` (the pair `feed: string()...`), or why it cannot be sharded by its default. */
export function keyAttribute(
  ctx: FixContext,
  file: string,
  declaration: Span,
): KeyAttribute | OptionsKeyAttribute | Blocked {
  const text = ctx.textOf(file);
  const found = text ? withTree(file, text, (tree) => readAttribute(tree.rootNode, file, declaration)) : null;
  return found ?? { blocked: `the schema in ${file} cannot be read` };
}

function readAttribute(root: Node, file: string, declaration: Span): KeyAttribute | OptionsKeyAttribute | Blocked {
  let pair = root.namedDescendantForPosition(
    { row: declaration.startLine, column: declaration.startColumn },
    { row: declaration.endLine, column: Math.max(declaration.startColumn, declaration.endColumn - 1) },
  );
  while (pair && pair.type !== 'pair') pair = pair.parent;
  const value = pair?.childForFieldName('value');
  const name = pair?.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
  if (!pair || !value || !name || pair.parent?.type !== 'object')
    return { blocked: 'the key attribute is not written out' };
  // v0 declares an attribute as an options object, v1/v2 as a builder chain.
  if (value.type === 'object') return readOptionsAttribute(pair, name, file);
  const steps = stepsOf(value);
  if (steps.some((s) => s.name === 'transform' && /\bsuffix\s*\(/.test(s.args[0]?.text ?? '')))
    return { blocked: `the attribute ${name} has a suffix after its value` };
  const d = steps.find((s) => s.name === 'default');
  const literal = d?.args.length === 1 ? stringValue(d.args[0]) : null;
  if (!d || literal === null) return { blocked: `the attribute ${name} has no string default` };
  const givenKeys = pair.parent.namedChildren
    .filter((p): p is Node => !!p && p.type === 'pair' && !p.equals(pair))
    .filter((p) => {
      const names = stepsOf(p.childForFieldName('value')!).map((s) => s.name);
      return names.includes('key') && !names.some((n) => /^(default|keyDefault|const|link|keyLink)$/.test(n));
    })
    .map((p) => p.childForFieldName('key')!.text.replace(/^['"]|['"]$/g, ''));
  const item = pair.parent.parent?.type === 'arguments' ? pair.parent.parent.parent : null;
  if (item?.type !== 'call_expression') return { blocked: `the schema of ${name} is not an item({...}) call` };
  const end = spanOf(item);
  const v = value.text;
  const from = offsetIn(value, d.span);
  return {
    version: 1,
    file,
    name,
    defaultSpan: d.span,
    value: literal,
    givenKeys,
    lines: ownLines(pair),
    before: v.slice(0, from.start),
    after: v.slice(from.end),
    itemEnd: { startLine: end.endLine, startColumn: end.endColumn, endLine: end.endLine, endColumn: end.endColumn },
    indent: /^\s*/.exec(lineOf(pair.tree.rootNode.text, pair.startPosition.row))![0],
  };
}

/** Where a step's span falls in the value's text. */
function offsetIn(value: Node, s: Span): { start: number; end: number } {
  const lines = value.text.split('\n');
  const at = (line: number, column: number) => {
    const row = line - value.startPosition.row;
    const col = row === 0 ? column - value.startPosition.column : column;
    return lines.slice(0, row).reduce((n, l) => n + l.length + 1, 0) + col;
  };
  return { start: at(s.startLine, s.startColumn), end: at(s.endLine, s.endColumn) };
}

/** The pair's whole lines with its comma, when nothing else shares them. */
function ownLines(pair: Node): Span | null {
  const text = pair.tree.rootNode.text.split('\n');
  const next = pair.nextSibling;
  const last = next?.type === ',' ? next : pair;
  const head = text[pair.startPosition.row].slice(0, pair.startPosition.column);
  const tail = text[last.endPosition.row].slice(last.endPosition.column);
  if (head.trim() || tail.trim()) return null;
  return { startLine: pair.startPosition.row, startColumn: 0, endLine: last.endPosition.row + 1, endColumn: 0 };
}

/** `string().key().savedAs('PK')` as its steps, innermost first. */
function stepsOf(n: Node): Step[] {
  const steps: Step[] = [];
  for (let c: Node | null = n; c?.type === 'call_expression';) {
    const f = c.childForFieldName('function');
    if (f?.type !== 'member_expression') break;
    const property = f.childForFieldName('property')!;
    const args = (c.childForFieldName('arguments')?.namedChildren ?? []).filter(
      (a): a is Node => !!a && a.type !== 'comment',
    );
    const end = spanOf(c);
    const start = spanOf(property);
    steps.unshift({
      name: property.text,
      args,
      span: { ...end, startLine: start.startLine, startColumn: start.startColumn },
    });
    c = f.childForFieldName('object');
  }
  return steps;
}

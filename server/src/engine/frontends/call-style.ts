import type { Node } from 'web-tree-sitter';
import type { CallStyle } from '../model';
import { spanOf } from '../syntax/span';

/**
 * What generated code needs to know of the call it sits beside: the statement that
 * holds the call, that statement's indentation, and whether the enclosing function
 * is async. Both front-ends describe their calls with these.
 */

const FUNCTIONS = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'arrow_function',
  'method_definition',
  'generator_function_declaration',
  'generator_function',
  'function_definition',
  'lambda',
]);

/** Nodes that hold statements: a statement is a direct child of one of these. */
const BLOCKS = new Set(['program', 'statement_block', 'class_body', 'module', 'block', 'switch_body', 'switch_case']);

/** The statement that holds `n` (the call itself when it stands at the top of a block). */
export function statementOf(n: Node): Node {
  let s = n;
  for (let p = n.parent; p && !BLOCKS.has(p.type) && !FUNCTIONS.has(p.type); p = p.parent) s = p;
  return s;
}

/** Classes: their bodies' statements run per instance (JS fields) or hold methods, not load-time code. */
const CLASSES = new Set(['class_declaration', 'class', 'class_definition', 'class_body']);

/**
 * Whether `n` runs when its module loads: no function or class around it, however the code
 * is indented (a script's statements inside a top-level `if`, `try` or `for`, under a
 * `__main__` guard, or simply indented).
 */
export function runsAtLoad(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (FUNCTIONS.has(p.type) || CLASSES.has(p.type)) return false;
  return true;
}

/** Whether the nearest function around `n` is declared `async`. */
export function inAsyncFunction(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) {
    if (!FUNCTIONS.has(p.type)) continue;
    for (let i = 0; i < p.childCount; i++) {
      const c = p.child(i);
      if (c?.type === 'async') return true;
      if (c?.isNamed && c.type !== 'decorator') break;
    }
    return false;
  }
  return false;
}

/** The whitespace before the statement on its first line. */
export function indentOf(statement: Node, text: string): string {
  const lineStart = text.lastIndexOf('\n', statement.startIndex - 1) + 1;
  const lead = text.slice(lineStart, statement.startIndex);
  return /^[ \t]*$/.test(lead) ? lead : (/^[ \t]*/.exec(lead)?.[0] ?? '');
}

export function callStyle(
  n: Node,
  text: string,
  form: CallStyle['form'],
  callee: string,
  receiver: string | null,
): CallStyle {
  const statement = statementOf(n);
  return {
    receiver,
    form,
    callee,
    async: inAsyncFunction(n),
    statement: spanOf(statement),
    indent: indentOf(statement, text),
    atLoad: runsAtLoad(n),
  };
}

/**
 * What a JavaScript call calls, as its author wrote it. tsc and esbuild compile a call of an
 * imported function (`save(x)`) to `(0, db_1.save)(x)`, so that it runs without a `this`;
 * committed build output and bundled Lambda code are full of them.
 */
import type { Node } from 'web-tree-sitter';

/** `db_1.save` of `(0, db_1.save)(x)`, also behind `await`; else the call's `function`. */
export function plainCallee(call: Node): Node | null {
  const fn = call.childForFieldName('function');
  // tree-sitter reads `await (0, db_1.save)(x)` as a call of `await` whose result is called.
  if (fn?.type === 'call_expression' && fn.childForFieldName('function')?.text === 'await') {
    const args = fn.childForFieldName('arguments');
    return args && zeroThen(args.namedChildren) ? args.namedChild(1) : fn;
  }
  const inner = fn?.type === 'parenthesized_expression' ? fn.namedChild(0) : null;
  if (inner?.type === 'sequence_expression' && zeroThen(inner.namedChildren)) return inner.namedChild(1);
  return fn;
}

/** `0, f`: the two operands tsc writes. */
function zeroThen(operands: Array<Node | null>): boolean {
  return operands.length === 2 && operands[0]?.type === 'number' && operands[0].text === '0';
}

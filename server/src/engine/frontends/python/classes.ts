import type { Node } from 'web-tree-sitter';
import { onceUnless, unknownValue } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import type { Entry, Value } from '../../model/value';

const PROPERTY = /^(?:property|cached_property|functools\.cached_property|staticmethod|classmethod)$/;

/**
 * What `Keys.PK` (or `Attr.PK.value`) reads off a class another module declares: the
 * assignments of its body (`PK = "pk"`, enum members alike) and its properties that
 * take no argument (`@property def today_iso(self): return ...`), as an object.
 */
export function classValue(cls: Node, ctx: EvalContext): Value {
  const entries: Entry[] = [];
  for (const stmt of cls.childForFieldName('body')?.namedChildren ?? []) {
    if (!stmt) continue;
    if (stmt.type === 'expression_statement') {
      const a = stmt.namedChild(0);
      const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
      const right = a?.childForFieldName('right');
      // A class attribute is evaluated once, when the class is defined.
      if (left?.type === 'identifier' && right)
        entries.push([left.text, onceUnless(false, ctx.evaluate(right, ctx) ?? unknownValue(right)), spanOf(stmt)]);
    } else if (stmt.type === 'decorated_definition') {
      const fn = propertyFunction(stmt);
      const only = fn ? soleReturn(fn) : null;
      const name = fn?.childForFieldName('name')?.text;
      if (only && name) entries.push([name, ctx.evaluate(only, ctx) ?? unknownValue(only), spanOf(stmt)]);
    }
  }
  return { kind: 'object', entries, span: spanOf(cls) };
}

/** The function of `@property def x(self)` (and `@cached_property`, `@staticmethod`), else null. */
export function propertyFunction(decorated: Node): Node | null {
  const decorators = decorated.namedChildren.filter((c) => c?.type === 'decorator');
  if (!decorators.some((d) => PROPERTY.test(d!.text.slice(1).trim()))) return null;
  const fn = decorated.childForFieldName('definition');
  return fn?.type === 'function_definition' ? fn : null;
}

/** The expression a function returns when it has exactly one `return` of its own. */
export function soleReturn(fn: Node): Node | null {
  const own = (r: Node) => {
    for (let p = r.parent; p; p = p.parent)
      if (p.type === 'function_definition' || p.type === 'lambda') return p.equals(fn);
    return false;
  };
  const returns = (fn.childForFieldName('body')?.descendantsOfType('return_statement') ?? []).filter(
    (r): r is Node => !!r && own(r),
  );
  return returns.length === 1 ? returns[0].namedChild(0) : null;
}

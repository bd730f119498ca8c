/** `if x != "T":`, `a if x == "T" else b`, `if x == "T": return` as the Python checks of `literal-guards.ts`. */
import type { Node } from 'web-tree-sitter';
import type { LiteralGuardSyntax } from '../literal-guards';

const LEAVES = new Set(['return_statement', 'raise_statement', 'continue_statement', 'break_statement']);
const FUNCTIONS = new Set(['function_definition', 'lambda', 'class_definition']);

/** The conditions an `if` tested before reaching `c`, one of its `elif`/`else` clauses: all false. */
function earlierFailed(p: Node, c: Node): { condition: Node; holds: boolean }[] {
  const out: { condition: Node; holds: boolean }[] = [];
  const first = p.childForFieldName('condition');
  if (first) out.push({ condition: first, holds: false });
  for (const clause of p.childrenForFieldName('alternative')) {
    if (!clause || clause.id === c.id) break;
    const condition = clause.type === 'elif_clause' ? clause.childForFieldName('condition') : null;
    if (condition) out.push({ condition, holds: false });
  }
  return out;
}

export const PYTHON_LITERAL_GUARDS: LiteralGuardSyntax = {
  branches(p, c) {
    if (p.type === 'if_statement' || p.type === 'elif_clause') {
      const condition = p.childForFieldName('condition');
      if (!condition || condition.id === c.id) return [];
      if (p.childForFieldName('consequence')?.id === c.id) return [{ condition, holds: true }];
      if (p.type === 'if_statement' && p.childrenForFieldName('alternative').some((a) => a?.id === c.id))
        return earlierFailed(p, c);
      return [];
    }
    if (p.type === 'conditional_expression') {
      const [then, condition, otherwise] = [p.namedChild(0), p.namedChild(1), p.namedChild(2)];
      if (!condition) return [];
      if (then?.id === c.id) return [{ condition, holds: true }];
      if (otherwise?.id === c.id) return [{ condition, holds: false }];
    }
    return [];
  },
  comparison(condition) {
    if (condition.type !== 'comparison_operator' || condition.namedChildCount !== 2) return null;
    const op = condition.children.find((x) => x && !x.isNamed)?.type ?? '';
    const [left, right] = [condition.namedChild(0), condition.namedChild(1)];
    if (!left || !right) return null;
    if (op === '==') return { left, right, equal: true };
    return op === '!=' ? { left, right, equal: false } : null;
  },
  junction(condition) {
    if (condition.type !== 'boolean_operator') return null;
    const op = condition.childForFieldName('operator')?.type ?? '';
    const [left, right] = [condition.childForFieldName('left'), condition.childForFieldName('right')];
    if (!left || !right || (op !== 'and' && op !== 'or')) return null;
    return { and: op === 'and', left, right };
  },
  exitCondition(statement) {
    if (statement.type !== 'if_statement' || statement.childrenForFieldName('alternative').length > 0) return null;
    const last = statement.childForFieldName('consequence')?.namedChildren.at(-1);
    return last && LEAVES.has(last.type) ? statement.childForFieldName('condition') : null;
  },
  isBlock: (n) => n.type === 'block' || n.type === 'module',
  isFunction: (n) => FUNCTIONS.has(n.type),
};

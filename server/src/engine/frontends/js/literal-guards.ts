/** `if (x !== "T")`, `x === "T" ? … : …`, `if (x === "T") return;` as the JavaScript checks of `literal-guards.ts`. */
import type { Node } from 'web-tree-sitter';
import type { LiteralGuardSyntax } from '../literal-guards';
import { isFunction } from './scope';

const LEAVES = new Set(['return_statement', 'throw_statement', 'continue_statement', 'break_statement']);

function leaves(branch: Node | null): boolean {
  const last = branch?.type === 'statement_block' ? branch.namedChildren.at(-1) : branch;
  return !!last && LEAVES.has(last.type);
}

export const JS_LITERAL_GUARDS: LiteralGuardSyntax = {
  branches(p, c) {
    if (p.type !== 'if_statement' && p.type !== 'ternary_expression') return [];
    const condition = p.childForFieldName('condition');
    if (!condition || condition.id === c.id) return [];
    if (p.childForFieldName('consequence')?.id === c.id) return [{ condition, holds: true }];
    if (p.childForFieldName('alternative')?.id === c.id) return [{ condition, holds: false }];
    return [];
  },
  comparison(condition) {
    if (condition.type !== 'binary_expression') return null;
    const op = condition.childForFieldName('operator')?.type ?? '';
    const [left, right] = [condition.childForFieldName('left'), condition.childForFieldName('right')];
    if (!left || !right) return null;
    if (op === '===' || op === '==') return { left, right, equal: true };
    return op === '!==' || op === '!=' ? { left, right, equal: false } : null;
  },
  junction(condition) {
    if (condition.type !== 'binary_expression') return null;
    const op = condition.childForFieldName('operator')?.type ?? '';
    const [left, right] = [condition.childForFieldName('left'), condition.childForFieldName('right')];
    if (!left || !right || (op !== '&&' && op !== '||')) return null;
    return { and: op === '&&', left, right };
  },
  exitCondition(statement) {
    if (statement.type !== 'if_statement' || statement.childForFieldName('alternative')) return null;
    return leaves(statement.childForFieldName('consequence')) ? statement.childForFieldName('condition') : null;
  },
  isBlock: (n) => n.type === 'statement_block' || n.type === 'program' || n.type === 'switch_case',
  isFunction: (n) => isFunction(n),
};

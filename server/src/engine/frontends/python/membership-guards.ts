/** `name in LIST` / `name not in LIST` as the Python checks of `membership-guards.ts`. */
import type { MembershipSyntax } from '../membership-guards';

export const PYTHON_MEMBERSHIP: MembershipSyntax = {
  checked(condition, name) {
    if (condition.type !== 'comparison_operator' || condition.namedChildCount !== 2) return null;
    const [left, list] = [condition.namedChild(0), condition.namedChild(1)];
    const operator = condition.children.find((c) => c && !c.isNamed)?.type ?? '';
    if (left?.type !== 'identifier' || left.text !== name || !list) return null;
    if (operator === 'in') return { list, negated: false };
    return operator === 'not in' ? { list, negated: true } : null;
  },
  leaves(block) {
    const last = block.namedChildren.at(-1);
    return last?.type === 'raise_statement' || last?.type === 'return_statement';
  },
};

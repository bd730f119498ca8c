/** `!LIST.includes(name)`, `SET.has(name)` as the JavaScript checks of `membership-guards.ts`. */
import type { Node } from 'web-tree-sitter';
import type { MembershipSyntax } from '../membership-guards';

export const JS_MEMBERSHIP: MembershipSyntax = {
  checked(condition, name) {
    const negated = condition.type === 'unary_expression' && condition.child(0)?.text === '!';
    let call: Node | null = negated ? condition.childForFieldName('argument') : condition;
    while (call?.type === 'parenthesized_expression') call = call.namedChild(0);
    if (call?.type !== 'call_expression') return null;
    const callee = call.childForFieldName('function');
    const args = call.childForFieldName('arguments')?.namedChildren ?? [];
    if (callee?.type !== 'member_expression' || args.length !== 1) return null;
    if (!/^(includes|has)$/.test(callee.childForFieldName('property')?.text ?? '')) return null;
    const list = callee.childForFieldName('object');
    return list && args[0]?.type === 'identifier' && args[0].text === name ? { list, negated } : null;
  },
  leaves(branch) {
    const last = branch.type === 'statement_block' ? branch.namedChildren.at(-1) : branch;
    return last?.type === 'throw_statement' || last?.type === 'return_statement';
  },
};

/**
 * A range key condition written on the model's attribute: `Thread.subject == x`,
 * `<`, `<=`, `>`, `>=`, `Thread.subject.startswith(p)`, `Thread.subject.between(a, b)`.
 */
import type { Node } from 'web-tree-sitter';
import type { KeyOperator } from '../../model';
import type { EvalContext } from '../../model/eval-context';
import type { Value } from '../../model/value';
import type { RangeCondition } from './requests';
import type { AttributeSchema } from './schema';

const COMPARISONS: Record<string, KeyOperator> = { '==': '=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
const METHODS: Record<string, KeyOperator> = { startswith: 'begins_with', between: 'BETWEEN' };

export function rangeCondition(n: Node | null, range: AttributeSchema | null, ctx: EvalContext): RangeCondition | null {
  if (!n || !range) return null;
  const value = (x: Node | null): Value[] => {
    const v = x ? ctx.evaluate(x, ctx) : null;
    return v ? [v] : [];
  };
  if (n.type === 'comparison_operator') {
    const op = n.children.find((c) => c && !c.isNamed)?.text ?? '';
    const operator = COMPARISONS[op];
    return operator ? { operator, operands: value(n.namedChild(1)) } : null;
  }
  const fn = n.type === 'call' ? n.childForFieldName('function') : null;
  const operator = fn?.type === 'attribute' ? METHODS[fn.childForFieldName('attribute')?.text ?? ''] : undefined;
  if (!operator) return null;
  const args = (n.childForFieldName('arguments')?.namedChildren ?? []).filter((a) => a && a.type !== 'comment');
  return { operator, operands: args.slice(0, operator === 'BETWEEN' ? 2 : 1).flatMap((a) => value(a)) };
}

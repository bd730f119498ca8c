/**
 * A JavaScript call as the chain it is written in: `Cat.query("status").eq("OPEN").exec()`
 * is the root `Cat` and the steps `query(...)`, `eq(...)`, `exec()`. The libraries whose
 * requests are chains of method calls (dynamodb-toolbox, Dynamoose) read them with it.
 */
import type { Node } from 'web-tree-sitter';

export interface Step {
  name: string;
  args: Node[];
  node: Node;
}

export interface Chain {
  root: Node;
  steps: Step[];
}

/** The chain of calls a call ends (every step a method call), or null when its receiver is no chain of names. */
export function chainOf(call: Node): Chain | null {
  const steps: Step[] = [];
  let n: Node | null = call;
  for (let i = 0; n && i < 16; i++) {
    if (n.type === 'call_expression') {
      const f = n.childForFieldName('function');
      if (f?.type !== 'member_expression') break;
      steps.unshift({ name: f.childForFieldName('property')?.text ?? '', args: argsOf(n), node: n });
      n = f.childForFieldName('object');
    } else if (n.type === 'parenthesized_expression' || n.type === 'non_null_expression') n = n.namedChild(0);
    else break;
  }
  if (!n || steps.length === 0) return null;
  return { root: n, steps };
}

/** A call's argument nodes, comments left out. */
export function argsOf(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (a): a is Node => !!a && a.type !== 'comment',
  );
}

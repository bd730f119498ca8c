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

/**
 * `const q = Model.query("zone").eq("north"); ... q.limit(20).exec()`: the chain its root
 * variable was built by, continued with its own steps; null when the root is no such
 * variable. For a root that is no model: a variable holding a model is built by a call
 * too (`const Counter = dynamoose.model(...)`), so the model is looked for first.
 */
export function throughBuilder(chain: Chain): Chain | null {
  const before = chain.root.type === 'identifier' ? builderOf(chain.root) : null;
  const earlier = before ? chainOf(before) : null;
  return earlier ? { root: earlier.root, steps: [...earlier.steps, ...chain.steps] } : null;
}

/**
 * The call chain a `const` of an enclosing block holds, declared before `name` is used: a
 * builder kept between its steps. Only a chain of method calls, and only a `const`, so the
 * variable holds that one builder wherever it is read.
 */
function builderOf(name: Node): Node | null {
  for (let block = name.parent; block; block = block.parent) {
    if (block.type !== 'statement_block' && block.type !== 'program') continue;
    for (const stmt of block.namedChildren) {
      if (!stmt || stmt.startIndex >= name.startIndex) break;
      if (stmt.type !== 'lexical_declaration' || stmt.child(0)?.type !== 'const') continue;
      for (const d of stmt.namedChildren) {
        if (d?.type !== 'variable_declarator' || d.childForFieldName('name')?.text !== name.text) continue;
        const value = d.childForFieldName('value');
        const call = value?.type === 'await_expression' ? null : value;
        return call?.type === 'call_expression' && call.childForFieldName('function')?.type === 'member_expression'
          ? call
          : null;
      }
    }
  }
  return null;
}

/** A call's argument nodes, comments left out. */
export function argsOf(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (a): a is Node => !!a && a.type !== 'comment',
  );
}

/**
 * The class of an object a Python class keeps in a field: `self.repo = Repo()`, or
 * `self._repository = repository` from a parameter annotated with its class. The name is
 * the class as this file writes it, to be looked up in its imports.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import { attributeValueNode } from './class-members';

export function fieldClassName(member: Node, ctx: EvalContext): string | null {
  const made = attributeValueNode(member, ctx);
  const fn = made?.type === 'call' ? made.childForFieldName('function') : null;
  if (fn?.type === 'identifier') return fn.text;
  // `def __init__(self, repository: JobRepository): self._repository = repository`.
  return made?.type === 'identifier' ? annotatedParameter(made) : null;
}

/** The class a Python parameter is annotated with (`repository: JobRepository`), for the name `id` reads. */
function annotatedParameter(id: Node): string | null {
  let fn: Node | null = id.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  for (const p of fn?.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.type !== 'typed_parameter' && p?.type !== 'typed_default_parameter') continue;
    const name = p.type === 'typed_parameter' ? p.namedChild(0) : p.childForFieldName('name');
    const type = p.childForFieldName('type')?.namedChild(0) ?? p.childForFieldName('type');
    if (name?.text === id.text && type?.type === 'identifier') return type.text;
  }
  return null;
}

/**
 * The class of an object a Python class keeps in a field: `self.repo = Repo()`, or
 * `self._repository = repository` from a parameter annotated with its class. The name is
 * the class as this file writes it, to be looked up in its imports.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import { attributeValueNode } from './class-members';
import { parametersOf } from './scope';

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

/**
 * What `__init__` keeps of its parameters: `self._table = table_resource`, and a table
 * made from one (`self.table = boto3.resource("dynamodb").Table(table_name)`), by field.
 * Only assignments in `__init__` itself, not in functions nested in it.
 */
export function injectedFields(cls: Node): { init: string; fields: Map<string, string> } | null {
  const init = (cls.childForFieldName('body')?.namedChildren ?? [])
    .map((m) => (m?.type === 'decorated_definition' ? m.childForFieldName('definition') : m))
    .find((m) => m?.type === 'function_definition' && m.childForFieldName('name')?.text === '__init__');
  if (!init) return null;
  const params = new Set(parametersOf(init).map((p) => p.name));
  const fields = new Map<string, string>();
  for (const a of init.descendantsOfType('assignment')) {
    if (!a || enclosingDef(a)?.id !== init.id) continue;
    const left = a.childForFieldName('left');
    if (left?.type !== 'attribute' || left.childForFieldName('object')?.text !== 'self') continue;
    const field = left.childForFieldName('attribute')?.text;
    const param = parameterKept(a.childForFieldName('right'), params);
    if (field && param) fields.set(field, param);
  }
  return fields.size ? { init: '__init__', fields } : null;
}

/** `table` itself, or the name a `Table(table_name)` is made from: the parameter, or null. */
function parameterKept(right: Node | null, params: Set<string>): string | null {
  if (right?.type === 'identifier') return params.has(right.text) ? right.text : null;
  if (right?.type !== 'call') return null;
  const fn = right.childForFieldName('function');
  const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.text;
  const arg = right.childForFieldName('arguments')?.namedChildren.find((x) => x?.type !== 'comment');
  const value = arg?.type === 'keyword_argument' && arg.childForFieldName('name')?.text === 'TableName' ? null : arg;
  return name === 'Table' && value?.type === 'identifier' && params.has(value.text) ? value.text : null;
}

function enclosingDef(n: Node): Node | null {
  for (let p = n.parent; p; p = p.parent) if (p.type === 'function_definition') return p;
  return null;
}

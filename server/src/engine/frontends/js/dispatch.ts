/**
 * Wrappers that choose the DynamoDB operation by name: `const COMMANDS = { get:
 * GetCommand, put: PutCommand }; new COMMANDS[action](params)` (or `const C =
 * COMMANDS[action]; new C(params)`) in SDK v3, `dynamoDb[action](params).promise()` on a
 * v2 DocumentClient. The name comes from the caller (`call("put", params)`), so the
 * call site carries the choices and each caller's literal picks one
 * (`wrappers/callers.ts`).
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import type { Operation, SdkStyle } from '../../model';
import { resolve } from './scope';

export type Choices = Record<string, [Operation, SdkStyle]>;

/** What picks the operation: a literal name, or the caller's parameter. */
export type Picked = { kind: 'literal'; name: string } | { kind: 'param'; name: string };

/** `M[k]` as written or through a name bound to it: the map node and the key node. */
function subscriptOf(n: Node | null, ctx: EvalContext): { object: Node; index: Node } | null {
  if (n?.type === 'identifier') {
    const b = resolve(n, ctx);
    n = b?.kind === 'value' ? b.node : null;
  }
  if (n?.type !== 'subscript_expression') return null;
  const object = n.childForFieldName('object');
  const index = n.childForFieldName('index');
  return object && index ? { object, index } : null;
}

/** The literal or parameter a subscript's key is. */
function pickedBy(index: Node, ctx: EvalContext): Picked | null {
  if (index.type === 'string') return { kind: 'literal', name: index.text.slice(1, -1) };
  if (index.type !== 'identifier') return null;
  const b = resolve(index, ctx);
  if (b?.kind === 'param' && !b.path) return { kind: 'param', name: b.name };
  if (b?.kind === 'value' && b.node.type === 'string') return { kind: 'literal', name: b.node.text.slice(1, -1) };
  return null;
}

/**
 * `new COMMANDS[action](...)`: the command classes the map names, by key, when every
 * value it holds that is a command is one of `commands`.
 */
export function commandChoices(
  ctor: Node | null,
  ctx: EvalContext,
  commandOf: (name: string) => [Operation, SdkStyle] | null,
): { choices: Choices; picked: Picked } | null {
  const sub = subscriptOf(ctor, ctx);
  if (!sub) return null;
  let map: Node | null = sub.object;
  if (map.type === 'identifier') {
    const b = resolve(map, ctx);
    map = b?.kind === 'value' ? b.node : null;
  }
  if (map?.type !== 'object') return null;
  const choices: Choices = {};
  for (const c of map.namedChildren) {
    const key = c?.type === 'pair' ? c.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') : null;
    const value = c?.type === 'pair' ? c.childForFieldName('value')?.text : undefined;
    const command = value ? commandOf(value) : null;
    if (key && command) choices[key] = command;
  }
  const picked = pickedBy(sub.index, ctx);
  return picked && Object.keys(choices).length > 0 ? { choices, picked } : null;
}

/** `dynamoDb[action](params)` on a v2 DocumentClient (or low-level client): the method's name. */
export function methodChoice(fn: Node | null, ctx: EvalContext): { receiver: Node; picked: Picked } | null {
  if (fn?.type !== 'subscript_expression') return null;
  const receiver = fn.childForFieldName('object');
  const index = fn.childForFieldName('index');
  if (receiver?.type !== 'identifier' || !index) return null;
  const b = resolve(receiver, ctx);
  if (b?.kind !== 'value' || !/\bDynamoDB\b|DocumentClient/.test(b.node.text)) return null;
  const picked = pickedBy(index, ctx);
  return picked ? { receiver, picked } : null;
}

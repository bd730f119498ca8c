import type { Node } from 'web-tree-sitter';
import type { Blocked } from '../../key-sites';

/**
 * The query of every shard returns `{ Items, Count }`: the merged items, and how many. A
 * query's result read for anything else (`LastEvaluatedKey` to page on, `next`, `$metadata`,
 * `ScannedCount`), or handed on whole (returned, passed to a function, whose readers are not
 * known), would lose what it reads, so the fix is refused there with the reason.
 */
const KEPT = new Set(['Items', 'Count']);

/** Why the query `call` (at `at`) cannot be replaced by the merged reader, or null when its result is read for Items and Count only. */
export function resultUseBlock(call: Node, at: string): Blocked | null {
  const awaited = outer(call);
  if (awaited.parent?.type !== 'await_expression')
    return { blocked: `the result of the query at ${at} is not awaited where it is made` };
  const n = outer(awaited.parent);
  const p = n.parent;
  if (p?.type === 'member_expression' && p.childForFieldName('object')?.equals(n))
    return readOf(p.childForFieldName('property')?.text ?? '', at);
  if (p?.type === 'variable_declarator' && p.childForFieldName('value')?.equals(n)) {
    const name = p.childForFieldName('name');
    if (name?.type === 'object_pattern') return patternBlock(name, at);
    if (name?.type === 'identifier') return variableBlock(name, at);
  }
  return {
    blocked: `the result of the query at ${at} is used whole (returned or passed on), and the query of every shard returns only its Items and Count`,
  };
}

/** `n`, or the parentheses around it. */
function outer(n: Node): Node {
  let o = n;
  while (o.parent?.type === 'parenthesized_expression') o = o.parent;
  return o;
}

function readOf(property: string, at: string): Blocked | null {
  return KEPT.has(property)
    ? null
    : {
        blocked: `the query at ${at} reads ${property} from its result, which the query of every shard does not return`,
      };
}

/** `const { Items, LastEvaluatedKey } = await ...`. */
function patternBlock(pattern: Node, at: string): Blocked | null {
  for (const c of pattern.namedChildren) {
    if (!c) continue;
    const key =
      c.type === 'shorthand_property_identifier_pattern'
        ? c.text
        : c.type === 'pair_pattern'
          ? c.childForFieldName('key')?.text
          : c.type === 'object_assignment_pattern'
            ? c.childForFieldName('left')?.text
            : `...${c.text.replace(/^\.\.\./, '')}`;
    const blocked = readOf(key ?? c.text, at);
    if (blocked) return blocked;
  }
  return null;
}

/** `const result = await ...`: every later use of `result` reads `.Items` or `.Count`. */
function variableBlock(name: Node, at: string): Blocked | null {
  let scope: Node | null = name.parent;
  while (scope && scope.type !== 'statement_block' && scope.type !== 'program') scope = scope.parent;
  const uses = (scope?.descendantsOfType('identifier') ?? []).filter(
    (u): u is Node => !!u && u.text === name.text && !u.equals(name),
  );
  for (const u of uses) {
    const p = u.parent;
    if (p?.type !== 'member_expression' || !p.childForFieldName('object')?.equals(u))
      return {
        blocked: `the result of the query at ${at} is used whole as ${name.text}, and the query of every shard returns only its Items and Count`,
      };
    const blocked = readOf(p.childForFieldName('property')?.text ?? '', at);
    if (blocked) return blocked;
  }
  return null;
}

/**
 * What a TypeScript parameter's declared type says of its values: a union of literals
 * (`kind: 'invoice' | 'order'`), an enum (`kind: EntityKind`), or an alias of either
 * declared in the file (`type Channel = 'email' | 'sms'`) takes only a few values, whatever
 * the parameter is called. An enum imported from another module is known by its members,
 * each of which names its enum (`enumMembers` in classes.ts); an imported type alias is not
 * read: only values cross modules here.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import { parametersOf, resolve } from './scope';

/** Unions deeper than this are not unfolded: a type that deep is no short list of values. */
const MAX_DEPTH = 6;

/** Whether parameter `index` of `fn` is declared with a few-valued type. */
export function fewValuedParameter(fn: Node, index: number, ctx: EvalContext): boolean {
  const p = parametersOf(fn)[index];
  const annotation = p?.childForFieldName('type');
  const type = annotation?.namedChildren.find((c) => c !== null) ?? null;
  return type ? fewValuedType(type, ctx, 0) : false;
}

function fewValuedType(t: Node, ctx: EvalContext, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  switch (t.type) {
    case 'literal_type':
      return true;
    case 'parenthesized_type':
    case 'union_type':
      return t.namedChildren.every((c) => c !== null && (isNothing(c) || fewValuedType(c, ctx, depth + 1)));
    // `Status.Active` as a type: that one member.
    case 'nested_type_identifier':
      return true;
    case 'type_identifier':
      return namedFewValued(t, ctx, depth);
    default:
      return false;
  }
}

/** `undefined` and `null` in a union (`kind?: Kind`, `Kind | null`) add no value a key is written with. */
function isNothing(t: Node): boolean {
  return t.type === 'literal_type' && /^(undefined|null)$/.test(t.text);
}

/** A type named in the file (an enum, an alias of a union of literals) or an enum imported by that name. */
function namedFewValued(t: Node, ctx: EvalContext, depth: number): boolean {
  const alias = declaredAlias(t.tree.rootNode, t.text);
  if (alias) return fewValuedType(alias, ctx, depth + 1);
  const b = resolve(t, ctx);
  if (b?.kind === 'class') return b.node.type === 'enum_declaration';
  if (b?.kind !== 'import') return false;
  const v = ctx.lookups.imports?.(b.source, b.name);
  return (
    v?.kind === 'object' &&
    v.entries.length > 0 &&
    v.entries.every(([member, value]) => isMemberOf(value, b.name, member))
  );
}

function isMemberOf(v: { kind: string; via?: Array<{ name: string }> }, owner: string, member: string): boolean {
  return v.kind === 'scalar' && v.via?.[0]?.name === `${owner}.${member}`;
}

/** `type Channel = 'email' | 'sms'` at the top of the module (exported or not): its value. */
function declaredAlias(root: Node, name: string): Node | null {
  for (const c of root.namedChildren) {
    const d = c?.type === 'export_statement' ? c.childForFieldName('declaration') : c;
    if (d?.type === 'type_alias_declaration' && d.childForFieldName('name')?.text === name)
      return d.childForFieldName('value');
  }
  return null;
}

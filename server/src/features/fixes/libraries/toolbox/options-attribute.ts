import type { Node } from 'web-tree-sitter';
import { type Span, spanOf } from '../../../../engine';
import type { Blocked } from '../../key-sites';

/**
 * A dynamodb-toolbox v0 key attribute whose `default` is one constant, declared as an
 * options object in the entity's `attributes`:
 * `pk: { partitionKey: true, hidden: true, default: 'ANNOUNCEMENTS' }`. v0 merges the
 * entity's defaults into every put, get, update and delete before it builds the key, and
 * calls a function default with the item's attributes, so the shard fixes replace that
 * one `default` pair and every call computes the sharded key through the library.
 */
export interface OptionsKeyAttribute {
  version: 0;
  file: string;
  /** The attribute's name in `attributes` (`pk`). */
  name: string;
  /** The `default: '...'` pair. */
  defaultSpan: Span;
  /** The default's string, before the attribute's `prefix`. */
  value: string;
  /** The entity's other key attributes with no default (`postedAt: { sortKey: true }`): every key access gives them. */
  givenKeys: string[];
}

/** The attribute `pair` (`pk: { partitionKey: true, default: 'X' }`) of a v0 entity, or why its default cannot carry a shard. */
export function readOptionsAttribute(pair: Node, name: string, file: string): OptionsKeyAttribute | Blocked {
  const options = pair.childForFieldName('value')!;
  const d = propertyOf(options, 'default');
  const value = d?.childForFieldName('value');
  const literal = value ? stringValue(value) : null;
  if (!d || literal === null) return { blocked: `the attribute ${name} has no string default` };
  for (const o of ['suffix', 'dependsOn', 'transform', 'onUpdate'])
    if (propertyOf(options, o)) return { blocked: `the attribute ${name} has a ${o} besides its default` };
  const siblings = pair.parent!.namedChildren.filter((p): p is Node => !!p && p.type === 'pair' && !p.equals(pair));
  // A composite key (`status: ['pk', 0]`) is made of other attributes, not of the default.
  if (siblings.some((p) => p.childForFieldName('value')?.type === 'array'))
    return { blocked: `the entity has composite key attributes beside ${name}` };
  const givenKeys = siblings
    .filter((p) => {
      const o = p.childForFieldName('value');
      if (o?.type !== 'object' || propertyOf(o, 'default')) return false;
      return ['partitionKey', 'sortKey'].some((k) => propertyOf(o, k)?.childForFieldName('value')?.text === 'true');
    })
    .map((p) => unquoted(p.childForFieldName('key')!.text));
  return { version: 0, file, name, defaultSpan: spanOf(d), value: literal, givenKeys };
}

function propertyOf(o: Node, name: string): Node | null {
  for (const c of o.namedChildren)
    if (c?.type === 'pair' && unquoted(c.childForFieldName('key')?.text ?? '') === name) return c;
  return null;
}

const unquoted = (s: string) => s.replace(/^['"]|['"]$/g, '');

/** The text of a string literal or a template with no substitution and no escape (it goes into a template), else null. */
export function stringValue(n: Node): string | null {
  if (n.type !== 'string' && n.type !== 'template_string') return null;
  const inner = n.text.slice(1, -1);
  return /[\\`$]/.test(inner) ? null : inner;
}

/**
 * Whether the code looks a tenant up before it hashes it: `DEDICATED.get(tenantId)`,
 * `OVERRIDES[tenantId]`, `tenantId in PINNED`, `HOT_TENANTS.has(tenantId)`,
 * `if (tenantId === 'acme')`, `switch (tenantId)`, `isDedicated(tenantId)`. Any of these
 * in the routing function, written before the hash, is a way to send a hot tenant
 * elsewhere first; what the lookup returns is not judged.
 */
import type { Node } from 'web-tree-sitter';
import { walk } from '../../syntax/span';
import { textOf } from './hash';
import { inner, lastName, operatorOf, positional, words, type Shapes } from './syntax';

const LOOKUP_METHODS =
  /^(get|has|includes|contains|hasOwnProperty|__contains__|getOrDefault|find|lookup|get_or_default|setdefault)$/;
const OVERRIDE_WORDS = new Set([
  'dedicated', 'override', 'overrides', 'pinned', 'pin', 'hot', 'isolated', 'vip', 'premium', 'enterprise',
  'exception', 'exceptions', 'placement', 'assigned', 'assignment', 'mapping', 'lookup', 'special',
]); // prettier-ignore
const EQUALS = new Set(['===', '==']);

/** Whether `fn` looks `tenant` up anywhere that starts before `before` (an offset). */
export function looksUpBefore(fn: Node, tenant: string, before: number, s: Shapes): boolean {
  const same = (n: Node | null | undefined) => !!n && sameValue(textOf(n, s).text, tenant);
  for (const n of walk(fn)) {
    if (n.startIndex >= before) continue;
    if (n.type === s.call) {
      const callee = n.childForFieldName('function');
      const name = callee ? lastName(callee, s) : '';
      const args = positional(n);
      const method = callee?.type === s.member && LOOKUP_METHODS.test(name);
      if ((method || words(name).some((w) => OVERRIDE_WORDS.has(w))) && args.some(same)) return true;
    } else if (n.type === s.subscript) {
      if (same(n.childForFieldName(s.subscriptIndex))) return true;
    } else if (n.type === s.binary) {
      const op = operatorOf(n);
      if (op === 'in' && same(n.childForFieldName('left'))) return true;
      if (EQUALS.has(op) && (same(n.childForFieldName('left')) || same(n.childForFieldName('right')))) return true;
    } else if (n.type === 'comparison_operator') {
      // Python: `tenant_id in PINNED`, `tenant_id == "acme"`.
      const ops = n.children.filter((c) => c && !c.isNamed).map((c) => c!.text);
      if (ops.some((o) => /^(in|not in|==)$/.test(o.replace(/\s+/g, ' '))) && n.namedChildren.some(same)) return true;
    } else if (n.type === 'switch_statement' || n.type === 'match_statement') {
      const subject = n.childForFieldName('value') ?? n.childForFieldName('subject');
      if (subject && same(inner(subject, s))) return true;
    }
  }
  return false;
}

/** `tenantId` and `req.tenantId` name one value; `tenant.id` and `tenant.id` too. */
function sameValue(a: string, b: string): boolean {
  const x = a.replace(/\s+/g, '');
  const y = b.replace(/\s+/g, '');
  return x === y || x.endsWith(`.${y}`) || y.endsWith(`.${x}`);
}

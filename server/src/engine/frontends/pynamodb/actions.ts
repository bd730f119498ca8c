/**
 * `update(actions=[Thread.views.add(1), Thread.last_post.set(now)])` as the
 * UpdateExpression PynamoDB sends: `add` is `ADD #views :views`, a `set` of the
 * attribute plus a number (`Thread.views.set(Thread.views + 1)`) is `SET #views = #views + :views`,
 * so a counter reads as one (SL004); other actions set or remove their attribute.
 */
import type { Node } from 'web-tree-sitter';
import type { Span } from '../../model';
import type { EvalContext } from '../../model/eval-context';
import type { Entry, Value } from '../../model/value';
import { attributeDeclaration, obj, str } from './requests';
import type { ModelSchema } from './schema';

const ACTIONS = /^(add|set|remove|delete|append|prepend)$/;

/** The last name of `Thread.views` / `self.views` / `views`. */
function lastName(n: Node | null): string | null {
  if (n?.type === 'identifier') return n.text;
  if (n?.type === 'attribute') return n.childForFieldName('attribute')?.text ?? null;
  return null;
}

/** The request entries an `actions` list makes (none when it is not a list written in place). */
export function actionsOf(list: Node | null, m: ModelSchema, at: Span, ctx: EvalContext): Entry[] {
  if (list?.type !== 'list' && list?.type !== 'tuple') return [];
  const set: string[] = [];
  const add: string[] = [];
  const remove: string[] = [];
  const names: Entry[] = [];
  const values: Entry[] = [];
  for (const action of list.namedChildren) {
    const fn = action?.type === 'call' ? action.childForFieldName('function') : null;
    const verb = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : null;
    if (!fn || !verb || !ACTIONS.test(verb)) continue;
    const attr = m.attributes.get(lastName(fn.childForFieldName('object')) ?? '');
    if (!attr) continue;
    const name = attr.stored.replace(/\W/g, '_');
    if (!names.some(([n]) => n === `#${name}`)) names.push([`#${name}`, str(attr.stored, at)]);
    const arg = action!.childForFieldName('arguments')?.namedChildren.find((a) => a && a.type !== 'comment') ?? null;
    // Through the attribute's declaration: an index keyed by it is written with this value.
    const value = (n: Node | null): Value | null => {
      const v = n ? ctx.evaluate(n, ctx) : null;
      return v?.kind === 'scalar' ? { ...v, via: [...(v.via ?? []), attributeDeclaration(m, attr)] } : v;
    };
    if (verb === 'add') {
      add.push(`#${name} :${name}`);
      values.push([`:${name}`, value(arg) ?? str('1', at)]);
    } else if (verb === 'set' && arg) {
      const by = selfPlus(arg, attr.name);
      const v = value(by ?? arg);
      set.push(by ? `#${name} = #${name} + :${name}` : `#${name} = :${name}`);
      if (v) values.push([`:${name}`, v]);
    } else if (verb === 'remove') remove.push(`#${name}`);
  }
  const clauses = [
    set.length ? `SET ${set.join(', ')}` : '',
    add.length ? `ADD ${add.join(', ')}` : '',
    remove.length ? `REMOVE ${remove.join(', ')}` : '',
  ].filter(Boolean);
  if (clauses.length === 0) return [];
  return [
    ['UpdateExpression', str(clauses.join(' '), at)],
    ['ExpressionAttributeNames', obj(names, at)],
    ...(values.length ? ([['ExpressionAttributeValues', obj(values, at)]] as Entry[]) : []),
  ];
}

/** `Thread.views + 1` in a `set` of `views`: the addend. */
function selfPlus(n: Node, attribute: string): Node | null {
  if (n.type !== 'binary_operator' || n.childForFieldName('operator')?.text !== '+') return null;
  const [l, r] = [n.childForFieldName('left'), n.childForFieldName('right')];
  if (lastName(l) === attribute) return r;
  if (lastName(r) === attribute) return l;
  return null;
}

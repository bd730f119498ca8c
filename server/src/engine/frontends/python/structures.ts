import type { Node } from 'web-tree-sitter';
import { unknownValue } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import type { Entry, Value } from '../../model/value';

/** Keyword arguments as an object: `dict(pk=x)`; `**spread` merges a dict it can see. */
export function kwargsValue(call: Node, ctx: EvalContext): Value {
  const list = call.childForFieldName('arguments');
  const entries: Entry[] = [];
  for (const a of list?.type === 'argument_list' ? list.namedChildren : []) {
    if (a?.type === 'keyword_argument') {
      const name = a.childForFieldName('name')?.text;
      const value = a.childForFieldName('value');
      if (name && value) entries.push([name, ctx.evaluate(value, ctx) ?? unknownValue(value), spanOf(a)]);
    } else if (a?.type === 'dictionary_splat' || a?.type === 'dictionary') {
      const v = ctx.evaluate(a.type === 'dictionary' ? a : a.namedChild(0), ctx);
      if (v?.kind === 'object') entries.push(...v.entries);
    }
  }
  return { kind: 'object', entries, span: spanOf(list ?? call) };
}

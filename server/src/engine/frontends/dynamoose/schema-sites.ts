/**
 * Where a model is declared: a hash key whose `default` is one constant (`id: { type:
 * String, hashKey: true, default: "GLOBAL" }`), of the table or of a global index, puts
 * every item written without it in one partition. That is a finding on the attribute
 * itself, so the declaration is a site: every such write stores that partition.
 */
import { callStyle } from '../call-style';
import { candidateCalls } from '../../syntax/candidates';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { SourceFile } from '../../model/frontend';
import { literalText } from '../../model/template';
import type { Value } from '../../model/value';
import { perItem } from '../library-requests';
import { schemaPutSite } from '../library-sites';
import { keySchemaOf, modelOf } from './schema';

const MODEL = /\b(?<name>model)\s*(?:<[^>()]*>\s*)?\(/g;
const CALLS = new Set(['call_expression']);

export function schemaSites(f: SourceFile, ctx: EvalContext): CallSite[] {
  return candidateCalls(f.tree, f.text, MODEL, CALLS).flatMap((call) => {
    const found = modelOf(ctx.evaluate(call, ctx) ?? undefined);
    if (!found || found.item || found.model.file !== '') return [];
    const m = found.model;
    const keys = [
      { index: null as string | null, hash: m.hash },
      ...m.indexes.filter((i) => i.hash !== m.hash).map((i) => ({ index: i.name as string | null, hash: i.hash })),
    ];
    return keys.flatMap((k): CallSite[] => {
      const a = m.attributes.get(k.hash);
      const d = a?.default;
      if (!a || d?.kind !== 'scalar' || literalText(d.template) === null) return [];
      const at = a.span;
      const value: Value = {
        ...(perItem(d) as Value & { kind: 'scalar' }),
        span: at,
        via: [{ name: `${m.name}.${a.name}`, file: m.file, span: at, valueSpan: at }],
      };
      return [
        schemaPutSite({
          f,
          at,
          table: m.table,
          index: k.index,
          item: [[k.hash, value, at]],
          call: callStyle(call, f.text, 'v2-promise', 'model', null),
          keySchema: keySchemaOf(m),
          library: {
            library: 'dynamoose',
            entity: m.name,
            accessPattern: k.index ?? '',
            declaration: { file: m.file, span: at },
          },
        }),
      ];
    });
  });
}

/**
 * Where a toolbox entity is declared: a key the schema alone makes one constant puts
 * every item of the entity in one partition. An index keyed by the entity attribute
 * (`_et`), or a key attribute whose `default` is a fixed string, is such a key: the
 * declaration is a site (every put of the entity), reported at the attribute.
 */
import { callStyle } from '../call-style';
import { candidateCalls } from '../../syntax/candidates';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { SourceFile } from '../../model/frontend';
import { schemaPutSite } from '../library-sites';
import { storedValue } from './keys';
import { entitySchema } from './schema';

const NEW_ENTITY = /\bnew\s+(?<name>Entity)\s*\(/g;
const NEW = new Set(['new_expression']);

export function schemaSites(f: SourceFile, ctx: EvalContext): CallSite[] {
  return candidateCalls(f.tree, f.text, NEW_ENTITY, NEW).flatMap((n) => {
    const e = entitySchema(ctx.evaluate(n, ctx) ?? undefined);
    if (!e) return [];
    const none = () => undefined;
    const keys = [
      { index: null as string | null, pk: e.table.pk, sk: e.table.sk },
      ...e.table.indexes.filter((i) => i.pk !== e.table.pk).map((i) => ({ index: i.name, pk: i.pk, sk: i.sk })),
    ];
    return keys.flatMap((k): CallSite[] => {
      const stored = storedValue(e, k.pk, none, e.span);
      if (!stored?.fromSchema || !stored.declaration || stored.value.kind !== 'scalar') return [];
      if (!stored.value.template.parts.every((p) => 'literal' in p)) return [];
      const at = stored.declaration.span;
      return [
        schemaPutSite({
          f,
          at,
          table: e.table.name,
          index: k.index,
          item: [[k.pk, { ...stored.value, span: at }, at]],
          call: callStyle(n, f.text, 'v2-call', 'new Entity', null),
          library: {
            library: 'dynamodb-toolbox',
            entity: e.name,
            accessPattern: k.index ?? 'primary',
            declaration: { file: e.file, span: at },
          },
        }),
      ];
    });
  });
}

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
import { factoryEntities, mayDeclareByFactory } from './factories';
import type { Node } from 'web-tree-sitter';
import type { Declaration, Span } from '../../model';
import { spanOf } from '../../syntax/span';
import type { Value } from '../../model/value';

const NEW_ENTITY = /\bnew\s+(?<name>Entity)\s*\(/g;
const NEW = new Set(['new_expression']);

export function schemaSites(f: SourceFile, ctx: EvalContext): CallSite[] {
  const direct = f.text.includes('dynamodb-toolbox')
    ? candidateCalls(f.tree, f.text, NEW_ENTITY, NEW).flatMap((n) =>
        sitesOf(n, ctx.evaluate(n, ctx), f, 'new Entity', (d) => d.span),
      )
    : [];
  // `const User = createUserEntity(AppTable)`: a key the attributes given here fix is reported where
  // they are written; one a factory of another module fixes, at this call (the declaration related);
  // one a factory of this module fixes, at its `new Entity` (read with this call's table).
  const made = mayDeclareByFactory(f.text)
    ? factoryEntities(f.tree.rootNode, ctx).flatMap(({ call, value }) => {
        const callee = call.childForFieldName('function');
        const place = (d: Declaration): Span | null =>
          within(d.span, call) ? d.span : d.file && d.file !== f.file && callee ? spanOf(callee) : null;
        return sitesOf(call, value, f, callee?.text ?? '', place);
      })
    : [];
  return [...direct, ...made];
}

function within(s: Span, n: Node): boolean {
  const starts =
    s.startLine > n.startPosition.row ||
    (s.startLine === n.startPosition.row && s.startColumn >= n.startPosition.column);
  const ends =
    s.endLine < n.endPosition.row || (s.endLine === n.endPosition.row && s.endColumn <= n.endPosition.column);
  return starts && ends;
}

function sitesOf(
  n: Node,
  v: Value | null,
  f: SourceFile,
  callee: string,
  place: (declaration: Declaration) => Span | null,
): CallSite[] {
  const e = entitySchema(v ?? undefined);
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
    const at = place(stored.declaration);
    if (!at) return [];
    return [
      schemaPutSite({
        f,
        at,
        table: e.table.name,
        index: k.index,
        item: [[k.pk, { ...stored.value, span: at }, at]],
        call: callStyle(n, f.text, 'v2-call', callee, null),
        library: {
          library: 'dynamodb-toolbox',
          entity: e.name,
          accessPattern: k.index ?? 'primary',
          declaration: { file: stored.declaration.file, span: stored.declaration.span },
        },
      }),
    ];
  });
}

/**
 * Where an entity is declared: an access pattern whose partition key the schema alone
 * makes one constant (`pk: { field: "gsi1pk", composite: [] }`, or a `template` without
 * an attribute) puts every item of the entity in one partition of its index. That is a
 * finding on the schema itself, so the declaration is a site: every write of the entity
 * writes that partition, reported at the key's `composite` with the pattern named.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { candidateCalls } from '../../syntax/candidates';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { SourceFile } from '../../model/frontend';
import type { Entry, Value } from '../../model/value';
import { partitionPrefix, renderKey, sortPrefix } from './keys';
import { schemaPutSite } from '../library-sites';
import { patternDeclaration } from './requests';
import { editSites } from './edit-sites';
import { entitySchema, type AccessPattern, type EntitySchema } from './schema';

const NEW_ENTITY = /\bnew\s+(?<name>Entity)\s*\(/g;
const NEW = new Set(['new_expression']);

export function schemaSites(f: SourceFile, ctx: EvalContext): CallSite[] {
  return candidateCalls(f.tree, f.text, NEW_ENTITY, NEW).flatMap((n) => {
    const e = entitySchema(ctx.evaluate(n, ctx) ?? undefined);
    if (!e) return [];
    return e.patterns.filter(constantPartition).map((p) => site(n, e, p, f));
  });
}

/** The schema alone gives the partition key: no composite attribute in it. */
export function constantPartition(p: AccessPattern): boolean {
  return p.pk.template !== null ? !/\$\{\w+\}/.test(p.pk.template) : p.pk.composite.length === 0;
}

function site(n: Node, e: EntitySchema, p: AccessPattern, f: SourceFile): CallSite {
  const decl = patternDeclaration(e, p);
  const origin = { file: e.file, span: p.pk.compositeSpan, via: [] };
  const none = () => undefined;
  const pk = renderKey(p.pk, partitionPrefix(e, p), none, origin, 'none').template;
  const at = p.pk.compositeSpan;
  const item: Entry[] = [[p.pk.field, { kind: 'scalar', template: pk, span: at, via: [decl] }, p.pk.span]];
  if (p.sk) {
    // The sort key's attributes vary per item: each is a value not read here.
    const sk = renderKey(p.sk, sortPrefix(e, p), (a) => hole(a, at), { ...origin, span: p.sk.span }, 'none').template;
    item.push([p.sk.field, { kind: 'scalar', template: sk, span: p.sk.span }, p.sk.span]);
  }
  return schemaPutSite({
    f,
    at,
    table: e.table,
    index: p.index,
    item,
    call: callStyle(n, f.text, 'v2-call', 'new Entity', null),
    library: {
      library: 'electrodb',
      entity: e.entity,
      accessPattern: p.name,
      declaration: { file: e.file, span: decl.span },
      edit: editSites(e, f.file, null, null),
    },
  });
}

function hole(source: string, span: CallSite['span']): Value {
  return { kind: 'scalar', template: { parts: [{ hole: { kind: 'unknown', source } }] }, span };
}

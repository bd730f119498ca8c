import { type Access, type Finding, literalText, logicalKeyOf, shardSetOf, spanWithin } from '../../../../engine';
import { memoized, type FixContext } from '../../fix-model';
import type { Blocked } from '../../key-sites';
import { accessAt } from '../../whole-key';
import { sharedSchemaBlock } from '../shared-schema';
import { keyAttribute, type KeyAttribute } from './attribute';
import type { OptionsKeyAttribute } from './options-attribute';

/**
 * Every access of a dynamodb-toolbox entity's constant key, sorted for a fix through the
 * schema: the schema's own site (the attribute whose default is the key: every put of the
 * entity), the gets, updates and deletes that take the key from that default, and the
 * Queries. Anything else on the key (another entity, an SDK call, a call that gives the
 * key itself) would keep the old key after the schema changes: the fix is then blocked.
 */
export interface ToolboxPlan {
  entity: string;
  schema: Access;
  /** The key attribute as declared: a v1/v2 builder or a v0 options object. */
  attribute: KeyAttribute | OptionsKeyAttribute;
  /** The key as stored: `ACTIVITY#home` (a `prefix` transform included). */
  stored: string;
  /** Gets, updates and deletes: one existing item by its key. */
  points: Access[];
  queries: Access[];
}

export function planToolboxKey(finding: Finding, ctx: FixContext): ToolboxPlan | Blocked {
  return memoized(ctx, finding.access, 'toolbox-plan', () => plan(finding, ctx));
}

function plan(finding: Finding, ctx: FixContext): ToolboxPlan | Blocked {
  const key = logicalKeyOf(finding.access);
  const entity = finding.access.library?.entity;
  if (!key || !entity) return { blocked: 'the key is not known' };
  const all = ctx.accessesOf(key);
  if (!all.includes(finding.access)) all.push(finding.access);
  const schema = all.find((a) => a.library?.schema && a.library.entity === entity);
  if (!schema) return { blocked: `the ${entity} entity's schema does not make the key: the calls give it` };
  const stored = schema.partitionKey ? literalText(schema.partitionKey.template) : null;
  if (stored === null) return { blocked: 'the key is not one constant' };
  const shared = sharedSchemaBlock(ctx, schema, all);
  if (shared) return shared;
  const decl = schema.library!.declaration;
  const out: ToolboxPlan = { entity, schema, attribute: null!, stored, points: [], queries: [] };
  for (const a of all) {
    if (a === schema || (a.partitionKey && shardSetOf(a.partitionKey.template))) continue;
    if (a.library?.library !== 'dynamodb-toolbox' || a.library.entity !== entity)
      return { blocked: `the ${accessAt(ctx, a)} is not a call of the ${entity} entity` };
    if (a.operation === 'Query') out.queries.push(a);
    else if (fromDefault(a, decl.file, decl.span)) out.points.push(a);
    else return { blocked: `the ${accessAt(ctx, a)} gives the key itself` };
  }
  const attribute = keyAttribute(ctx, decl.file, decl.span);
  if ('blocked' in attribute) return attribute;
  out.attribute = attribute;
  return out;
}

/** Every literal of the access's key comes from the attribute's declaration (its default), none from the call. */
function fromDefault(a: Access, file: string, span: Access['span']): boolean {
  const parts = a.partitionKey?.template.parts ?? [];
  return (
    parts.length > 0 &&
    parts.every((p) => 'literal' in p && (!p.origin || (p.origin.file === file && spanWithin(p.origin.span, span))))
  );
}

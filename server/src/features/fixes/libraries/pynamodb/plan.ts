import { type Access, type Finding, type LogicalKey, logicalKeyOf, sameSpan, shardSetOf } from '../../../../engine';
import { memoized, type FixContext } from '../../fix-model';
import { isPointAccess, where, type Blocked } from '../../key-sites';
import { accessAt } from '../../whole-key';
import { sharedSchemaBlock } from '../shared-schema';

/**
 * A PynamoDB key as a whole: every access of the logical key in the workspace, sorted by
 * what the fix does to it. A key the model's `default=` fills needs no edit at the save
 * (the default changes); a key the call gives is edited where it is written; a query is
 * replaced by a reader of every shard. An access the fix cannot rewrite (another client
 * on the table, a wrapper's parameter other keys pass through) blocks the fix, and says where.
 */
export interface ModelKeyPlan {
  key: LogicalKey;
  /** The model class (`BoardScore`) and the file declaring it: where the key builder and the count go. */
  model: string;
  modelFile: string;
  /** Python names of the key attributes (the index's when the key is an index's). */
  hash: string;
  range: string | null;
  /** The attribute declaration whose constant `default=` makes the key (a schema finding). */
  schema: Access | null;
  /** Saves that leave the key to that default: nothing to edit there. */
  defaulted: Access[];
  /** Accesses that give the key at the call (a save, get, update, delete): the value is edited. */
  given: Access[];
  /** Of those, the ones that find one item by its key: no random shard. */
  points: Access[];
  queries: Access[];
}

export function planModelKey(finding: Finding, ctx: FixContext): ModelKeyPlan | Blocked {
  const key = logicalKeyOf(finding.access);
  const lib = finding.access.library;
  if (!key || !lib?.model) return { blocked: 'the key is not known' };
  return memoized(ctx, finding.access, `pynamodb-plan:${key.id}`, () => planOf(finding, key, ctx));
}

function planOf(finding: Finding, key: LogicalKey, ctx: FixContext): ModelKeyPlan | Blocked {
  const own = finding.access.library!;
  const plan: ModelKeyPlan = {
    key,
    model: own.entity,
    modelFile: own.model!.file || finding.access.file,
    hash: keyAttribute(finding.access),
    range: finding.access.index && !own.accessPattern ? null : own.model!.range,
    schema: null,
    defaulted: [],
    given: [],
    points: [],
    queries: [],
  };
  const all = ctx.accessesOf(key);
  if (!all.some((a) => a.file === finding.access.file && sameSpan(a.span, finding.access.span)))
    all.push(finding.access);
  for (const a of all) {
    const pk = a.partitionKey;
    if (!pk || shardSetOf(pk.template)) continue; // already reads or writes every shard
    const lib = a.library;
    if (lib?.library !== 'pynamodb' || lib.entity !== plan.model)
      return { blocked: `the ${accessAt(ctx, a)} addresses the key without the ${plan.model} model` };
    if (a.through) return { blocked: `the ${accessAt(ctx, a)} passes the key through a function other keys may use` };
    if (lib.schema) plan.schema = a;
    else if (a.operation === 'Query') {
      if (a.call.callee === 'count') return { blocked: `the count at ${accessAt(ctx, a)} is not a query of items` };
      plan.queries.push(a);
    } else if (sameSpan(pk.span, a.span)) plan.defaulted.push(a);
    else {
      // Only a value written at the call itself can be wrapped in the key builder.
      if (pk.via.length !== 1)
        return {
          blocked: `the key of the ${accessAt(ctx, a)} is not written at the call (it comes through ${pk.via[0].name})`,
        };
      plan.given.push(a);
      if (isPointAccess(a)) plan.points.push(a);
    }
  }
  // A save writes an index's partition with the table's key names: a query of the index names its range key.
  plan.range ??= plan.queries.find((q) => q.library?.model)?.library?.model?.range ?? null;
  if (plan.defaulted.length && !plan.schema)
    return { blocked: `the default that fills the key at ${accessAt(ctx, plan.defaulted[0])} is not read` };
  return plan.schema
    ? (sharedSchemaBlock(ctx, plan.schema, all) ?? inheritedBlock(plan, plan.schema, ctx) ?? plan)
    : plan;
}

/**
 * The Python name of the attribute holding the key: the model's declaration the value came
 * through (`Thread.status`, also for an index partition a save or update writes), else the
 * hash key of the model or index the access is on.
 */
function keyAttribute(a: Access): string {
  const lib = a.library!;
  const decl = a.partitionKey?.via.find((d) => d.name.startsWith(`${lib.entity}.`));
  return decl ? decl.name.slice(lib.entity.length + 1) : lib.model!.hash;
}

/**
 * A default the model inherits from a base model's module (`class AuditEvent(StreamEvent)`):
 * the default is edited there, but the shard count and `import random` go beside the model,
 * and the readers import the count from where they import the model.
 */
function inheritedBlock(plan: ModelKeyPlan, schema: Access, ctx: FixContext): Blocked | null {
  const at = schema.library!.declaration;
  return at.file && at.file !== plan.modelFile
    ? {
        blocked: `${plan.model}.${plan.hash} is declared in ${where(ctx, at.file, at.span)}, in the module of a base model`,
      }
    : null;
}

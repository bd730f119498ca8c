import {
  type Access,
  type Finding,
  type LogicalKey,
  logicalKeyOf,
  shardSetOf,
  type ShardSuffix,
  spanWithin,
} from '../../../../engine';
import { memoized, type FixContext } from '../../fix-model';
import { isPointAccess, type Blocked } from '../../key-sites';
import { accessAt } from '../../whole-key';
import { sharedSchemaBlock } from '../shared-schema';
import { keyAttributeText, type KeyAttributeText } from './schema-text';

/**
 * A dynamoose model's hot key as a whole: the key attribute's declaration in the
 * schema (where its `default` gives every item the one constant value), the writes that
 * take that default, the calls that address one item by its key, and the queries of it.
 * A shard is given in the schema, so every access must reach the key through it: a
 * write that names the key's value itself, or a call of another library or the SDK on
 * the same key, blocks the fix (it would keep writing the unsharded key).
 */
export interface DynamoosePlan {
  key: LogicalKey;
  model: string;
  schema: KeyAttributeText;
  /** Puts that leave the key to its default. */
  writers: Access[];
  /** Gets, updates, deletes: one item by its key. */
  points: Access[];
  queries: Access[];
}

/** The finding's add-shard-suffix descriptor, on any access of the key (its queries included). */
export function shardDescriptor(f: Finding): ShardSuffix | null {
  return f.fixes.find((x): x is ShardSuffix => x.kind === 'add-shard-suffix') ?? null;
}

export function planDynamooseKey(finding: Finding, ctx: FixContext): DynamoosePlan | Blocked {
  const key = logicalKeyOf(finding.access);
  if (!key) return { blocked: 'the key is not known' };
  return memoized(ctx, finding.access, `dynamoose-plan:${key.id}`, () => plan(finding, key, ctx));
}

function plan(finding: Finding, key: LogicalKey, ctx: FixContext): DynamoosePlan | Blocked {
  const all = ctx.accessesOf(key);
  if (!all.some((a) => a.file === finding.access.file && a.span === finding.access.span)) all.push(finding.access);
  const site = all.find((a) => a.library?.library === 'dynamoose' && a.library.schema);
  if (!site?.library) return { blocked: `${key.attribute} is given at the calls, not by a \`default\` in the schema` };
  const schema = keyAttributeText(ctx, site.library.declaration);
  if (!schema?.defaultValue) return { blocked: `the schema of ${key.attribute} cannot be read` };
  const shared = sharedSchemaBlock(ctx, site, all);
  if (shared) return shared;
  const out: DynamoosePlan = {
    key,
    model: site.library.entity,
    schema,
    writers: [],
    points: [],
    queries: [],
  };
  const fromDefault = (a: Access) =>
    a.partitionKey?.template.parts.some(
      (p) => p.origin?.file === schema.file && !!p.origin && spanWithin(p.origin.span, schema.defaultValue!.span),
    ) ?? false;
  for (const a of all) {
    if (a === site || a.library?.schema) continue;
    if (a.partitionKey && shardSetOf(a.partitionKey.template)) continue; // reads or writes every shard already
    if (a.library?.library !== 'dynamoose' || a.library.entity !== out.model)
      return { blocked: `the ${accessAt(ctx, a)} addresses the key outside the ${out.model} model` };
    if (a.operation === 'Query') out.queries.push(a);
    else if (isPointAccess(a) || a.kind === 'read') out.points.push(a);
    else if (a.operation === 'PutItem' && fromDefault(a)) out.writers.push(a);
    else return { blocked: `the ${accessAt(ctx, a)} writes ${key.attribute} itself, not through its default` };
  }
  return out;
}

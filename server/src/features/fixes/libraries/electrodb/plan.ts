import type { Access, Finding, LibraryEditSites, LibraryPatternSites } from '../../../../engine';
import type { FixContext } from '../../fix-model';
import type { Blocked } from '../../key-sites';
import { accessAt } from '../../whole-key';

/**
 * What a shard in an ElectroDB schema changes, read from the workspace: the access
 * pattern whose partition key gains the `shard` composite attribute, and every call of
 * the entity, whichever board or status it names. The key is declared once for all its
 * values, so a call of another logical key of the pattern (`Score.get({ board, player })`)
 * needs the shard as much as the hot one's.
 */
export interface EntityPlan {
  /** The finding's access pattern, by name, and its sites in the schema. */
  pattern: string;
  sites: LibraryPatternSites;
  edit: LibraryEditSites;
  entity: string;
  /** Queries of the pattern: each becomes a read of every shard. */
  queries: Access[];
  /** Gets, updates and deletes that find one item by the pattern's key: each must give the shard. */
  points: Access[];
}

const POINT = new Set(['GetItem', 'UpdateItem', 'DeleteItem']);
const BATCH = new Set(['BatchGetItem', 'BatchWriteItem']);

/** The plan of a hot-key finding on an ElectroDB access, or why no shard can be added in the schema. */
export function entityPlan(finding: Finding, ctx: FixContext): EntityPlan | Blocked | null {
  const lib = finding.access.library;
  const edit = lib?.edit;
  if (lib?.library !== 'electrodb' || !edit || !finding.access.partitionKey) return null;
  const field = finding.access.partitionKey.attribute;
  const named = Object.entries(edit.patterns).find(([, p]) => p.pkField === field && p.index === finding.access.index);
  const [pattern, sites] = named ?? Object.entries(edit.patterns).find(([, p]) => p.pkField === field) ?? [];
  if (!pattern || !sites) return null;
  const entity = lib.entity;
  const calls = entityCalls(ctx, finding, edit.schemaFile, entity);
  const here = `${entity}.${pattern}`;
  if (sites.collection) {
    return {
      blocked: `${here} is in the collection '${sites.collection}', whose entities share its partition key: each would need the same shard attribute`,
    };
  }
  const batch = calls.find((a) => BATCH.has(a.operation));
  if (batch)
    return { blocked: `the ${accessAt(ctx, batch)} gives its items in a list, which the fix does not rewrite` };
  if (sites.index !== null) {
    // ElectroDB rebuilds an index's key on an update only from every composite attribute:
    // an update of the entity would have to give the shard it cannot know.
    const update = calls.find((a) => a.operation === 'UpdateItem');
    if (update)
      return {
        blocked: `the ${accessAt(ctx, update)} may change ${here}'s key, which ElectroDB rebuilds only with every composite attribute given, the shard included`,
      };
  }
  const queries = calls.filter((a) => a.operation === 'Query' && a.library?.accessPattern === pattern);
  const points = sites.index === null ? calls.filter((a) => POINT.has(a.operation)) : [];
  return { pattern, sites, edit, entity, queries, points };
}

/** Every call of the entity declared in `schemaFile` (a put once, though it is one access per partition it writes). */
function entityCalls(ctx: FixContext, finding: Finding, schemaFile: string, entity: string): Access[] {
  const files = ctx.files?.() ?? [finding.file];
  const seen = new Set<string>();
  const out: Access[] = [];
  for (const file of files) {
    for (const a of ctx.analysisOf(file)?.accesses ?? []) {
      const lib = a.library;
      if (lib?.library !== 'electrodb' || lib.schema || lib.entity !== entity) continue;
      if (lib.edit?.schemaFile !== schemaFile) continue;
      const id = `${a.file}:${a.span.startLine}:${a.span.startColumn}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(a);
    }
  }
  return out;
}

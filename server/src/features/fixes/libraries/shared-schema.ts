import { type Access, tableName } from '../../../engine';
import type { FixContext } from '../fix-model';

/**
 * The other models or entities built from the schema that declares a key, with their
 * tables (dynamoose: `dynamoose.model('LoadTestTicket', ticketSchema, ...)` beside the
 * queue's own model; dynamodb-toolbox: two `new Entity({ schema })` of one `item({...})`
 * on two tables). A shard given in the schema reaches their calls too, while a fix's plan
 * holds the calls of one table's key: the fix is refused, naming them. `site` is the
 * schema's own access of the key, whose declaration the others share.
 */
export function sharedWith(ctx: FixContext, site: Access, seen: Access[]): string[] {
  const own = site.library!;
  const at = own.declaration;
  const files = ctx.files?.() ?? [...new Set(seen.map((a) => a.file))];
  const out = new Set<string>();
  for (const file of files)
    for (const a of ctx.analysisOf(file)?.accesses ?? []) {
      const lib = a.library;
      if (lib?.library !== own.library || !lib.schema || lib.entity === own.entity) continue;
      const d = lib.declaration;
      if (d.file !== at.file || d.span.startLine !== at.span.startLine || d.span.startColumn !== at.span.startColumn)
        continue;
      const table = tableName(a.table);
      out.add(table ? `${lib.entity} (table ${table})` : lib.entity);
    }
  return [...out].sort();
}

/** The reason a fix through a shared schema is refused, or null when no other model shares it. */
export function sharedSchemaBlock(ctx: FixContext, site: Access, seen: Access[]): { blocked: string } | null {
  const others = sharedWith(ctx, site, seen);
  return others.length
    ? { blocked: `the schema is shared with ${others.join(', ')}, whose calls a shard in it would change too` }
    : null;
}

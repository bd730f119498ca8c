import { logicalKeyOf } from '../../../../engine';
import type { FixContext } from '../../fix-model';
import { where, type Blocked } from '../../key-sites';
import type { ModelPlan } from './plan';
import { objectAt, schemaCount, type ObjectSyntax } from './schema-syntax';

/**
 * Every `new Table({ schema })` built from the schema of the plan's model, the plan's own
 * first. OneTable computes a `value: true` field with the `value` callback of the Table the
 * call goes through, not of the schema: an application whose services each build their
 * own Table from one shared schema module writes the model through each of them (a seed
 * script, a repository per model). A calculated shard must be given to all of them, or
 * items written through one Table would carry no shard (OneTable throws on the unset
 * template) while the others write and read shards. Tables are known by the accesses the
 * workspace analysis found through them; a Table that reaches nothing is no writer.
 */
export function tablesOfSchema(p: ModelPlan, ctx: FixContext): ObjectSyntax[] | Blocked {
  const schemaFile = p.fields.file;
  const seen = new Set<string>();
  const out: ObjectSyntax[] = [];
  const add = (t: ObjectSyntax) => {
    const id = `${t.file}:${t.end.startLine}:${t.end.startColumn}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(t);
  };
  add(p.table);
  const key = logicalKeyOf(p.finding.access);
  const files = ctx.files?.() ?? [...new Set((key ? ctx.accessesOf(key) : [p.finding.access]).map((a) => a.file))];
  for (const file of files) {
    for (const a of ctx.analysisOf(file)?.accesses ?? []) {
      const lib = a.library;
      if (lib?.library !== 'dynamodb-onetable' || !lib.tableAt || lib.modelAt?.file !== schemaFile) continue;
      const t = objectAt(ctx, lib.tableAt);
      if (!t)
        return {
          blocked: `the table at ${where(ctx, lib.tableAt.file, lib.tableAt.span)} is not built from an object literal`,
        };
      add(t);
    }
  }
  // Tables are matched by the module their schema comes from: with two schemas in it, which
  // Table holds which is not known here.
  if (out.length > 1 && schemaCount(ctx, schemaFile) > 1)
    return {
      blocked: `${where(ctx, schemaFile, p.key.span)} declares more than one schema, and other tables are built from it`,
    };
  return out;
}

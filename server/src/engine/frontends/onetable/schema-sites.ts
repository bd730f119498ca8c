/**
 * Where a OneTable schema is given to its table: a model whose table or index
 * partition key the schema alone fixes (`gs1pk: { value: 'user' }`, or
 * `'type#${_type}'`, the model's own name) puts every item of the model in one
 * partition. The table's construction is then a site (every create of the model),
 * reported at the field when the schema is written in the same module, else at the
 * `schema` the table is given, with the field as related location.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { candidateCalls } from '../../syntax/candidates';
import type { Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { SourceFile } from '../../model/frontend';
import { entry, entryOf } from '../../model/value';
import { schemaPutSite } from '../library-sites';
import { storedValue } from './keys';
import { modelOfTable, type ModelSchema } from './schema';
import { readAt } from './shard-fields';

const NEW_TABLE = /\bnew\s+(?<name>Table)\s*\(/g;
const NEW = new Set(['new_expression']);

export function schemaSites(f: SourceFile, ctx: EvalContext): CallSite[] {
  return candidateCalls(f.tree, f.text, NEW_TABLE, NEW).flatMap((n) => {
    const table = ctx.evaluate(n, ctx) ?? undefined;
    const made = table?.kind === 'object' ? table.made : undefined;
    if (made?.module !== 'dynamodb-onetable') return [];
    const schemaPair = entryOf(made.args[0], 'schema');
    const models = entry(entry(made.args[0], 'schema'), 'models');
    if (models?.kind !== 'object') return [];
    return models.entries.flatMap(([name]) => {
      const m = modelOfTable(table, name, readAt(f));
      return m ? modelSites(n, m, f, schemaPair?.[2] ?? schemaPair?.[1].span ?? null) : [];
    });
  });
}

function modelSites(n: Node, m: ModelSchema, f: SourceFile, schemaAt: Span | null): CallSite[] {
  const none = () => undefined;
  return [m.primary, ...m.indexes.filter((i) => i.hash !== m.primary.hash)].flatMap((ix): CallSite[] => {
    const stored = storedValue(m, ix.hash, none, 'put', m.nameSpan);
    if (!stored?.fromSchema || stored.value.kind !== 'scalar') return [];
    if (!stored.value.template.parts.every((p) => 'literal' in p)) return [];
    const at = m.schemaFile === f.file || !schemaAt ? stored.declaration.span : schemaAt;
    return [
      schemaPutSite({
        f,
        at,
        table: m.tableName,
        index: ix.name === 'primary' ? null : ix.name,
        item: [[ix.hash, { ...stored.value, span: at }, at]],
        call: callStyle(n, f.text, 'v2-call', 'new Table', null),
        library: {
          library: 'dynamodb-onetable',
          entity: m.name,
          accessPattern: ix.name,
          declaration: { file: stored.declaration.file, span: stored.declaration.span },
          modelAt: m.fieldsAt,
          tableAt: m.tableAt,
          sortAttribute: ix.sort,
          typeField: m.typeField,
        },
      }),
    ];
  });
}

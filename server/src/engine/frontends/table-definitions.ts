/**
 * Table definitions written in code: `create_table(...)`, `new CreateTableCommand({...})`,
 * `db.createTable({...})`, and the CDK's `new Table(this, "Id", { tableName, partitionKey })`
 * with `addGlobalSecondaryIndex({ indexName, partitionKey })`. They name a table's key
 * attributes and its indexes' — what a write must set to write an index partition —
 * even when no query in the workspace goes through the index. Only tables named by a
 * literal are learned: the definition and the calls must name the same table.
 *
 * The language front-ends answer `tableDefinitions` with this, read through their own
 * syntax (`definitionCalls`, `definitionProps`).
 */
import type { Node } from 'web-tree-sitter';
import { candidateCalls } from '../syntax/candidates';
import { newContext } from './evaluation';
import type { KeyNames, TableDefinition } from '../model/call-site';
import type { FrontEnd, SourceFile } from '../model/frontend';
import { literalText } from '../model/template';
import { entry, type Value } from '../model/value';

const CONSTRUCT = /\bnew\s+(?:\w+\.)*(?<b>Table|TableV2)\s*\(|\b(?:dynamodb|ddb)\.(?<c>Table|TableV2)\s*\(/;
const DEFINITION =
  /\b(?<a>create_table|CreateTableCommand|createTable|addGlobalSecondaryIndex|add_global_secondary_index|addLocalSecondaryIndex|add_local_secondary_index)\b|\bnew\s+(?:\w+\.)*(?<b>Table|TableV2)\s*\(|\b(?:dynamodb|ddb)\.(?<c>Table|TableV2)\s*\(/;

export function tableDefinitionsInCode(f: SourceFile, fe: FrontEnd): TableDefinition[] {
  const { tree, text, lookups } = f;
  if (!DEFINITION.test(text)) return [];
  const types = new Set(fe.syntax.definitionCalls);
  const out: TableDefinition[] = [];
  for (const call of candidateCalls(tree, text, DEFINITION, types)) {
    const ctx = newContext(fe.evaluate, lookups);
    const props = fe.definitionProps(call, ctx);
    const def = definitionOf(call, text, props, fe, ctx);
    if (def) out.push(def);
  }
  return out;
}

function definitionOf(
  call: Node,
  source: string,
  props: Value | null,
  fe: FrontEnd,
  ctx: ReturnType<typeof newContext>,
): TableDefinition | null {
  if (!props) return null;
  const text = (name: string) => scalarText(entry(props, name));
  const callee = (call.childForFieldName('function') ?? call.childForFieldName('constructor'))?.text ?? '';
  if (
    /(addGlobalSecondaryIndex|add_global_secondary_index|addLocalSecondaryIndex|add_local_secondary_index)$/.test(
      callee,
    )
  ) {
    const owner = callee.replace(/\.\w+$/, '');
    const table = ownerTableName(call, source, owner, fe, ctx);
    const index = text('indexName') ?? text('index_name');
    const keys = cdkKeys(props);
    return table && index && keys ? [`literal:${table}`, { indexes: { [index]: keys } }] : null;
  }
  if (/Table(V2)?$/.test(callee) && !/create_table|createTable/i.test(callee)) {
    const table = text('tableName') ?? text('table_name');
    const keys = cdkKeys(props);
    if (!table || !keys) return null;
    const gsis = entry(props, 'globalSecondaryIndexes') ?? entry(props, 'global_secondary_indexes');
    return [`literal:${table}`, { ...keys, ...indexesOf(gsis, 'indexName', cdkKeys) }];
  }
  const table = text('TableName');
  const keys = keySchema(entry(props, 'KeySchema'));
  if (!table || !keys) return null;
  const schemaOf = (i: Value) => keySchema(entry(i, 'KeySchema'));
  const indexes = {
    ...indexesOf(entry(props, 'GlobalSecondaryIndexes'), 'IndexName', schemaOf).indexes,
    ...indexesOf(entry(props, 'LocalSecondaryIndexes'), 'IndexName', schemaOf).indexes,
  };
  return [`literal:${table}`, { ...keys, ...(Object.keys(indexes).length ? { indexes } : {}) }];
}

function scalarText(v: Value | undefined): string | null {
  return v?.kind === 'scalar' ? literalText(v.template) : null;
}

/** `[{AttributeName: "id", KeyType: "HASH"}, {..., KeyType: "RANGE"}]`. */
function keySchema(v: Value | undefined): KeyNames | null {
  if (v?.kind !== 'array') return null;
  let partition: string | null = null;
  let sort: string | undefined;
  for (const k of v.items) {
    const name = scalarText(entry(k, 'AttributeName'));
    const type = scalarText(entry(k, 'KeyType'));
    if (name && type === 'HASH') partition = name;
    if (name && type === 'RANGE') sort = name;
  }
  return partition ? { partition, ...(sort ? { sort } : {}) } : null;
}

/** The CDK's `partitionKey: { name: "pk", type: ... }` (Python: `partition_key=Attribute(name=...)`). */
function cdkKeys(props: Value): KeyNames | null {
  const attr = (v: Value | undefined) => scalarText(entry(v, 'name'));
  const partition = attr(entry(props, 'partitionKey') ?? entry(props, 'partition_key'));
  const sort = attr(entry(props, 'sortKey') ?? entry(props, 'sort_key'));
  return partition ? { partition, ...(sort ? { sort } : {}) } : null;
}

function indexesOf(
  list: Value | undefined,
  nameField: string,
  keysOf: (index: Value) => KeyNames | null,
): { indexes?: Record<string, KeyNames> } {
  if (list?.kind !== 'array') return {};
  const indexes: Record<string, KeyNames> = {};
  for (const i of list.items) {
    const name = scalarText(entry(i, nameField));
    const keys = keysOf(i);
    if (name && keys) indexes[name] = keys;
  }
  return Object.keys(indexes).length ? { indexes } : {};
}

/** The literal `tableName` of the CDK table `owner` (`table`, `this.table`) is assigned in this file. */
function ownerTableName(
  call: Node,
  source: string,
  owner: string,
  fe: FrontEnd,
  ctx: ReturnType<typeof newContext>,
): string | null {
  const name = owner.replace(/^(this|self)\./, '').replace(/\W/g, '');
  const assigned = new RegExp(`(?:^|[^\\w.])(?:this\\.|self\\.)?${name}\\s*=\\s*$`);
  const types = new Set(['new_expression', 'call']);
  for (const ctor of candidateCalls(call.tree, source, CONSTRUCT, types)) {
    const line =
      source
        .slice(Math.max(0, ctor.startIndex - 200), ctor.startIndex)
        .split('\n')
        .pop() ?? '';
    if (!assigned.test(line)) continue;
    const props = fe.definitionProps(ctor, ctx) ?? undefined;
    const table = scalarText(entry(props, 'tableName')) ?? scalarText(entry(props, 'table_name'));
    if (table) return table;
  }
  return null;
}

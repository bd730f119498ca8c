/**
 * OneTable calls as call sites: on a model (`const User = table.getModel('User')`)
 * `User.create/get/find/update/upsert/remove(properties, params)`, and the same on the
 * table with the model's name first (`table.find('User', {...})`). `{ index: 'gs1' }`
 * sends a get, find or remove to that index (a get or remove on an index is a query);
 * `{ add: { count: 1 } }` is an increment. A create also writes the partitions of the
 * indexes whose keys its item fills; where the schema alone fixes a key, the schema is
 * the site (`schema-sites.ts`).
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { librarySite } from '../library-sites';
import { capitalBefore, someDottedCall } from '../model-calls';
import { candidateCalls } from '../../syntax/candidates';
import { newContext } from '../evaluation';
import type { Operation, Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import { literalText } from '../../model/template';
import { entry, type Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { storedValue, type Given } from './keys';
import { givenOf, incrementOf, indexWrite, keyRequest, putRequest, queryRequest } from './requests';
import { modelOfTable, modelSchema, type IndexSchema, type ModelSchema } from './schema';
import { readAt } from './shard-fields';
import { schemaSites } from './schema-sites';

const METHODS: Record<string, Operation> = {
  create: 'PutItem',
  get: 'GetItem',
  find: 'Query',
  update: 'UpdateItem',
  upsert: 'UpdateItem',
  remove: 'DeleteItem',
};
const CALL = /\.\s*(?<name>create|get|find|update|upsert|remove)\s*\(/g;
const CALLS = new Set(['call_expression']);
/** A quote and a capital right after `(`: a table's method naming a model (`table.get('Counter', ...)`). */
const MODEL_NAMED = /\s*['"][A-Z]/y;

/**
 * In a file that names neither the package nor `getModel`: a model named like a class
 * (`User.find(`), or a table's method naming a model (`table.get('Counter', ...)`).
 */
export function callsModel(text: string): boolean {
  return someDottedCall(text, CALL, (m) => {
    if (capitalBefore(text, m.index)) return true;
    MODEL_NAMED.lastIndex = m.index + m[0].length;
    return MODEL_NAMED.test(text);
  });
}

export function oneTableCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  const named = f.text.includes('dynamodb-onetable');
  const local = named || f.text.includes('.getModel(');
  if (!local && !callsModel(f.text)) return [];
  const ctx = () => newContext(fe.evaluate, f.lookups, null);
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, CALL, CALLS)) sites.push(...callSites(call, f, local, ctx()));
  if (named) sites.push(...schemaSites(f, ctx()));
  return sites;
}

function callSites(call: Node, f: SourceFile, local: boolean, ctx: EvalContext): CallSite[] {
  const fn = call.childForFieldName('function');
  const object = fn?.childForFieldName('object');
  const method = fn?.childForFieldName('property')?.text ?? '';
  const operation = METHODS[method];
  if (!object || !operation) return [];
  // Where the file names neither OneTable nor `getModel`, only a model named like a class is evaluated.
  if (!local && !(object.type === 'identifier' && /^[A-Z]/.test(object.text)) && !namesModel(call)) return [];
  const root = ctx.evaluate(object, ctx) ?? undefined;
  const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (a): a is Node => !!a && a.type !== 'comment',
  );
  const value = (n: Node | undefined) => (n ? (ctx.evaluate(n, ctx) ?? undefined) : undefined);
  const reading = readAt(f);
  let model = modelSchema(root, reading);
  if (!model && args[0]?.type === 'string') {
    // `table.get('User', {...})`: the table's own methods name the model first.
    const name = value(args[0]);
    model = name?.kind === 'scalar' ? modelOfTable(root, literalText(name.template) ?? '', reading) : null;
    args.shift();
  }
  if (!model) return [];
  const properties = value(args[0]);
  const params = value(args[1]);
  const at = spanOf(call);
  // A find reads every page itself unless given a limit; a loop on its `next` cursor reads them all too.
  const pages = !entry(params, 'limit') || !!entry(params, 'next');
  const make = maker(model, call, f, method, object.text, at, pages);
  const indexName = entry(params, 'index');
  const named = indexName?.kind === 'scalar' ? literalText(indexName.template) : null;
  const index = named && named !== 'primary' ? model.indexes.find((i) => i.name === named) : undefined;
  if (named && named !== 'primary' && !index) return [];
  const g = givenOf(properties);
  if (operation === 'Query' || (index && (operation === 'GetItem' || operation === 'DeleteItem'))) {
    const ix = index ?? model.primary;
    const input = queryRequest(model, ix, g, params, at);
    return input ? [make('Query', input, ix.name)] : [];
  }
  if (operation === 'PutItem') return createSites(model, properties, g, make, at);
  const extra = operation === 'UpdateItem' ? incrementOf(params, model, at) : [];
  const input = keyRequest(model, g, at, extra);
  return input ? [make(operation, input, 'primary')] : [];
}

/** `table.get('Counter', ...)`: a first argument naming a model. */
function namesModel(call: Node): boolean {
  const first = call.childForFieldName('arguments')?.namedChild(0);
  return first?.type === 'string' && /^['"][A-Z]/.test(first.text);
}

type Make = (operation: Operation, input: Value, pattern: string, byIndex?: Record<string, string>) => CallSite;

function maker(
  m: ModelSchema,
  call: Node,
  f: SourceFile,
  callee: string,
  root: string,
  at: Span,
  pages: boolean,
): Make {
  return (operation, input, pattern, byIndex) =>
    librarySite({
      f,
      operation,
      at,
      input,
      paginated: operation === 'Query' && pages,
      call: callStyle(call, f.text, 'v2-promise', callee, root),
      library: {
        library: 'dynamodb-onetable',
        entity: m.name,
        accessPattern: pattern,
        ...(byIndex ? { byIndex } : {}),
        declaration: declarationOf(m, pattern),
        modelAt: m.fieldsAt,
        tableAt: m.tableAt,
        sortAttribute: (m.indexes.find((i) => i.name === pattern) ?? m.primary).sort,
        typeField: m.typeField,
      },
    });
}

/** The partition-key field of the index an access is on, where the related location points. */
function declarationOf(m: ModelSchema, pattern: string): { file: string; span: Span } {
  const ix: IndexSchema = m.indexes.find((i) => i.name === pattern) ?? m.primary;
  const f = [...m.fields.values()].find((x) => x.field === ix.hash);
  return { file: m.schemaFile, span: f?.span ?? m.nameSpan };
}

/** A create: the item, and as sites of their own the index partitions it writes. */
function createSites(m: ModelSchema, properties: Value | undefined, g: Given, make: Make, at: Span): CallSite[] {
  const put = putRequest(m, properties, at);
  if (!put) return [];
  const byIndex = Object.fromEntries(m.indexes.map((i) => [i.name, i.name]));
  // A partition the schema alone fixes is reported once, at the schema (`schema-sites.ts`).
  const sites = constantFromSchema(m, m.primary.hash, g, at) ? [] : [make('PutItem', put.input, 'primary', byIndex)];
  for (const ix of m.indexes) {
    const w = indexWrite(m, ix, g, at);
    if (w && !constantFromSchema(m, ix.hash, g, at)) sites.push(make('PutItem', w.input, ix.name));
  }
  return sites;
}

export function constantFromSchema(m: ModelSchema, field: string, given: Given, at: Span): boolean {
  const v = storedValue(m, field, given, 'put', at);
  return !!v?.fromSchema && v.value.kind === 'scalar' && v.value.template.parts.every((p) => 'literal' in p);
}

/**
 * dynamodb-toolbox calls as call sites. v1/v2: `E.build(PutItemCommand).item({...}).send()`,
 * `GetItemCommand`/`DeleteItemCommand` with `.key({...})`, `UpdateItemCommand` with
 * `.item({...})` (`$add(n)` is an increment), `T.build(QueryCommand).query({ partition,
 * index, range })`. v0: `E.put/get/update/delete({...})`, `E.query(pk, { index, beginsWith })`.
 * A put also writes the partitions of the table's indexes it gives keys to. Where the
 * schema alone fixes a key the entity writes (its name in `_et`, a constant default),
 * the entity's declaration is a site of its own, reported at the attribute.
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
import { entry, type Entry, type Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { argsOf, chainOf, throughBuilder, type Chain } from '../call-chain';
import { storedValue, type Given } from './keys';
import { followsNext } from './pages';
import {
  givenOf,
  incrementOf,
  indexWrite,
  keyRequest,
  putRequest,
  queryRequest,
  rangeOf,
  type Range,
} from './requests';
import { entitySchema, tableSchema, type EntitySchema, type TableSchema } from './schema';
import { schemaSites } from './schema-sites';
import { mayDeclareByFactory } from './factories';

const SEND = /\.\s*(?<name>send)\s*\(/g;
const V0 = /\.\s*(?<name>put|get|update|delete|query)\s*\(/g;
const CALLS = new Set(['call_expression']);

const COMMANDS: Record<string, Operation> = {
  PutItemCommand: 'PutItem',
  GetItemCommand: 'GetItem',
  DeleteItemCommand: 'DeleteItem',
  UpdateItemCommand: 'UpdateItem',
  UpdateAttributesCommand: 'UpdateItem',
  QueryCommand: 'Query',
};
const V0_METHODS: Record<string, Operation> = {
  put: 'PutItem',
  get: 'GetItem',
  delete: 'DeleteItem',
  update: 'UpdateItem',
  query: 'Query',
};

/**
 * A module declaring an entity by a factory (`export const User = createUserEntity(AppTable)`):
 * its importers call the entity, often naming no toolbox package. A module constructing one
 * (`new Entity(...)`) is found by `declaresLibraryModels` already.
 */
export function declaresToolboxEntities(f: SourceFile): boolean {
  return mayDeclareByFactory(f.text);
}

/** A file naming no toolbox may still call an entity it imports, named like a class: `User.put(...)`. */
export function callsEntity(text: string): boolean {
  return someDottedCall(text, V0, (m) => capitalBefore(text, m.index));
}

export function toolboxCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  const named = f.text.includes('dynamodb-toolbox');
  const v1 = f.text.includes('.build(');
  const byFactory = mayDeclareByFactory(f.text);
  if (!named && !v1 && !byFactory && !callsEntity(f.text)) return [];
  const ctx = () => newContext(fe.evaluate, f.lookups, null);
  const sites: CallSite[] = [];
  if (v1)
    for (const call of candidateCalls(f.tree, f.text, SEND, CALLS)) {
      const written = chainOf(call);
      // `await builder.options(opts).send()`: the chain goes on from the `build(...)` the variable holds.
      const chain = written && written.steps[0]?.name !== 'build' ? (throughBuilder(written) ?? written) : written;
      const site = chain ? v1Site(chain, call, f, ctx()) : null;
      if (site) sites.push(...site);
    }
  for (const call of candidateCalls(f.tree, f.text, V0, CALLS)) {
    const site = v0Site(call, f, named, ctx());
    if (site) sites.push(...site);
  }
  if (named || byFactory) sites.push(...schemaSites(f, ctx()));
  return sites;
}

type Make = (operation: Operation, input: Value, pattern: string, byIndex?: Record<string, string>) => CallSite;

function maker(e: EntitySchema | null, call: Node, f: SourceFile, callee: string, root: string, at: Span): Make {
  return (operation, input, pattern, byIndex) =>
    librarySite({
      f,
      operation,
      at,
      input,
      call: callStyle(call, f.text, 'v2-promise', callee, root),
      library: e
        ? {
            library: 'dynamodb-toolbox',
            entity: e.name,
            accessPattern: pattern,
            ...(byIndex ? { byIndex } : {}),
            ...sortAttributeOf(e, pattern),
            declaration: { file: e.file, span: e.nameSpan },
          }
        : undefined,
    });
}

/** The attribute the items come back with their sort key in (`postedAt` saved as `SK`), for a fix's merge. */
function sortAttributeOf(e: EntitySchema, pattern: string): { sortAttribute?: string } {
  const sk = pattern === 'primary' ? e.table.sk : e.table.indexes.find((i) => i.name === pattern)?.sk;
  const a = sk ? [...e.attributes.values()].find((x) => x.field === sk && !x.partOf) : undefined;
  return a ? { sortAttribute: a.name } : {};
}

/** `E.build(Command).item/key/query(...)...send()`. */
function v1Site(chain: Chain, call: Node, f: SourceFile, ctx: EvalContext): CallSite[] | null {
  const [build, ...rest] = chain.steps;
  if (build?.name !== 'build' || build.args[0]?.type !== 'identifier') return null;
  const operation = COMMANDS[build.args[0].text];
  if (!operation) return null;
  const root = ctx.evaluate(chain.root, ctx) ?? undefined;
  const arg = (name: string) => {
    const s = rest.find((x) => x.name === name);
    return s?.args[0] ? (ctx.evaluate(s.args[0], ctx) ?? undefined) : undefined;
  };
  const at = spanOf(call);
  const callee = chain.steps.map((s) => s.name).join('.');
  if (operation === 'Query') {
    const table = tableSchema(root) ?? entitySchema(root)?.table;
    if (!table) return null;
    const entities = rest.find((s) => s.name === 'entities');
    const e = entities?.args[0] ? entitySchema(ctx.evaluate(entities.args[0], ctx) ?? undefined) : entitySchema(root);
    const q = arg('query');
    const options = arg('options');
    const make = maker(e, call, f, callee, chain.root.text, at);
    const site = querySite(
      table,
      entry(q, 'partition'),
      entry(q, 'index'),
      rangeOf(entry(q, 'range')),
      options,
      make,
      at,
    );
    if (site && entry(options, 'maxPages')) site.paginated = true;
    return site ? [site] : null;
  }
  const e = entitySchema(root);
  if (!e) return null;
  const make = maker(e, call, f, callee, chain.root.text, at);
  return keyed(
    e,
    operation,
    operation === 'PutItem' || operation === 'UpdateItem' ? arg('item') : arg('key'),
    make,
    at,
  );
}

/** `E.put({...})`, `E.get({...})`, `E.query(pk, {...})` of a v0 entity or table. */
function v0Site(call: Node, f: SourceFile, named: boolean, ctx: EvalContext): CallSite[] | null {
  const fn = call.childForFieldName('function');
  const object = fn?.childForFieldName('object');
  const method = fn?.childForFieldName('property')?.text ?? '';
  // An entity is named like a class (`Customer.put(...)`) where the file names no toolbox.
  if (!object || (object.type !== 'identifier' && object.type !== 'member_expression')) return null;
  if (!named && !/^[A-Z]/.test(object.text)) return null;
  const operation = V0_METHODS[method];
  const args = argsOf(call);
  if (!operation || args.length === 0) return null;
  const root = ctx.evaluate(object, ctx) ?? undefined;
  const e = entitySchema(root);
  if (e && e.version !== 0) return null;
  const table = e?.table ?? tableSchema(root);
  if (!table) return null;
  const at = spanOf(call);
  const make = maker(e, call, f, method, object.text, at);
  const first = ctx.evaluate(args[0], ctx) ?? undefined;
  if (operation === 'Query') {
    const options = args[1] ? (ctx.evaluate(args[1], ctx) ?? undefined) : undefined;
    const site = querySite(table, first, entry(options, 'index'), rangeOf(options), options, make, at);
    if (site && followsNext(call)) site.paginated = true;
    return site ? [site] : null;
  }
  return e ? keyed(e, operation, first, make, at) : null;
}

function querySite(
  table: TableSchema,
  partition: Value | undefined,
  indexName: Value | undefined,
  range: Range | null,
  options: Value | undefined,
  make: Make,
  at: Span,
): CallSite | null {
  if (!partition) return null;
  const name =
    indexName?.kind === 'scalar'
      ? indexName.template.parts.map((p) => ('literal' in p ? p.literal : '?')).join('')
      : null;
  const ix = name ? table.indexes.find((i) => i.name === name) : undefined;
  if (name && !ix) return null;
  const keys = ix ? { index: ix.name, pk: ix.pk, sk: ix.sk } : { index: null, pk: table.pk, sk: table.sk };
  const limit = entry(options, 'limit');
  const input = queryRequest(table.name, keys, partition, range, at, limit ? [['Limit', limit]] : []);
  return make('Query', input, ix?.name ?? 'primary');
}

/** A get, delete, update or put of one item, and for a put the index partitions it writes. */
function keyed(
  e: EntitySchema,
  operation: Operation,
  given: Value | undefined,
  make: Make,
  at: Span,
): CallSite[] | null {
  const g = givenOf(given);
  if (operation === 'PutItem') {
    const input = putRequest(e, given, at);
    if (!input) return null;
    const byIndex = Object.fromEntries(e.table.indexes.map((i) => [i.name, i.name]));
    // A partition the schema alone fixes is reported once, at the schema (`schema-sites.ts`).
    const sites = constantFromSchema(e, e.table.pk, g, at) ? [] : [make('PutItem', input, 'primary', byIndex)];
    for (const ix of e.table.indexes) {
      const w = indexWrite(e, ix, g, at);
      if (w && !constantFromSchema(e, ix.pk, g, at)) sites.push(make('PutItem', w.input, ix.name));
    }
    return sites;
  }
  const extra: Entry[] = operation === 'UpdateItem' ? incrementOf(given, e, at) : [];
  const input = keyRequest(e, g, at, extra);
  return input ? [make(operation, input, 'primary')] : null;
}

function constantFromSchema(e: EntitySchema, field: string, given: Given, at: Span): boolean {
  const v = storedValue(e, field, given, at);
  return !!v?.fromSchema && v.value.kind === 'scalar' && v.value.template.parts.every((p) => 'literal' in p);
}

/**
 * TypeDORM calls as call sites: on an entity manager (`getEntityManager()`,
 * `connection.entityManager`, a field or variable holding one)
 * `create(item)`, `findOne(User, key)`, `exists(User, key)`, `delete(User, key)`,
 * `update(User, key, body)`, `find(User, partition, options)` and `count(...)`. The entity
 * is the class given (`User`, recorded with its `@Entity` decorator) or the instance's
 * class (`const user = new User(); user.id = ...; create(user)`). A create also writes the
 * partitions of the indexes its item fills, and an update those of the indexes whose
 * key it changes; where the schema alone fixes a key, the schema is the site
 * (`schema-sites.ts`).
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { librarySite } from '../library-sites';
import { candidateCalls } from '../../syntax/candidates';
import { newContext } from '../evaluation';
import type { Operation, Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { ConnectionReader, FrontEnd, SourceFile } from '../../model/frontend';
import { literalText } from '../../model/template';
import { entry, type Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { fixedBySchema, type Given } from './keys';
import { givenOf, incrementOf, indexWrite, keyRequest, keySchemaOf, putRequest, queryRequest } from './requests';
import { connectionTable, entitySchema, isManager, schemaRead, type EntitySchema, type KeySchema } from './schema';
import { schemaSites } from './schema-sites';

const METHODS: Record<string, Operation> = {
  create: 'PutItem',
  findOne: 'GetItem',
  exists: 'GetItem',
  delete: 'DeleteItem',
  update: 'UpdateItem',
  find: 'Query',
  count: 'Query',
};
const CALL = /\.\s*(?<name>create|findOne|exists|delete|update|find|count)\s*(?:<[^>()]*>\s*)?\(/g;
const CALLS = new Set(['call_expression']);
/** A receiver named like a manager (`this.entityManager`, `manager`), read where the file does not name TypeDORM. */
const MANAGER_NAME = /manager$/i;
/** The managers a connection holds (`connection.entityManager`). */
const MANAGER_MEMBERS = new Set(['entityManager', 'transactionManager', 'batchManager']);

/** A module that declares TypeDORM entities: its importers may call the entity manager with them. */
export function declaresTypeDormEntities(f: SourceFile): boolean {
  return f.text.includes('@typedorm/common') && /@Entity\s*\(/.test(f.text);
}

export function typeDormCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  const named = f.text.includes('typedorm');
  if (!named && !/manager/i.test(f.text)) return [];
  const ctx = () => newContext(fe.evaluate, f.lookups, null);
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, CALL, CALLS)) sites.push(...callSites(call, f, named, ctx()));
  if (named) sites.push(...schemaSites(f, ctx()));
  return sites;
}

function callSites(call: Node, f: SourceFile, named: boolean, ctx: EvalContext): CallSite[] {
  const written = call.childForFieldName('function');
  // `await manager.create<User>(user)`: tree-sitter puts the await around the callee of a generic call.
  const fn = written?.type === 'await_expression' ? written.namedChild(0) : written;
  const object = fn?.childForFieldName('object');
  const method = fn?.childForFieldName('property')?.text ?? '';
  const operation = METHODS[method];
  const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (a): a is Node => !!a && a.type !== 'comment',
  );
  // The entity (or the item) is a name: anything else is not evaluated.
  if (!object || !operation || (args[0]?.type !== 'identifier' && args[0]?.type !== 'new_expression')) return [];
  const receiverName = object.type === 'member_expression' ? object.childForFieldName('property')?.text : object.text;
  if (!named && !MANAGER_NAME.test(receiverName ?? '')) return [];
  const value = (n: Node | undefined) => (n ? (ctx.evaluate(n, ctx) ?? undefined) : undefined);
  const manager = connectionOf(managerOf(object, value), f, ctx);
  if (!manager && !MANAGER_NAME.test(receiverName ?? '')) return [];
  // `connection.scanManager.find(User, {})` scans: no key.
  if (manager?.kind === 'object' && manager.made?.calls?.some((c) => c.name === 'scanManager')) return [];
  const first = value(args[0]);
  const e = entitySchema(first, connectionTable(manager));
  if (!e) return [];
  const at = spanOf(call);
  const make = maker(e, call, f, method, object.text, at);
  if (method === 'create') return createSites(e, first, make, at, schemaRead(e, manager));
  const g = givenOf(value(args[1]));
  if (operation === 'Query') {
    const options = value(args[2]);
    const named = entry(options, 'queryIndex');
    const indexName = named?.kind === 'scalar' ? literalText(named.template) : null;
    if (named && indexName === null) return [];
    const key = indexName ? e.indexes.find((k) => k.name === indexName) : e.primary;
    const input = key ? queryRequest(e, key, g, options, at) : null;
    // A find reads page after page itself, up to its limit (3,000 items when none is given);
    // one given a cursor is a loop over the pages.
    const pages = !entry(options, 'limit') || !!entry(options, 'cursor');
    return input && key ? [{ ...make('Query', input, key), paginated: pages }] : [];
  }
  if (method === 'update') return updateSites(e, g, value(args[2]), make, at);
  const input = keyRequest(e, g, at);
  return input ? [make(operation, input, e.primary)] : [];
}

/** The manager a receiver holds, or the connection it is a member of (`connection.entityManager`). */
function managerOf(object: Node, value: (n: Node | undefined) => Value | undefined): Value | undefined {
  const v = value(object);
  if (isManager(v)) return v;
  const prop = object.type === 'member_expression' ? object.childForFieldName('property')?.text : null;
  if (!prop || !MANAGER_MEMBERS.has(prop)) return undefined;
  const connection = value(object.childForFieldName('object') ?? undefined);
  return isManager(connection) ? connection : undefined;
}

/** Where TypeDORM's `getEntityManager(name)` / `getConnection(name)` look a connection up by name. */
const LOOKUPS = new Set(['getEntityManager', 'getConnection']);
const CONNECTIONS = new WeakMap<Node, Value[]>();

/**
 * The connection a manager got by name belongs to (`getEntityManager()` is the `'default'`
 * connection's): the `createConnection({ name, table, entities })` of the same module giving
 * that name, as a script or a handler's bootstrap makes it before taking its manager. Else the
 * manager as it is (its table unknown).
 */
function connectionOf(manager: Value | undefined, f: SourceFile, ctx: EvalContext): Value | undefined {
  const m = manager?.kind === 'object' ? manager.made : undefined;
  if (!m || !LOOKUPS.has(m.name)) return manager;
  const asked = m.args[0] ? (m.args[0].kind === 'scalar' ? literalText(m.args[0].template) : null) : 'default';
  if (asked === null) return manager;
  const found = connectionsIn(f, ctx).filter((c) => connectionName(c) === asked);
  if (found.length === 1) return found[0];
  if (found.length > 1) return manager;
  // TypeDORM keeps connections for the whole process: one made in a bootstrap module or a class's method.
  const elsewhere = ctx.lookups.connection?.(asked) ?? undefined;
  return isManager(elsewhere) ? elsewhere : manager;
}

/** The name a connection is made under (`'default'` when none is given), or null when not read. */
function connectionName(c: Value): string | null {
  const given = c.kind === 'object' && c.made ? entry(c.made.args[0], 'name') : undefined;
  return given ? (given.kind === 'scalar' ? literalText(given.template) : null) : 'default';
}

/** The connections a module makes, by name, for the modules taking their managers by name (`Lookups.connection`). */
export const typeDormConnections: ConnectionReader = {
  mayHold: (text) => text.includes('createConnection') && text.includes('@typedorm/core'),
  read: (f, fe) =>
    connectionsIn(f, newContext(fe.evaluate, f.lookups, null)).flatMap((value) => {
      const name = connectionName(value);
      return name === null ? [] : [{ name, value }];
    }),
};

/** The connections the module makes (`createConnection({...})`, kept or not), read once per tree. */
function connectionsIn(f: SourceFile, ctx: EvalContext): Value[] {
  const root = f.tree.rootNode;
  let out = CONNECTIONS.get(root);
  if (out) return out;
  out = [];
  if (f.text.includes('createConnection'))
    for (const call of root.descendantsOfType('call_expression')) {
      const callee = call?.childForFieldName('function');
      if (callee?.type !== 'identifier' || callee.text !== 'createConnection') continue;
      const v = ctx.evaluate(call!, ctx) ?? undefined;
      if (isManager(v) && v?.kind === 'object' && v.made?.name === 'createConnection') out.push(v);
    }
  CONNECTIONS.set(root, out);
  return out;
}

type Make = (operation: Operation, input: Value, key: KeySchema, writes?: boolean) => CallSite;

function maker(e: EntitySchema, call: Node, f: SourceFile, callee: string, root: string, at: Span): Make {
  return (operation, input, key, writes) =>
    librarySite({
      f,
      operation,
      at,
      input,
      call: callStyle(call, f.text, 'v2-promise', callee, root),
      keySchema: keySchemaOf(e),
      library: {
        library: 'typedorm',
        entity: e.name,
        accessPattern: key.name,
        ...(writes ? { byIndex: Object.fromEntries(e.indexes.map((k) => [k.name, k.name])) } : {}),
        declaration: { file: e.file, span: key.span },
      },
    });
}

/**
 * A create: the item, and as sites of their own the index partitions it writes. A partition
 * the schema alone fixes is reported once, at the schema, where its site is read (`schemaRead`).
 */
function createSites(e: EntitySchema, item: Value | undefined, make: Make, at: Span, schema: boolean): CallSite[] {
  const put = putRequest(e, item, at);
  if (!put) return [];
  const g = givenOf(item);
  const sites = schema && fixedBySchema(e, e.primary, g) ? [] : [make('PutItem', put.input, e.primary, true)];
  for (const k of e.indexes) {
    const w = indexWrite(e, k, g, true, at);
    if (w && !(schema && fixedBySchema(e, k, g))) sites.push(make('PutItem', w.input, k));
  }
  return sites;
}

/** An update: the table's key, and the index partitions whose key the body changes. */
function updateSites(e: EntitySchema, key: Given, body: Value | undefined, make: Make, at: Span): CallSite[] {
  const input = keyRequest(e, key, at, incrementOf(body, at));
  if (!input) return [];
  const sites = [make('UpdateItem', input, e.primary, true)];
  const merged: Given = (name) => entry(body, name) ?? key(name);
  for (const k of e.indexes) {
    const names = [...k.partition.matchAll(/\{\{(.+?)\}\}/g)].map((m) => m[1].trim());
    if (!names.some((n) => entry(body, n))) continue;
    const w = indexWrite(e, k, merged, false, at);
    if (w) sites.push(make('PutItem', w.input, k));
  }
  return sites;
}

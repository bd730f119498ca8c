/**
 * ElectroDB calls as call sites: `E.get/put/create/upsert/update/patch/delete/remove(...)`,
 * `E.query.<pattern>(...)` with its sort-key method, batch forms (an array argument),
 * `service.entities.<name>...` and `service.collections.<name>(...)`, each ending in
 * `.go()` or `.params()`; and, where an entity is declared, the access patterns whose
 * partition key the schema alone makes one constant (`composite: []`).
 */
import { callStyle } from '../call-style';
import { librarySite } from '../library-sites';
import { candidateCalls } from '../../syntax/candidates';
import { newContext } from '../evaluation';
import type { Node } from 'web-tree-sitter';
import type { KeyOperator, Operation, Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import { entry, type Entry, type Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { chainOf, type Chain, type Step } from './chain';
import { compositesOf, keyRequest, patternDeclaration, putRequest, queryRequest, type SortRange } from './requests';
import { entitySchema, keySchemaOf, serviceEntities, type AccessPattern, type EntitySchema } from './schema';
import { constantPartition, schemaSites } from './schema-sites';
import { editSites } from './edit-sites';

const GO = /\.\s*(?<name>go|params)\s*\(/g;
const CALLS = new Set(['call_expression']);

/** Whether a file's text may hold an ElectroDB call or entity (a native search before any scan). */
export function mayUseElectroDb(text: string): boolean {
  return text.includes('.go(') || text.includes('.params(') || text.includes('electrodb');
}

export function electroDbCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  if (!mayUseElectroDb(f.text)) return [];
  const ctx = () => newContext(fe.evaluate, f.lookups, null);
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, GO, CALLS)) {
    const chain = chainOf(call);
    const site = chain ? siteOf(chain, f, ctx()) : null;
    if (site) sites.push(site);
  }
  if (f.text.includes('electrodb')) sites.push(...schemaSites(f, ctx()));
  return sites;
}

/** The entity (or a service's collection) a chain's root names, and the steps after it. */
function target(chain: Chain, ctx: EvalContext): { entity: EntitySchema; steps: Step[]; collection?: string } | null {
  const root = ctx.evaluate(chain.root, ctx) ?? undefined;
  const entity = entitySchema(root);
  if (entity) return { entity, steps: chain.steps };
  const members = serviceEntities(root);
  if (members.size === 0) return null;
  const [first, second, ...rest] = chain.steps;
  if (first?.name === 'entities' && second) {
    const e = members.get(second.name);
    return e ? { entity: e, steps: rest } : null;
  }
  if (first?.name === 'collections' && second?.args) {
    // The collection's pattern in the first member that declares it: they share its partition.
    for (const e of members.values()) {
      if (e.patterns.some((p) => p.collection === second.name))
        return { entity: e, steps: [{ ...second, name: 'collection' }, ...rest], collection: second.name };
    }
  }
  return null;
}

const SORT_METHODS: Record<string, KeyOperator> = {
  begins: 'begins_with',
  between: 'BETWEEN',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  eq: '=',
};
const KEY_METHODS: Record<string, Operation> = {
  get: 'GetItem',
  delete: 'DeleteItem',
  remove: 'DeleteItem',
  update: 'UpdateItem',
  patch: 'UpdateItem',
  put: 'PutItem',
  create: 'PutItem',
  upsert: 'UpdateItem',
};

function siteOf(chain: Chain, f: SourceFile, ctx: EvalContext): CallSite | null {
  const t = target(chain, ctx);
  if (!t) return null;
  const { entity, steps } = t;
  const [op, second] = steps;
  if (!op) return null;
  const at = spanOf(chain.end.node);
  const argValue = (s: Step | undefined, i = 0): Value | undefined =>
    s?.args?.[i] ? (ctx.evaluate(s.args[i], ctx) ?? undefined) : undefined;
  const options = argValue(chain.end);
  const pagesAll = (() => {
    const v = entry(options, 'pages');
    return v?.kind === 'scalar' && v.template.parts.some((p) => 'literal' in p && p.literal === 'all');
  })();
  const limit = entry(options, 'limit');
  const make = (
    operation: Operation,
    input: Value,
    p: AccessPattern,
    patternName = p.name,
    argument: Node | null = null,
  ): CallSite =>
    librarySite({
      f,
      operation,
      at,
      input,
      paginated: pagesAll,
      call: callStyle(chain.end.node, f.text, 'v2-promise', steps.map((s) => s.name).join('.'), chain.root.text),
      keySchema: keySchemaOf(entity),
      library: {
        library: 'electrodb',
        entity: t.collection ? `${t.collection} collection` : entity.entity,
        accessPattern: patternName,
        ...(operation === 'PutItem' || operation === 'BatchWriteItem'
          ? { byIndex: indexPatterns(entity), ...constantPartitions(entity) }
          : {}),
        declaration: { file: entity.file, span: patternDeclaration(entity, p).span },
        edit: editSites(entity, f.file, argument, chain.end),
      },
    });
  const primary = entity.patterns.find((p) => p.index === null) ?? entity.patterns[0];
  if (!primary) return null;

  if (op.name === 'query' && second?.args) {
    const p = entity.patterns.find((x) => x.name === second.name);
    if (!p) return null;
    const given = argValue(second);
    const input = queryRequest(
      entity,
      p,
      compositesOf(entity, given, false),
      sortRange(steps.slice(2), ctx),
      at,
      limitEntry(limit),
    );
    return make('Query', input, p, p.name, second.args[0] ?? null);
  }
  if (op.name === 'collection') {
    const p = entity.patterns.find((x) => x.collection === t.collection)!;
    const given = argValue(op);
    // A collection reads every member's items under the pattern's partition: the sort key's collection prefix.
    const input = queryRequest(entity, p, compositesOf(entity, given, false), null, at, limitEntry(limit));
    return make('Query', collectionPrefix(input, p, t.collection!), p, t.collection!, op.args?.[0] ?? null);
  }
  const operation = KEY_METHODS[op.name];
  if (!operation || !op.args) return null;
  const given = argValue(op);
  const write = operation !== 'GetItem';
  // An entity of another module: a default it fills stands at this call, not at its place in that module.
  const elsewhere = !!entity.file && entity.file !== f.file;
  if (given?.kind === 'array') return batchSite(entity, primary, operation, given, at, make, elsewhere);
  if (operation === 'PutItem')
    return make(
      'PutItem',
      putRequest(entity, compositesOf(entity, given, true, elsewhere ? at : undefined), given, at),
      primary,
      primary.name,
      op.args[0] ?? null,
    );
  const extra: Entry[] = steps.some((s) => s.name === 'add') ? incrementOf(steps, ctx, at) : [];
  return make(
    operation,
    keyRequest(
      entity,
      primary,
      compositesOf(entity, given, write && op.name === 'upsert', elsewhere ? at : undefined),
      at,
      extra,
    ),
    primary,
    primary.name,
    op.args[0] ?? null,
  );
}

/**
 * The partition key fields a write of the entity fills from the schema alone (`composite: []`):
 * the schema's own site reports them, the write is related to it (`rules/schema-default.ts`).
 */
function constantPartitions(e: EntitySchema): { defaulted?: string[] } {
  const fields = e.patterns.filter(constantPartition).map((p) => p.pk.field);
  return fields.length ? { defaulted: fields } : {};
}

/** `.between({ a }, { b })`, `.gt({ a })`, `.begins({ a })` after a query's pattern. */
function sortRange(steps: Step[], ctx: EvalContext): SortRange | null {
  const s = steps.find((x) => SORT_METHODS[x.name] && x.args);
  if (!s?.args) return null;
  const operands = s.args.map((a) => {
    const v = ctx.evaluate(a, ctx) ?? undefined;
    return (attr: string) => entry(v, attr);
  });
  return { operator: SORT_METHODS[s.name], operands };
}

function limitEntry(limit: Value | undefined): Entry[] {
  return limit ? [['Limit', limit]] : [];
}

/** `.add({ views: 1 })` on an update: `ADD #views :views`, so a counter reads as one. */
function incrementOf(steps: Step[], ctx: EvalContext, at: Span): Entry[] {
  const add = steps.find((s) => s.name === 'add' && s.args?.length);
  const v = add?.args ? ctx.evaluate(add.args[0], ctx) : null;
  if (v?.kind !== 'object' || v.entries.length === 0) return [];
  const [name, by] = v.entries[0];
  return [
    ['UpdateExpression', { kind: 'scalar', template: { parts: [{ literal: `ADD #${name} :${name}` }] }, span: at }],
    ['ExpressionAttributeValues', { kind: 'object', entries: [[`:${name}`, by]], span: at }],
  ];
}

/** A collection query's sort key is the collection's prefix (`$boards`), which every member's key begins with. */
function collectionPrefix(input: Value, p: AccessPattern, collection: string): Value {
  const values = entry(input, 'ExpressionAttributeValues');
  const sk = values?.kind === 'object' ? values.entries.find(([n]) => n === ':sk0') : undefined;
  if (!sk || sk[1].kind !== 'scalar' || !p.sk) return input;
  const casing = p.sk.casing;
  const head = `$${collection}`;
  const text = casing === 'lower' ? head.toLowerCase() : casing === 'upper' ? head.toUpperCase() : head;
  const origin = sk[1].template.parts[0]?.origin;
  sk[1] = { ...sk[1], template: { parts: [origin ? { literal: text, origin } : { literal: text }] } };
  return input;
}

/** `E.get([{...}, {...}])`, `E.put([...])`, `E.delete([...])`: one batch request of every item. */
function batchSite(
  entity: EntitySchema,
  p: AccessPattern,
  operation: Operation,
  items: Value & { kind: 'array' },
  at: Span,
  make: (operation: Operation, input: Value, p: AccessPattern) => CallSite,
  elsewhere: boolean,
): CallSite | null {
  const table = entity.table?.kind === 'scalar' ? entity.table : null;
  const name = table?.template.parts.every((x) => 'literal' in x)
    ? table.template.parts.map((x) => ('literal' in x ? x.literal : '')).join('')
    : '[table]';
  const requests: Value[] = items.items.map((it) => {
    if (operation === 'PutItem') {
      const values = compositesOf(entity, it, true, elsewhere ? it.span : undefined);
      const put = putRequest({ ...entity, table: undefined }, values, it, it.span);
      return { kind: 'object', entries: [['PutRequest', put]], span: it.span };
    }
    const key = entry(keyRequest({ ...entity, table: undefined }, p, compositesOf(entity, it, false), it.span), 'Key')!;
    return operation === 'GetItem'
      ? key
      : {
          kind: 'object',
          entries: [['DeleteRequest', { kind: 'object', entries: [['Key', key]], span: it.span }]],
          span: it.span,
        };
  });
  const list: Value = { kind: 'array', items: requests, span: items.span };
  const body: Value = operation === 'GetItem' ? { kind: 'object', entries: [['Keys', list]], span: at } : list;
  const input: Value = {
    kind: 'object',
    entries: [['RequestItems', { kind: 'object', entries: [[name, body]], span: at }]],
    span: at,
  };
  if (operation === 'UpdateItem') return null;
  return make(operation === 'GetItem' ? 'BatchGetItem' : 'BatchWriteItem', input, p);
}

/** The entity's access patterns by the index they are on (a put writes every one of them). */
function indexPatterns(e: EntitySchema): Record<string, string> {
  return Object.fromEntries(e.patterns.flatMap((p) => (p.index ? [[p.index, p.name]] : [])));
}

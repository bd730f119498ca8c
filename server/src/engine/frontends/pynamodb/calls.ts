/**
 * PynamoDB calls as call sites: on a model `Thread.get(h, r)`, `Thread.query(h,
 * range_key_condition, ...)`, `Thread.count(h, ...)`, `Thread.batch_get([...])`; on an
 * index `Thread.status_index.query(v)` / `.count(v)`; on an instance `save()`,
 * `update(actions=[...])`, `delete()`, `refresh()`; in a batch `batch.save(item)` /
 * `batch.delete(item)`. Scans read no key and are not sites.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { librarySite } from '../library-sites';
import { candidateCalls } from '../../syntax/candidates';
import { newContext } from '../evaluation';
import type { Operation, Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import type { Entry, Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { mayDeclarePythonModels } from '../../model/libraries';
import { actionsOf } from './actions';
import { argAt, batchOf, indexAt, instanceOf, keysGiven, modelAt, type Instance } from './instances';
import { rangeCondition } from './conditions';
import {
  constantDefaults,
  keyObject,
  keyRequest,
  obj,
  putRequest,
  queryRequest,
  str,
  item,
  tableKey,
  type Values,
} from './requests';
import { keySchemaOf, modelKeys, type AttributeSchema, type IndexSchema, type ModelSchema } from './schema';
import { schemaSites } from './schema-sites';

const METHODS = /\.\s*(?<name>get|query|count|batch_get|save|update|delete|refresh)\s*\(/g;
const CALLS = new Set(['call']);
/** Writes: each writes the partitions of the model's indexes keyed by what it sets. */
const WRITES = new Set<Operation>(['PutItem', 'UpdateItem', 'BatchWriteItem']);

const CLASS_WITH_BASE = /\bclass\s+\w+\s*\(/;

/**
 * A module that may declare a model (it imports PynamoDB, or calls attribute classes its project's
 * base module passes on) and declares a class on a base: its importers may call the model.
 */
export function declaresPynamoDbModels(f: SourceFile): boolean {
  return mayDeclarePythonModels(f.text) && CLASS_WITH_BASE.test(f.text);
}

export function pynamoDbCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  const ctx = () => newContext(fe.evaluate, f.lookups, null);
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, METHODS, CALLS)) {
    const site = siteOf(call, f, fe, ctx());
    if (site) sites.push(site);
  }
  if (mayDeclarePythonModels(f.text)) sites.push(...schemaSites(f, ctx()));
  return sites;
}

interface Target {
  model: ModelSchema;
  index: IndexSchema | null;
}

function siteOf(call: Node, f: SourceFile, fe: FrontEnd, ctx: EvalContext): CallSite | null {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'attribute') return null;
  const method = fn.childForFieldName('attribute')?.text ?? '';
  const recv = fn.childForFieldName('object');
  const at = spanOf(call);
  const make = (operation: Operation, input: Value, t: Target, paginated = false, defaulted: string[] = []): CallSite =>
    librarySite({
      f,
      operation,
      sdk: 'boto3-resource',
      at,
      input,
      paginated,
      call: callStyle(call, f.text, 'boto3-table', method, recv?.text ?? null),
      keySchema: keySchemaOf(t.model),
      library: {
        library: 'pynamodb',
        entity: t.model.name,
        accessPattern: t.index?.name ?? '',
        ...(WRITES.has(operation) ? { byIndex: byIndex(t.model) } : {}),
        declaration: { file: (t.index?.hash ?? t.model.hash).file, span: (t.index?.hash ?? t.model.hash).span },
        model: modelKeys(t.model, t.index, f.file),
        ...(defaulted.length ? { defaulted } : {}),
      },
    });
  const value = (n: Node | null): Value | undefined => (n ? (ctx.evaluate(n, ctx) ?? undefined) : undefined);

  // On the model class, or on one of its indexes.
  const onIndex = method === 'query' || method === 'count' ? indexAt(recv, ctx) : null;
  const model = onIndex ? null : modelAt(recv, ctx);
  if (onIndex || model) {
    const t: Target = onIndex ?? { model: model!, index: null };
    if (method === 'get' && !onIndex) {
      const given = keysGiven(call, t.model, 'hash_key', 'range_key', ctx);
      return make('GetItem', keyRequest(t.model, valuesOf(given), at), t);
    }
    if (method === 'query' || method === 'count') {
      const hash = argAt(call, 0, 'hash_key');
      if (!hash) return null;
      // \`Notification.count(Notification.status == "UNREAD")\`: a condition where the hash key's value
      // belongs, which PynamoDB cannot send as a key; no key to judge (not a status partition).
      if (hash.type === 'comparison_operator' || hash.type === 'boolean_operator') return null;
      // `Thread.query(h, index_name="...")`: the index by its name.
      const named = onIndex ? null : indexNamed(t.model, value(argAt(call, -1, 'index_name')));
      const target: Target = named ? { model: t.model, index: named } : t;
      const keys = target.index ?? { hash: t.model.hash, range: t.model.range };
      const extra: Entry[] = [];
      const limit = argAt(call, -1, 'limit');
      if (limit) extra.push(['Limit', value(limit)!]);
      const forward = argAt(call, -1, 'scan_index_forward');
      if (forward) extra.push(['ScanIndexForward', value(forward)!]);
      if (method === 'count') extra.push(['Select', str('COUNT', at)]);
      const input = queryRequest(
        t.model,
        keys.hash,
        keys.range,
        value(hash),
        rangeCondition(argAt(call, 1, 'range_key_condition'), keys.range, ctx),
        target.index?.indexName ?? null,
        at,
        extra,
      );
      // PynamoDB's result iterator reads page after page.
      return make('Query', input, target, true);
    }
    if (method === 'batch_get' && !onIndex) return batchGet(call, t, at, make, ctx);
    return null;
  }

  // In a batch: `batch.save(Thread(...))`, `batch.delete(thread)`.
  if (method === 'save' || method === 'delete') {
    const batch = batchOf(recv, ctx, fe);
    if (batch) {
      const inst = instanceOf(argAt(call, 0, null), ctx, fe);
      if (!inst || inst.model.name !== batch.name) return null;
      const request: Value =
        method === 'save'
          ? obj([['PutRequest', obj([['Item', item(inst.model, inst.given, at)]], at)]], at)
          : obj([['DeleteRequest', obj([['Key', keyObject(inst.model, valuesOf(inst.given), at)]], at)]], at);
      const input = obj(
        [['RequestItems', obj([[tableKey(batch), { kind: 'array', items: [request], span: at }]], at)]],
        at,
      );
      const defaulted = method === 'save' ? constantDefaults(inst.model, inst.given) : [];
      return make('BatchWriteItem', input, { model: batch, index: null }, false, defaulted);
    }
  }

  // On an instance.
  if (!/^(save|update|delete|refresh)$/.test(method)) return null;
  const inst = instanceOf(recv, ctx, fe);
  if (!inst) return null;
  return instanceSite(method, inst, call, at, make, ctx);
}

function instanceSite(
  method: string,
  inst: Instance,
  call: Node,
  at: Span,
  make: (operation: Operation, input: Value, t: Target, paginated?: boolean, defaulted?: string[]) => CallSite,
  ctx: EvalContext,
): CallSite | null {
  const t: Target = { model: inst.model, index: null };
  const values = valuesOf(inst.given);
  switch (method) {
    case 'save':
      return make(
        'PutItem',
        putRequest(inst.model, inst.given, at),
        t,
        false,
        constantDefaults(inst.model, inst.given),
      );
    case 'delete':
      return make('DeleteItem', keyRequest(inst.model, values, at), t);
    case 'refresh':
      return make('GetItem', keyRequest(inst.model, values, at), t);
    case 'update':
      return make(
        'UpdateItem',
        keyRequest(inst.model, values, at, actionsOf(argAt(call, 0, 'actions'), inst.model, at, ctx)),
        t,
      );
  }
  return null;
}

/** `Thread.batch_get([("a", "b"), ...])` (a hash key alone for a model without a range key). */
function batchGet(
  call: Node,
  t: Target,
  at: Span,
  make: (operation: Operation, input: Value, t: Target) => CallSite,
  ctx: EvalContext,
): CallSite | null {
  const items = argAt(call, 0, 'items');
  // `[(forum, s) for s in subjects]`: the element, read once.
  const element = items?.type === 'list_comprehension' ? items.childForFieldName('body') : null;
  const read = element ? ctx.evaluate(element, ctx) : items ? ctx.evaluate(items, ctx) : null;
  const v: Value | null = element && read ? { kind: 'array', items: [read], span: read.span } : read;
  if (v?.kind !== 'array') return null;
  const m = t.model;
  const keys: Value[] = v.items.map((it) => {
    const parts = it.kind === 'array' ? it.items : [it];
    return keyObject(
      m,
      (a) => (a === m.hash.name ? parts[0] : m.range && a === m.range.name ? parts[1] : undefined),
      it.span,
    );
  });
  const input = obj(
    [['RequestItems', obj([[tableKey(m), obj([['Keys', { kind: 'array', items: keys, span: at }]], at)]], at)]],
    at,
  );
  return make('BatchGetItem', input, t);
}

function valuesOf(given: Array<[string, Value]>): Values {
  return (a) => given.find(([n]) => n === a)?.[1];
}

function indexNamed(m: ModelSchema, v: Value | undefined): IndexSchema | null {
  const name =
    v?.kind === 'scalar' && v.template.parts.every((p) => 'literal' in p)
      ? v.template.parts.map((p) => ('literal' in p ? p.literal : '')).join('')
      : null;
  if (name === null) return null;
  for (const ix of m.indexes.values()) if (ix.indexName === name) return ix;
  return null;
}

/** The model's indexes by index name: a put writes each of their partitions. */
function byIndex(m: ModelSchema): Record<string, string> {
  return Object.fromEntries([...m.indexes.values()].map((ix) => [ix.indexName, ix.name]));
}

export type { AttributeSchema };

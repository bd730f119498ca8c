/**
 * dynamoose calls as call sites: on a model `get(key)`, `create(item)`, `update(key,
 * update)`, `delete(key)`, `batchGet/batchPut/batchDelete([...])`, the same through
 * `Model.transaction.<op>(...)`, and `query(...)...exec()` (a scan reads no key); on an
 * instance (`new Cat({...})`) `save()` and `delete()`. Where the schema alone fixes a
 * hash key (a constant `default`), the declaration is a site of its own.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { librarySite } from '../library-sites';
import { capitalBefore, someDottedCall, wordBeforeEndsWith } from '../model-calls';
import { candidateCalls } from '../../syntax/candidates';
import { newContext } from '../evaluation';
import type { Operation, Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import type { Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { argsOf, chainOf, throughBuilder } from '../call-chain';
import { queryInput, readsAll } from './query';
import {
  batchRequest,
  constantDefaults,
  keyObject,
  keyRequest,
  obj,
  putRequest,
  item,
  updateRequest,
  valuesOf,
  type Values,
} from './requests';
import { keySchemaOf, modelOf, type ModelSchema } from './schema';
import { schemaSites } from './schema-sites';

const METHODS = /\.\s*(?<name>get|create|update|delete|batchGet|batchPut|batchDelete|save|exec)\s*(?:<[^>()]*>\s*)?\(/g;
const CALLS = new Set(['call_expression']);
/** A dotted call a model may answer: `.get`, `.query`, `.batchPut`…, or `.save(` on any receiver. */
const MODEL_METHOD = /\.(?:(?<save>save\s*\()|\s*(?:get|create|update|delete|batch\w+|query|scan|transaction)\b)/g;

/** A file naming no dynamoose may still call a model it imports: `Cat.get(...)`, `userModel.query(...)`, `cat.save()`. */
export function callsModel(text: string): boolean {
  return someDottedCall(
    text,
    MODEL_METHOD,
    (m) => !!m.groups?.save || capitalBefore(text, m.index) || wordBeforeEndsWith(text, m.index, 'Model'),
  );
}
/** Receivers worth evaluating in such a file: named like a model. */
const MODEL_NAME = /^(?:[A-Z]\w*|\w*Model)$/;

const ON_MODEL: Record<string, Operation> = {
  get: 'GetItem',
  create: 'PutItem',
  update: 'UpdateItem',
  delete: 'DeleteItem',
  batchGet: 'BatchGetItem',
  batchPut: 'BatchWriteItem',
  batchDelete: 'BatchWriteItem',
};

/** A module that names dynamoose and declares a model by a call: its importers call the model. */
export function declaresDynamooseModels(f: SourceFile): boolean {
  return f.text.includes('dynamoose') && /\bmodel\s*(?:<[^>()]*>\s*)?\(/.test(f.text);
}

export function dynamooseCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  const named = f.text.includes('dynamoose');
  if (!named && !callsModel(f.text)) return [];
  const ctx = () => newContext(fe.evaluate, f.lookups, null);
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, METHODS, CALLS)) {
    const site = siteOf(call, f, named, ctx());
    if (site) sites.push(site);
  }
  if (named) sites.push(...schemaSites(f, ctx()));
  return sites;
}

function siteOf(call: Node, f: SourceFile, named: boolean, ctx: EvalContext): CallSite | null {
  const fn = call.childForFieldName('function');
  const method = fn?.childForFieldName('property')?.text ?? '';
  const recv = fn?.type === 'member_expression' ? fn.childForFieldName('object') : null;
  if (!recv) return null;
  const at = spanOf(call);
  const evaluate = (n: Node | null | undefined) => (n ? (ctx.evaluate(n, ctx) ?? undefined) : undefined);
  const worth = (n: Node) => named || MODEL_NAME.test(n.type === 'member_expression' ? nameOf(n) : n.text);
  const make = (m: ModelSchema, operation: Operation, input: Value, paginated = false, defaulted: string[] = []) =>
    site(m, operation, input, call, f, method, recv.text, at, paginated, defaulted);

  if (method === 'exec') {
    const written = chainOf(call);
    // `const q = Cat.query("status").eq("OPEN"); q.limit(20).exec()`: the chain goes on from the query the variable holds.
    const chain = written && written.steps[0]?.name !== 'query' ? (throughBuilder(written) ?? written) : written;
    const first = chain?.steps[0];
    // A scan reads no key: not a site.
    if (!chain || first?.name !== 'query' || !worth(chain.root)) return null;
    const m = modelOf(evaluate(chain.root));
    if (!m || m.item) return null;
    const input = queryInput(m.model, chain.steps, ctx, at);
    return input ? make(m.model, 'Query', input, readsAll(chain.steps)) : null;
  }

  const args = argsOf(call);
  // `Cat.transaction.create(...)`: the request the transaction carries.
  const onTransaction = recv.type === 'member_expression' && nameOf(recv) === 'transaction';
  const target = onTransaction ? recv.childForFieldName('object') : recv;
  if (!target) return null;
  const onInstance = method === 'save' || (method === 'delete' && args.length === 0);
  if (target.type !== 'new_expression' && !onInstance && !worth(target)) return null;
  const found = modelOf(evaluate(target));
  if (!found) return null;
  const m = found.model;
  if (found.item) {
    const values = valuesOf(m, found.item);
    if (method === 'save') return make(m, 'PutItem', putRequest(m, values, at), false, constantDefaults(m, values));
    if (method === 'delete') return make(m, 'DeleteItem', keyRequest(m, values, at));
    return null;
  }
  const operation = ON_MODEL[method];
  if (!operation || args.length === 0) return null;
  const first = evaluate(args[0]);
  switch (method) {
    case 'get':
    case 'delete':
      return make(m, operation, keyRequest(m, valuesOf(m, first), at));
    case 'create': {
      const values = valuesOf(m, first);
      return make(m, operation, putRequest(m, values, at), false, constantDefaults(m, values));
    }
    case 'update':
      return make(m, operation, updateRequest(m, first, evaluate(args[1]), at));
  }
  // Batches: each element a key or an item.
  if (first?.kind !== 'array') return null;
  const each = (fn: (v: Values, span: Span) => Value) => first.items.map((v) => fn(valuesOf(m, v), v.span));
  const requests: Value =
    method === 'batchGet'
      ? obj([['Keys', { kind: 'array', items: each((v, s) => keyObject(m, v, s)), span: at }]], at)
      : {
          kind: 'array',
          items: each((v, s) =>
            method === 'batchPut'
              ? obj([['PutRequest', obj([['Item', item(m, v, s)]], s)]], s)
              : obj([['DeleteRequest', obj([['Key', keyObject(m, v, s)]], s)]], s),
          ),
          span: at,
        };
  // A batch put leaves a key to its default where every item does.
  const defaulted =
    method === 'batchPut' && first.items.length
      ? first.items
          .map((v) => constantDefaults(m, valuesOf(m, v)))
          .reduce((all, one) => all.filter((n) => one.includes(n)))
      : [];
  return make(m, operation, batchRequest(m, requests, at), false, defaulted);
}

const nameOf = (member: Node) => member.childForFieldName('property')?.text ?? '';

function site(
  m: ModelSchema,
  operation: Operation,
  input: Value,
  call: Node,
  f: SourceFile,
  method: string,
  receiver: string,
  at: Span,
  paginated: boolean,
  defaulted: string[],
): CallSite {
  const index = operation === 'Query' ? indexOf(input) : null;
  const declared = index ? m.indexes.find((i) => i.name === index)?.attribute : m.hash;
  return librarySite({
    f,
    operation,
    at,
    input,
    paginated,
    call: callStyle(call, f.text, 'v2-promise', method, receiver),
    keySchema: keySchemaOf(m),
    library: {
      library: 'dynamoose',
      entity: m.name,
      accessPattern: index ?? '',
      ...(operation === 'PutItem' || operation === 'UpdateItem' || operation === 'BatchWriteItem'
        ? { byIndex: Object.fromEntries(m.indexes.map((i) => [i.name, i.name])) }
        : {}),
      declaration: { file: m.file, span: m.attributes.get(declared ?? m.hash)?.span ?? m.nameSpan },
      ...(defaulted.length ? { defaulted } : {}),
    },
  });
}

function indexOf(input: Value): string | null {
  if (input.kind !== 'object') return null;
  const v = input.entries.find(([n]) => n === 'IndexName')?.[1];
  return v?.kind === 'scalar' && v.template.parts.length === 1 && 'literal' in v.template.parts[0]
    ? v.template.parts[0].literal
    : null;
}

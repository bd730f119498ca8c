import type { Node } from 'web-tree-sitter';
import { deeper, newContext, soleHole } from '../evaluation';
import { type Deps, type EvalContext, type Lookups } from '../../model/eval-context';
import { isRequest, tableRefOf } from '../../requests/interpret';
import { type CallSite } from '../../model/call-site';
import { callStyle } from '../call-style';
import type { CallStyle, Operation, SdkStyle, TableRef } from '../../model';
import { candidateSites } from '../../syntax/candidates';
import type { SourceFile } from '../../model/frontend';
import { spanOf } from '../../syntax/span';
import { literalText } from '../../model/template';
import { entry, type Value } from '../../model/value';
import { forgetTree } from './bindings';
import { evaluate } from './evaluate';
import { kwargsValue } from './structures';
import { argumentAt, argumentSources } from './argument-sources';
import { attributeValueNode, methodNode } from './class-members';
import { resolve } from './scope';

/** Methods of a boto3 `Table` resource (the batch writer has `put_item` and `delete_item`). */
const TABLE_METHODS: Record<string, Operation> = {
  put_item: 'PutItem',
  get_item: 'GetItem',
  update_item: 'UpdateItem',
  delete_item: 'DeleteItem',
  query: 'Query',
};

/** Methods only the low-level client (and, for batches, the service resource) has. */
const CLIENT_METHODS: Record<string, Operation> = {
  batch_write_item: 'BatchWriteItem',
  batch_get_item: 'BatchGetItem',
  transact_write_items: 'TransactWriteItems',
  transact_get_items: 'TransactGetItems',
  execute_statement: 'ExecuteStatement',
};

/** What a method's receiver turned out to be. */
type Receiver =
  | { kind: 'table'; table: TableRef }
  | { kind: 'batch'; table: TableRef }
  | { kind: 'client' }
  | { kind: 'resource' }
  | { kind: 'paginator'; operation: string }
  | { kind: 'unresolved' };

const UNRESOLVED: Receiver = { kind: 'unresolved' };

/** The service a `boto3.client("dynamodb")` / `session.resource(service_name="dynamodb")` call names. */
function serviceOf(call: Node, ctx: EvalContext): string | null {
  const v = evaluate(argumentAt(call, 0, 'service_name'), ctx);
  return v?.kind === 'scalar' ? literalText(v.template) : null;
}

/** Follows a receiver expression to the boto3 object it was made from, within the ctx budget. */
function receiverOf(n: Node | null, ctx: EvalContext): Receiver {
  const next = n ? deeper(ctx) : null;
  if (!n || !next) return UNRESOLVED;
  switch (n.type) {
    case 'parenthesized_expression':
    case 'await':
      return receiverOf(n.namedChild(0), next);
    case 'identifier':
      return identifierReceiver(n, next);
    case 'attribute': {
      if (
        n.childForFieldName('attribute')?.text === 'client' &&
        /\.meta$/.test(n.childForFieldName('object')?.text ?? '')
      ) {
        return { kind: 'client' };
      }
      const assigned = attributeValueNode(n, ctx);
      if (assigned) return receiverOf(assigned, next);
      // `db.boards` after `from app import db` (or `import db`): a table another module made.
      const owner = n.childForFieldName('object');
      return owner?.type === 'identifier' && resolve(owner, ctx)?.kind === 'import'
        ? importedTable(n, next)
        : UNRESOLVED;
    }
    case 'call':
      return callReceiver(n, next);
    default:
      return UNRESOLVED;
  }
}

function identifierReceiver(n: Node, ctx: EvalContext): Receiver {
  const b = resolve(n, ctx);
  if (b?.kind === 'value' || b?.kind === 'with') return receiverOf(b.node, ctx);
  if (b?.kind === 'import') return importedTable(n, ctx);
  if (b?.kind === 'function') return returnedReceiver(b.node, ctx);
  // `def save(table, item)` called as `save(dynamodb.Table("x"), item)`.
  for (const source of b?.kind === 'param' ? argumentSources(b.fn, b.param) : []) {
    const got = source.element ? UNRESOLVED : receiverOf(source.node, ctx);
    if (got.kind !== 'unresolved') return got;
  }
  return UNRESOLVED;
}

/** `from db import boards` where db.py has `boards = dynamodb.Table("boards")`: the table the module made. */
function importedTable(n: Node, ctx: EvalContext): Receiver {
  const made = entry(evaluate(n, ctx) ?? undefined, 'table_name');
  return made ? { kind: 'table', table: tableRefOf(made) } : UNRESOLVED;
}

function callReceiver(call: Node, ctx: EvalContext): Receiver {
  const fn = call.childForFieldName('function');
  const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.text;
  switch (name) {
    case 'Table':
      return { kind: 'table', table: tableRefOf(tableName(argumentAt(call, 0, 'name'), ctx)) };
    case 'batch_writer': {
      const owner = receiverOf(fn?.childForFieldName('object') ?? null, ctx);
      return { kind: 'batch', table: owner.kind === 'table' ? owner.table : { kind: 'unknown' } };
    }
    case 'client':
    case 'resource':
      return serviceOf(call, ctx) === 'dynamodb' ? { kind: name } : UNRESOLVED;
    case 'get_paginator': {
      const op = evaluate(argumentAt(call, 0, 'operation_name'), ctx);
      return { kind: 'paginator', operation: (op?.kind === 'scalar' ? literalText(op.template) : null) ?? '?' };
    }
  }
  // A factory of this workspace (`create_connection("chat")`, here or imported) returning a
  // `Table`: read for this call, with its arguments.
  const made = entry(evaluate(call, ctx) ?? undefined, 'table_name');
  if (made) return { kind: 'table', table: tableRefOf(made) };
  if (fn?.type === 'identifier') return identifierReceiver(fn, ctx);
  const own = fn?.type === 'attribute' ? methodNode(fn) : null;
  return own ? returnedReceiver(own, ctx) : UNRESOLVED;
}

/**
 * A `Table(name)` argument's value. A parameter no call in the file gives a value
 * (`def __init__(self, table_name="boards")`) names the table by its default: a
 * table is chosen once, where the class or helper is written, unlike a key.
 */
function tableName(arg: Node | null, ctx: EvalContext): Value | null {
  const v = evaluate(arg, ctx);
  const b = arg?.type === 'identifier' && v && soleHole(v)?.param ? resolve(arg, ctx) : null;
  const fallback = b?.kind === 'param' && b.param.default?.type !== 'none' ? b.param.default : null;
  return fallback ? (evaluate(fallback, ctx) ?? v) : v;
}

/** `def get_table(): return dynamodb.Table("x")`: the receiver a helper returns. */
function returnedReceiver(fn: Node, ctx: EvalContext): Receiver {
  for (const r of fn.descendantsOfType('return_statement')) {
    const got = receiverOf(r?.namedChild(0) ?? null, ctx);
    if (got.kind !== 'unresolved') return got;
  }
  return UNRESOLVED;
}

/** Whether an input uses the low-level client's typed values (`{"S": "x"}`). */
function usesAttributeValues(v: Value | undefined, depth = 0): boolean {
  if (!v || depth > 6) return false;
  if (v.kind === 'object') {
    if (v.entries.length === 1 && /^(S|N|B|BOOL|M|L|SS|NS|BS|NULL)$/.test(v.entries[0][0])) return true;
    return v.entries.some(([, x]) => usesAttributeValues(x, depth + 1));
  }
  return v.kind === 'array' && v.items.some((x) => usesAttributeValues(x, depth + 1));
}

/** A query reading page after page: inside a loop that follows `LastEvaluatedKey`. */
function inPagingLoop(n: Node): boolean {
  for (let p = n.parent; p && p.type !== 'function_definition' && p.type !== 'module'; p = p.parent) {
    if ((p.type === 'while_statement' || p.type === 'for_statement') && p.text.includes('LastEvaluatedKey'))
      return true;
  }
  return false;
}

interface Recognised {
  operation: Operation;
  sdk: SdkStyle;
  table: TableRef;
  paginated: boolean;
}

/** Decides whether `recv.method(**input)` is a DynamoDB call, and which. */
function recognise(method: string, recv: Receiver, input: Value): Recognised | null {
  const unknownTable: TableRef = { kind: 'unknown' };
  const known = recv.kind !== 'unresolved';
  if (method === 'paginate') {
    const isQuery =
      recv.kind === 'paginator'
        ? recv.operation === 'query'
        : !!entry(input, 'KeyConditionExpression') && !!entry(input, 'TableName');
    return isQuery ? { operation: 'Query', sdk: 'boto3-client', table: unknownTable, paginated: true } : null;
  }
  const tableOp = TABLE_METHODS[method];
  const clientOp = CLIENT_METHODS[method];
  const operation = tableOp ?? clientOp;
  if (!operation || recv.kind === 'paginator') return null;
  if (recv.kind === 'batch') {
    return operation === 'PutItem' || operation === 'DeleteItem'
      ? { operation, sdk: 'boto3-resource', table: recv.table, paginated: false }
      : null;
  }
  if (recv.kind === 'table')
    return tableOp ? { operation, sdk: 'boto3-resource', table: recv.table, paginated: false } : null;
  if (recv.kind === 'resource') {
    return operation === 'BatchWriteItem' || operation === 'BatchGetItem'
      ? { operation, sdk: 'boto3-resource', table: unknownTable, paginated: false }
      : null;
  }
  if (!known && !isRequest(operation, input)) return null;
  const client =
    recv.kind === 'client' ||
    !!entry(input, 'TableName') ||
    usesAttributeValues(input) ||
    operation.startsWith('Transact');
  return { operation, sdk: client ? 'boto3-client' : 'boto3-resource', table: unknownTable, paginated: false };
}

/** Where a boto3 call can start: `.put_item(`, `.query(`, `.paginate(`, ... */
export const CALL_START = new RegExp(
  String.raw`\.\s*(?<name>` +
    [...Object.keys(TABLE_METHODS), ...Object.keys(CLIENT_METHODS), 'paginate'].join('|') +
    String.raw`)\s*\(`,
  'g',
);
const CALL_TYPES = new Set(['call']);

/** Finds every boto3 DynamoDB data-plane call in a Python tree. */
export function findPythonCallSites(f: SourceFile): CallSite[] {
  const { tree, text, file, cache, lookups } = f;
  forgetTree(tree);
  const cachedCallSite = (n: Node, at: number) =>
    cache
      ? cache.siteFor(n, (deps) => readCallSite(n, text, file, lookups, deps), at)
      : readCallSite(n, text, file, lookups, null);
  return candidateSites(
    tree,
    text,
    CALL_START,
    CALL_TYPES,
    cachedCallSite,
    cache && ((at) => cache.known(at)),
    cache?.names,
  );
}

/** The call site a candidate node is, or null when it is not a boto3 DynamoDB call. */
function readCallSite(n: Node, text: string, file: string, lookups: Lookups, deps: Deps | null): CallSite | null {
  const fn = n.childForFieldName('function');
  if (fn?.type !== 'attribute') return null;
  const method = fn.childForFieldName('attribute')?.text ?? '';
  if (!TABLE_METHODS[method] && !CLIENT_METHODS[method] && method !== 'paginate') return null;
  const ctx = newContext(evaluate, lookups, deps);
  const input = kwargsValue(n, ctx);
  const recv = receiverOf(fn.childForFieldName('object'), ctx);
  const found = recognise(method, recv, input);
  if (!found) return null;
  // A `Table` whose making is not followed: the receiver is what names it.
  const receiver = fn.childForFieldName('object');
  if (found.table.kind === 'unknown' && recv.kind === 'unresolved' && receiver)
    found.table = { kind: 'unknown', source: receiver.text.slice(0, 80) };
  const paginated =
    found.paginated || !!entry(input, 'ExclusiveStartKey') || (found.operation === 'Query' && inPagingLoop(n));
  const field = found.table.kind === 'unknown' ? tableField(receiver, input, ctx) : null;
  return {
    file,
    language: 'python',
    operation: found.operation,
    sdk: found.sdk,
    span: spanOf(n),
    input,
    table: found.table,
    paginated,
    paginator: method === 'paginate',
    call: callStyle(n, text, FORMS[recv.kind], method, fn.childForFieldName('object')?.text ?? null),
    ...(field ? { tableField: field } : {}),
  };
}

/**
 * `self._table.put_item(...)`, `client.put_item(TableName=self.table_name, ...)`, or a table
 * made from a field's name where the request is sent (`table = self._get_db_handler(self.table_name)`,
 * `dynamodb.Table(self.table_name).put_item(...)`): the field a table not read comes from.
 */
function tableField(receiver: Node | null, input: Value, ctx: EvalContext): string | null {
  if (receiver?.type === 'attribute' && receiver.childForFieldName('object')?.text === 'self')
    return receiver.childForFieldName('attribute')?.text ?? null;
  const b = receiver?.type === 'identifier' ? resolve(receiver, ctx) : null;
  const made = b?.kind === 'value' ? b.node : receiver;
  const given = made?.type === 'call' ? fieldsGiven(made) : [];
  if (given.length === 1) return given[0];
  const name = entry(input, 'TableName');
  const parts = name?.kind === 'scalar' ? name.template.parts : [];
  const source = parts.length === 1 && 'hole' in parts[0] ? parts[0].hole.source : '';
  return /^self\.(\w+)$/.exec(source ?? '')?.[1] ?? null;
}

/** The fields a call is given (`self.table_name` of `self._get_db_handler(self.table_name)`). */
function fieldsGiven(call: Node): string[] {
  const out = new Set<string>();
  for (const a of call.childForFieldName('arguments')?.namedChildren ?? []) {
    const v = a?.type === 'keyword_argument' ? a.childForFieldName('value') : a;
    if (v?.type === 'attribute' && v.childForFieldName('object')?.text === 'self')
      out.add(v.childForFieldName('attribute')?.text ?? '');
  }
  return [...out].filter(Boolean);
}

/** How a boto3 call is written, by what its receiver is. */
const FORMS: Record<Receiver['kind'], CallStyle['form']> = {
  table: 'boto3-table',
  batch: 'boto3-batch-writer',
  client: 'boto3-client',
  resource: 'boto3-client',
  paginator: 'boto3-paginator',
  unresolved: 'boto3-table',
};

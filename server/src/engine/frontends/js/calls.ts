import type { Node } from 'web-tree-sitter';
import { declarationOf, newContext, recordRange } from '../evaluation';
import { type Deps, type Lookups } from '../../model/eval-context';
import { isRequest } from '../../requests/interpret';
import { type CallSite } from '../../model/call-site';
import type { CallStyle, Operation, SdkStyle, SourceLanguage } from '../../model';
import { callStyle } from '../call-style';
import { candidateSites } from '../../syntax/candidates';
import type { SourceFile } from '../../model/frontend';
import { spanOf } from '../../syntax/span';
import { entry, entryOf, type Entry, type Value } from '../../model/value';
import { through } from '../../model/template';
import { constructorDefault, fieldInitializerNamed } from './fields';
import { evaluate } from './evaluate';
import { commandChoices, methodChoice, type Choices, type Picked } from './dispatch';
import { resolve } from './scope';

/** SDK v3 command classes; `QueryCommand` exists in both packages. */
const COMMANDS: Record<string, [Operation, 'client' | 'lib' | 'either']> = {
  PutItemCommand: ['PutItem', 'client'],
  GetItemCommand: ['GetItem', 'client'],
  UpdateItemCommand: ['UpdateItem', 'client'],
  DeleteItemCommand: ['DeleteItem', 'client'],
  BatchWriteItemCommand: ['BatchWriteItem', 'client'],
  BatchGetItemCommand: ['BatchGetItem', 'client'],
  TransactWriteItemsCommand: ['TransactWriteItems', 'client'],
  TransactGetItemsCommand: ['TransactGetItems', 'client'],
  QueryCommand: ['Query', 'either'],
  ExecuteStatementCommand: ['ExecuteStatement', 'either'],
  PutCommand: ['PutItem', 'lib'],
  GetCommand: ['GetItem', 'lib'],
  UpdateCommand: ['UpdateItem', 'lib'],
  DeleteCommand: ['DeleteItem', 'lib'],
  BatchWriteCommand: ['BatchWriteItem', 'lib'],
  BatchGetCommand: ['BatchGetItem', 'lib'],
  TransactWriteCommand: ['TransactWriteItems', 'lib'],
  TransactGetCommand: ['TransactGetItems', 'lib'],
};

/**
 * The command class of this name, own names only: a parameter called `constructor` or
 * `toString` is no command (an inherited property of the table failed the whole file).
 */
const commandNamed = (name: string) => (Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined);

/** SDK v2 methods: DocumentClient names and the low-level client's. */
const V2_METHODS: Record<string, Operation> = {
  put: 'PutItem',
  get: 'GetItem',
  update: 'UpdateItem',
  delete: 'DeleteItem',
  query: 'Query',
  batchWrite: 'BatchWriteItem',
  batchGet: 'BatchGetItem',
  transactWrite: 'TransactWriteItems',
  transactGet: 'TransactGetItems',
  putItem: 'PutItem',
  getItem: 'GetItem',
  updateItem: 'UpdateItem',
  deleteItem: 'DeleteItem',
  batchWriteItem: 'BatchWriteItem',
  batchGetItem: 'BatchGetItem',
  transactWriteItems: 'TransactWriteItems',
  transactGetItems: 'TransactGetItems',
};

function usesAttributeValues(v: Value): boolean {
  const probe = entry(v, 'Item') ?? entry(v, 'Key') ?? entry(v, 'ExpressionAttributeValues');
  if (probe?.kind !== 'object') return false;
  return probe.entries.some(
    ([, x]) => x.kind === 'object' && x.entries.length === 1 && /^(S|N|B|BOOL)$/.test(x.entries[0][0]),
  );
}

function emptyInput(n: Node): Value {
  return { kind: 'object', entries: [], span: spanOf(n) };
}

/** Finds every DynamoDB data-plane call in a JavaScript or TypeScript tree. */
/** Where a DynamoDB call can start: `new XCommand(`, `paginateQuery(`, `.put(` and the other v2 methods. */
export const CALL_START = new RegExp(
  // `new ddb.PutCommand(`: the command read through a namespace of the package (tsc's CommonJS output too).
  String.raw`\bnew\s+(?:[A-Za-z_$][\w$]*\s*\.\s*)?(?<name>[A-Za-z]+Command)\b|\b(?<name2>paginateQuery)\s*\)?\s*\(|\.\s*(?<name3>` +
    Object.keys(V2_METHODS).join('|') +
    String.raw`)\s*\(` +
    // Dispatch by name (js/dispatch.ts): `new COMMANDS[action](`, `new CommandClass(`, `doc[action](`.
    String.raw`|\bnew\s+(?<name4>[A-Za-z_$][\w$]*)\s*[[(]|(?<name5>[A-Za-z_$][\w$]*)\s*\[\s*[\w$'"]{1,40}\s*\]\s*\(`,
  'g',
);
const CALL_TYPES = new Set(['new_expression', 'call_expression']);

export function findJsCallSites(f: SourceFile): CallSite[] {
  const { tree, text, file, language, cache, lookups } = f;
  let libImports: number[] | null = null;
  const fromLib = (deps: Deps | null) => {
    libImports ??= [...text.matchAll(/@aws-sdk\/lib-dynamodb/g)].map((m) => m.index);
    // The SDK style depends on the imports: an edit to them re-evaluates the site.
    for (const at of libImports) recordRange(deps, at, at + 21);
    return libImports.length > 0;
  };
  const read = (n: Node, deps: Deps | null) =>
    withFieldDefault(readCallSite(n, text, file, language, fromLib, lookups, deps), n, lookups, deps);
  const cachedCallSite = (n: Node, at: number) =>
    cache ? cache.siteFor(n, (deps) => read(n, deps), at) : read(n, null);
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

/** The call site a candidate node is, or null when it is not a DynamoDB call. */
function readCallSite(
  n: Node,
  text: string,
  file: string,
  language: SourceLanguage,
  fromLib: (deps: Deps | null) => boolean,
  lookups: Lookups,
  deps: Deps | null,
): CallSite | null {
  const v3Style = (input: Value): SdkStyle =>
    fromLib(deps) && !usesAttributeValues(input) ? 'lib-dynamodb' : 'aws-sdk-v3';
  const ctx = () => newContext(evaluate, lookups, deps);
  if (n.type === 'new_expression') {
    const ctor = n.childForFieldName('constructor');
    const arg = n.childForFieldName('arguments')?.namedChild(0) ?? null;
    const imported = ctor && !commandNamed(ctor.text) ? importedCommand(ctor, ctx()) : null;
    const command = imported?.command ?? commandNamed(ctor?.text ?? '');
    if (!command) return dispatchedCommand(n, ctor, arg, text, file, language, ctx, v3Style);
    const [operation, pkg] = command;
    const input = evaluate(arg, ctx()) ?? emptyInput(n);
    // Through a namespace or an alias the package is known: `lib.QueryCommand` is the document client's.
    const either = () => (imported ? (imported.lib ? 'lib-dynamodb' : 'aws-sdk-v3') : v3Style(input));
    const sdk = pkg === 'either' ? either() : pkg === 'lib' ? 'lib-dynamodb' : 'aws-sdk-v3';
    const call = sendStyle(n, text);
    return makeCallSite(file, language, operation, sdk, n, input, false, call);
  }
  const fn = n.childForFieldName('function');
  const args = n.childForFieldName('arguments');
  const byName = methodChoice(fn, ctx());
  if (byName && fn) {
    const input = evaluate(args?.namedChild(0) ?? null, ctx()) ?? emptyInput(n);
    const sdk: SdkStyle = usesAttributeValues(input) ? 'aws-sdk-v2' : 'aws-sdk-v2-document-client';
    const choices: Choices = Object.fromEntries(Object.entries(V2_METHODS).map(([k, op]) => [k, [op, sdk]]));
    return pickedSite(choices, byName.picked, (op, style) =>
      makeCallSite(file, language, op, style, n, input, false, v2Style(n, text, fn)),
    );
  }
  if (isPaginateQuery(fn, ctx)) {
    const input = evaluate(args?.namedChild(1) ?? null, ctx()) ?? emptyInput(n);
    const call = callStyle(n, text, 'paginator', 'paginateQuery', configClientText(args?.namedChild(0) ?? null));
    return makeCallSite(file, language, 'Query', v3Style(input), n, input, true, call);
  }
  if (fn?.type !== 'member_expression') return null;
  const method = fn.childForFieldName('property')?.text ?? '';
  const operation = Object.hasOwn(V2_METHODS, method) ? V2_METHODS[method] : undefined;
  const arg = args?.namedChild(0);
  if (!operation || !arg || (arg.type !== 'object' && arg.type !== 'identifier')) return null;
  const input = evaluate(arg, ctx());
  // A wrapper handing its whole parameter on (`allPages(params) { return client.query(params).promise() }`,
  // a shared `db-utils` module): read at each caller, which passes the request.
  const client = input && wholeRequestParam(input) && arg.type === 'identifier' ? dynamoDbClientOf(fn, ctx()) : null;
  if (input && client) return makeCallSite(file, language, operation, client, n, input, false, v2Style(n, text, fn));
  // `map.get(k)` and `cache.put(k, v)` are not DynamoDB calls: the input must look like a request.
  if (input?.kind !== 'object' || !isRequest(operation, input)) return null;
  if (!MULTI_TABLE.has(operation) && !entry(input, 'TableName')) return null;
  return makeCallSite(
    file,
    language,
    operation,
    usesAttributeValues(input) ? 'aws-sdk-v2' : 'aws-sdk-v2-document-client',
    n,
    input,
    false,
    v2Style(n, text, fn),
  );
}

/** The packages whose namespace holds the commands, and whether each is the document client's. */
const SDK_PACKAGES = new Map([
  ['@aws-sdk/lib-dynamodb', true],
  ['@aws-sdk/client-dynamodb', false],
]);

/**
 * A name of a DynamoDB package the expression stands for, when it is not written as itself:
 * through the whole package (`ddb.PutCommand` with `import * as ddb from
 * '@aws-sdk/lib-dynamodb'` or `const ddb = require(...)`, and what tsc's CommonJS output
 * makes of any import: `lib_dynamodb_1.PutCommand` with `const lib_dynamodb_1 =
 * require("@aws-sdk/lib-dynamodb")` or `__importStar(require(...))`, and its calls of
 * imported functions, `(0, lib_dynamodb_1.paginateQuery)(...)`), or under an alias
 * (`import { PutCommand as DdbPut }`, `const { QueryCommand: Query } = require(...)`).
 * The exported name, and whether the package is the document client's; null for any
 * other object or name (`sqs.SendMessageCommand`, `timestream.QueryCommand`, the project's own).
 */
function importedSdkName(n: Node, ctx: ReturnType<typeof newContext>): { name: string; lib: boolean } | null {
  let name: string;
  let source: string | null = null;
  if (n.type === 'parenthesized_expression') {
    const inner = n.namedChild(0);
    const last = inner?.type === 'sequence_expression' ? inner.namedChild(inner.namedChildCount - 1) : inner;
    return last ? importedSdkName(last, ctx) : null;
  }
  if (n.type === 'member_expression') {
    const object = n.childForFieldName('object');
    name = n.childForFieldName('property')?.text ?? '';
    if (object?.type !== 'identifier') return null;
    const b = resolve(object, ctx);
    if (b?.kind === 'import' && b.name === '*') source = b.source;
    else if (b?.kind === 'value') source = requiredThrough(b.node);
  } else if (n.type === 'identifier') {
    const b = resolve(n, ctx);
    if (b?.kind !== 'import') return null;
    name = b.name;
    source = b.source;
  } else return null;
  const lib = source === null ? undefined : SDK_PACKAGES.get(source);
  return lib === undefined ? null : { name, lib };
}

/** The command class `ctor` names through `importedSdkName`, with its package. */
function importedCommand(
  ctor: Node,
  ctx: ReturnType<typeof newContext>,
): { command: [Operation, 'client' | 'lib' | 'either']; lib: boolean } | null {
  // Only a command's name is worth resolving the object for.
  if (ctor.type === 'member_expression' && !commandNamed(ctor.childForFieldName('property')?.text ?? '')) return null;
  const found = importedSdkName(ctor, ctx);
  const command = found ? commandNamed(found.name) : undefined;
  return found && command ? { command, lib: found.lib } : null;
}

/** `paginateQuery`, written as itself or through `importedSdkName` (`(0, lib_dynamodb_1.paginateQuery)`). */
function isPaginateQuery(fn: Node | null, ctx: () => ReturnType<typeof newContext>): boolean {
  if (!fn) return false;
  if (fn.type === 'identifier') return fn.text === 'paginateQuery';
  return /\bpaginateQuery\s*\)?$/.test(fn.text) && importedSdkName(fn, ctx())?.name === 'paginateQuery';
}

/** `__importStar(require("m"))` (also `tslib.__importStar`, `__importDefault`): the module, else null. */
function requiredThrough(n: Node): string | null {
  if (
    n.type !== 'call_expression' ||
    !/(^|\.)__import(Star|Default)$/.test(n.childForFieldName('function')?.text ?? '')
  )
    return null;
  const inner = n.childForFieldName('arguments')?.namedChild(0);
  if (inner?.type !== 'call_expression' || inner.childForFieldName('function')?.text !== 'require') return null;
  const arg = inner.childForFieldName('arguments')?.namedChild(0);
  return arg?.type === 'string' ? arg.text.slice(1, -1) : null;
}

/** `new COMMANDS[action](params)` / `new CommandClass(params)` with `CommandClass = COMMANDS[action]`. */
function dispatchedCommand(
  n: Node,
  ctor: Node | null,
  arg: Node | null,
  text: string,
  file: string,
  language: SourceLanguage,
  ctx: () => ReturnType<typeof newContext>,
  v3Style: (input: Value) => SdkStyle,
): CallSite | null {
  if (!ctor || (ctor.type !== 'identifier' && ctor.type !== 'subscript_expression')) return null;
  let input: Value | null = null;
  const inputOf = () => (input ??= evaluate(arg, ctx()) ?? emptyInput(n));
  const found = commandChoices(ctor, ctx(), (name) => {
    const c = commandNamed(name);
    if (!c) return null;
    return [c[0], c[1] === 'either' ? v3Style(inputOf()) : c[1] === 'lib' ? 'lib-dynamodb' : 'aws-sdk-v3'];
  });
  if (!found) return null;
  return pickedSite(found.choices, found.picked, (op, sdk) =>
    makeCallSite(file, language, op, sdk, n, inputOf(), false, sendStyle(n, text)),
  );
}

/**
 * The site for the operation a literal picks, or, when a parameter picks it, the site
 * of the first choice carrying all of them (each caller's literal decides).
 */
function pickedSite(
  choices: Choices,
  picked: Picked,
  make: (operation: Operation, sdk: SdkStyle) => CallSite,
): CallSite | null {
  if (picked.kind === 'literal') {
    const c = choices[picked.name];
    return c ? make(c[0], c[1]) : null;
  }
  const [first] = Object.values(choices);
  return first ? { ...make(first[0], first[1]), dispatch: { param: picked.name, operations: choices } } : null;
}

/** `ddb.send(new QueryCommand(...))`: the client is the receiver of the `send` around the command. */
function sendStyle(command: Node, text: string): CallStyle {
  const callee = command.childForFieldName('constructor')?.text ?? '';
  let p = command.parent;
  while (p?.type === 'parenthesized_expression') p = p.parent;
  const call = p?.type === 'arguments' ? p.parent : null;
  const fn = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
  if (fn?.type === 'member_expression' && fn.childForFieldName('property')?.text === 'send') {
    return callStyle(call!, text, 'send-command', callee, fn.childForFieldName('object')?.text ?? null);
  }
  return callStyle(command, text, 'send-command', callee, null);
}

/** A parameter as a whole (`params`), not a part of one: what a summary's callers fill in. */
function wholeRequestParam(v: Value): boolean {
  const parts = v.kind === 'scalar' ? v.template.parts : [];
  return parts.length === 1 && 'hole' in parts[0] && !!parts[0].hole.param && !parts[0].hole.param.path?.length;
}

/**
 * `client.query(...)` where `client` is bound to a DynamoDB client: `new AWS.DynamoDB.DocumentClient()`,
 * `new DynamoDB()`, or a factory named for one (`getDynamoDbClient()`). A parameter passed whole
 * gives no request shape to tell `client.get(params)` from `map.get(key)`; the receiver must.
 */
function dynamoDbClientOf(fn: Node, ctx: ReturnType<typeof newContext>): SdkStyle | null {
  const receiver = fn.childForFieldName('object');
  if (receiver?.type !== 'identifier') return null;
  const b = resolve(receiver, ctx);
  if (b?.kind !== 'value') return null;
  let made = b.node.text;
  // `const client = getClient()`: the factory of this module that makes it.
  const factory = b.node.type === 'call_expression' ? b.node.childForFieldName('function') : null;
  if (factory?.type === 'identifier' && !/dynamo/i.test(made)) {
    const f = resolve(factory, ctx);
    if (f?.kind === 'value') made = f.node.text;
  }
  if (!/dynamo|DocumentClient/i.test(made)) return null;
  // The low-level client takes typed values (`{ S: "x" }`); everything else here is a DocumentClient.
  return /^(\(\)\s*=>\s*)?new\s+(AWS\.)?DynamoDB\s*\(/.test(made) ? 'aws-sdk-v2' : 'aws-sdk-v2-document-client';
}

/** SDK v2: `doc.query(params).promise()`, `doc.query(params, callback)`, or a bare call. */
function v2Style(n: Node, text: string, fn: Node): CallStyle {
  const method = fn.childForFieldName('property')?.text ?? '';
  const receiver = fn.childForFieldName('object')?.text ?? null;
  const outer = n.parent?.type === 'member_expression' ? n.parent : null;
  if (outer?.childForFieldName('property')?.text === 'promise' && outer.parent?.type === 'call_expression') {
    return callStyle(outer.parent, text, 'v2-promise', method, receiver);
  }
  const callback = n.childForFieldName('arguments')?.namedChild(1);
  const form = callback && /function|arrow_function/.test(callback.type) ? 'v2-callback' : 'v2-call';
  return callStyle(n, text, form, method, receiver);
}

/** `paginateQuery({ client: ddb }, input)`: the client named in the paginator's config. */
function configClientText(config: Node | null): string | null {
  if (config?.type !== 'object') return null;
  for (const c of config.namedChildren) {
    if (c?.type === 'pair' && c.childForFieldName('key')?.text === 'client')
      return c.childForFieldName('value')?.text ?? null;
    if (c?.type === 'shorthand_property_identifier' && c.text === 'client') return 'client';
  }
  return null;
}

const MULTI_TABLE = new Set<Operation>(['BatchWriteItem', 'BatchGetItem', 'TransactWriteItems', 'TransactGetItems']);

function makeCallSite(
  file: string,
  language: SourceLanguage,
  operation: Operation,
  sdk: SdkStyle,
  n: Node,
  input: Value,
  paginator: boolean,
  call: CallStyle,
): CallSite {
  return {
    file,
    language,
    operation,
    sdk,
    span: spanOf(n),
    input,
    table: { kind: 'unknown' },
    paginated: paginator || !!entry(input, 'ExclusiveStartKey'),
    paginator,
    call,
    ...(tableField(input) ? { tableField: tableField(input)! } : {}),
  };
}

/**
 * `TableName: this.tableName` in a class whose constructor defaults that field (`constructor(
 * private readonly tableName = process.env.ORDERS_TABLE ?? 'Orders')`): the request names the
 * default, the table of every construction that leaves the argument out (a handler's `new
 * OrdersRepository()`, a module's exported instance). A caller whose construction passes
 * another table reads that one there (`injectedTable`), as the field is still noted.
 * Without such a parameter, the field's own initialiser (`private readonly tableName =
 * process.env.ORDERS_TABLE!`) or the constructor's one assignment of it names the table, unless
 * that comes from a constructor parameter (then the constructions decide, as above).
 */
function withFieldDefault(site: CallSite | null, n: Node, lookups: Lookups, deps: Deps | null): CallSite | null {
  if (!site?.tableField || site.input.kind !== 'object') return site;
  const given = entryOf(site.input, 'TableName');
  const d = given ? (constructorDefault(n, site.tableField) ?? fieldInitializerNamed(n, site.tableField)) : null;
  const v = d ? evaluate(d, newContext(evaluate, lookups, deps)) : null;
  if (!given || !d || v?.kind !== 'scalar' || fromParameter(v)) return site;
  const declaration = declarationOf(site.tableField, d);
  const table: Value = {
    kind: 'scalar',
    template: through(v.template, declaration),
    span: given[1].span,
    via: [declaration, ...(v.via ?? [])],
  };
  const entries = site.input.entries.map((e): Entry => (e === given ? [e[0], table, e[2]] : e));
  return { ...site, input: { ...site.input, entries } };
}

/** A value that holds a parameter of the function it was read in: its callers give it. */
function fromParameter(v: Value): boolean {
  return v.kind === 'scalar' && v.template.parts.some((p) => 'hole' in p && !!p.hole.param);
}

/** `TableName: this.tableName` not read here: the field of the class it comes from. */
function tableField(input: Value): string | null {
  const name = entry(input, 'TableName');
  const parts = name?.kind === 'scalar' ? name.template.parts : [];
  const source = parts.length === 1 && 'hole' in parts[0] ? parts[0].hole.source : '';
  return /^this\.([A-Za-z_$][\w$]*)$/.exec(source ?? '')?.[1] ?? null;
}

/**
 * What a JavaScript/TypeScript file tells the reachability pass (`entry-points/`): its
 * functions, calls, loops and imports, and the entry points written in it — Express,
 * Fastify, Koa and Hono routes (`app.get('/x', h)`, `router.post(...)`), NestJS
 * controllers and schedules (`@Controller` + `@Get`, `@Cron`), tRPC procedures, Next.js route handlers
 * (`app/**\/route.ts` exporting GET/POST), API routes (`pages/api/**`), App Router pages and
 * layouts (`app/**\/page.tsx`, by their segment config) and server actions (`'use server'`), a Lambda
 * handler by its signature, a shebang or `require.main === module` script, a test file.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { emptyPart, seenClass, entryPoint, HTTP_METHODS, memberCall, readWhole, wholeFileEntry } from '../file-reach';
import { mayBeWritten, type WordCounts } from '../word-counts';
import type { EntryKind, FileReach, ReachPart, ReachReading, SeenEntry } from '../../model/entry-point';
import { spanOf } from '../../syntax/span';
import { isFunction, parametersOf } from './scope';
import { makesFunction, returnedFunctions } from './factory-functions';
import { argumentsOf, chainedRoutePath, passedFunctions, routeObject } from './passed-functions';
import type { Span } from '../../model/range';
import { declaratorBinding, fieldTypes, parameterBindings } from './declared-types';
import { trpcProcedureName } from './trpc-procedures';
import { readImport, readReexport, readRequire } from './module-links';
import { plainCallee } from './callee';
import { decoratorsOf, readNestController } from './nest-controllers';
import { nextPage, nextRoute, pageEntry, serverAction, USE_SERVER, type NextPage } from './next-app';

/** A JS name, read sticky from where a receiver starts. */
const JS_NAME = /[A-Za-z_$][\w$]*/y;
const LOOP_STATEMENTS = new Set(['for_statement', 'for_in_statement', 'while_statement', 'do_statement']);
const LOOP_METHODS = new Set(['forEach', 'map', 'flatMap', 'filter', 'reduce', 'some', 'every']);
const APP_OBJECT =
  /\b(?:express|fastify|Fastify)\s*\(|new\s+(?:Koa|Hono|Router|KoaRouter)\s*\(|\bNestFactory\.create|@(?:Controller|controller|JsonController)\s*\(/;
/** The words each mark needs written (each needs one of them as a whole word). */
const APP_WORDS = [
  'express',
  'fastify',
  'Fastify',
  'Koa',
  'Hono',
  'Router',
  'KoaRouter',
  'NestFactory',
  'Controller',
  'controller',
  'JsonController',
];
const NEST_WORDS = ['Controller', 'controller', 'JsonController', 'Cron', 'Interval'];
/** Event types in a handler's signature that say what invokes it. */
const EVENT_TYPES: Array<[RegExp, EntryKind]> = [
  [/\bSQS(?:Event|Handler)\b/, 'queue'],
  [/\b(?:DynamoDBStream|Kinesis(?:Stream)?)(?:Event|Handler)\b/, 'stream'],
  [/\b(?:ScheduledEvent|ScheduledHandler)\b/, 'schedule'],
  [/\b(?:SNS|S3|EventBridge)(?:Event|Handler)\b/, 'event'],
  [/\bAPIGateway\w*(?:Event|Handler)\b/, 'api'],
];
/** Classes and interfaces: a call through a base type reaches the methods that implement it. */
const CLASSES = new Set(['class_declaration', 'abstract_class_declaration', 'class', 'interface_declaration']);
/** The node types the reading looks at; every other node is passed over. */
const VISITED = new Set([
  ...CLASSES,
  'arrow_function',
  'function_declaration',
  'function_expression',
  'function',
  'generator_function_declaration',
  'generator_function',
  'method_definition',
  'call_expression',
  'new_expression',
  'variable_declarator',
  ...LOOP_STATEMENTS,
  'import_statement',
]);
/** A barrel's re-exports (`export * from`, `export { a } from`): its export statements are read too. */
const REEXPORT = /\bexport\s*(?:\*|\{[^}]*\})\s*(?:as\s+[\w$]+\s*)?from\b/;
/** With the classes, for a file that may hold a NestJS controller or schedule (most classes are neither). */
const NEST_MARK = /@(?:Controller|controller|JsonController|Cron|Interval)\s*\(/;
/** A file that may give routes as objects (`{ method: 'GET', path: '/x', handler }`) reads its objects too. */
const ROUTE_OBJECT_MARKS = [/\bmethod['"]?\s*:/, /\bhandler\b/];
/** The nodes whose children are statements: a reading looks at nothing outside its node's statement. */
const CONTAINERS = new Set(['program', 'statement_block', 'class_body', 'switch_case', 'switch_default']);
/** `words`: the text's word counts, when the caller keeps them (`countWords`): marks needing a word not written are not looked for. */
export function jsReachReading(
  tree: Tree,
  file: string,
  testFile: boolean,
  binFile: boolean,
  words?: WordCounts,
): ReachReading {
  const text = tree.rootNode.text;
  const entries: SeenEntry[] = [];
  const script = () => mayBeWritten(words, ['main']) && /require\.main\s*===\s*module/.test(text);
  if (testFile) entries.push(wholeFileEntry('test', file, spanOf(tree.rootNode), 'test run'));
  else if (binFile || text.startsWith('#!') || script())
    entries.push(wholeFileEntry('script', file, spanOf(tree.rootNode), 'run by hand'));
  // A file without an `@` has no decorators to look for around each method.
  const marks: FileMarks = {
    next: nextRoute(file),
    page: nextPage(file, text),
    actions: USE_SERVER.test(text),
    decorators: text.includes('@'),
  };
  const nest = mayBeWritten(words, NEST_WORDS) && NEST_MARK.test(text);
  const routeObjects =
    mayBeWritten(words, ['method']) &&
    mayBeWritten(words, ['handler']) &&
    ROUTE_OBJECT_MARKS.every((m) => m.test(text));
  const reexports = mayBeWritten(words, ['export']) && REEXPORT.test(text);
  const read = new Set([...VISITED, ...(routeObjects ? ['object'] : []), ...(reexports ? ['export_statement'] : [])]);
  return {
    mode: `${nest}:${marks.decorators}:${routeObjects}:${reexports}:${marks.actions}:${JSON.stringify(marks.page?.renders ?? null)}`,
    entries,
    declaresApp: mayBeWritten(words, APP_WORDS) && APP_OBJECT.test(text),
    types: read,
    read: (n) => {
      const part = emptyPart();
      if (isFunction(n) || n.type === 'method_definition') readFunction(n, part, file, marks);
      else if (n.type === 'call_expression') readCall(n, part, file, text);
      else if (n.type === 'variable_declarator') {
        const binding = declaratorBinding(n);
        if (binding) part.bindings.push(binding);
      } else if (n.type === 'new_expression') {
        const ctor = n.childForFieldName('constructor');
        if (ctor?.type === 'identifier') part.calls.push({ name: ctor.text, member: false, span: spanOf(n) });
      } else if (LOOP_STATEMENTS.has(n.type)) part.loops.push(spanOf(n));
      else if (n.type === 'import_statement') readImport(n, part);
      else if (n.type === 'export_statement') readReexport(n, part);
      else if (CLASSES.has(n.type)) {
        readClass(n, part);
        if (nest && n.type !== 'interface_declaration') readNestController(n, part, file);
      } else if (n.type === 'object') readRouteObject(n, part, file);
      return part;
    },
    containers: CONTAINERS,
  };
}

/**
 * A class or interface and the types it extends or implements (`extends base.Repo<T>` is
 * `Repo`; `extends mixin(Base)` names both). A class expression is known by the variable
 * it is assigned to (`const Repo = class extends Base {}`).
 */
function readClass(n: Node, part: ReachPart): void {
  const declarator = n.type === 'class' && n.parent?.type === 'variable_declarator' ? n.parent : null;
  const name = (declarator ?? n).childForFieldName('name')?.text;
  if (!name) return;
  const bases: string[] = [];
  const visit = (b: Node) => {
    if (b.type === 'identifier' || b.type === 'type_identifier') bases.push(b.text);
    else if (b.type === 'member_expression') bases.push(b.childForFieldName('property')?.text ?? '');
    else if (b.type === 'nested_type_identifier') bases.push(b.childForFieldName('name')?.text ?? '');
    else if (b.type !== 'type_arguments') for (const c of b.namedChildren) visit(c);
  };
  for (const c of n.namedChildren) if (c.type === 'class_heritage' || c.type === 'extends_type_clause') visit(c);
  const fields = n.type === 'interface_declaration' ? {} : fieldTypes(n.childForFieldName('body'));
  part.classes.push(seenClass(name, bases, spanOf(n), fields));
}

export function jsFileReach(tree: Tree, file: string, testFile: boolean, binFile: boolean): FileReach {
  return readWhole(tree.rootNode, file, jsReachReading(tree, file, testFile, binFile));
}

/** What the whole file says once, for each function read. */
interface FileMarks {
  next: ReturnType<typeof nextRoute>;
  page: NextPage | null;
  /** A `'use server'` module: each function it exports is a server action. */
  actions: boolean;
  decorators: boolean;
}

function nameOf(fn: Node): { name: string; exported: boolean } | null {
  if (fn.type === 'method_definition') {
    const name = fn.childForFieldName('name')?.text;
    return name ? { name, exported: true } : null;
  }
  const own = fn.childForFieldName('name')?.text;
  const holder = fn.parent;
  const exported = (n: Node | null) =>
    n?.parent?.type === 'export_statement' || n?.parent?.parent?.type === 'export_statement';
  if (own) return { name: own, exported: exported(fn) };
  if (holder?.type === 'variable_declarator' && holder.childForFieldName('name')?.type === 'identifier')
    return { name: holder.childForFieldName('name')!.text, exported: exported(holder.parent) };
  if (holder?.type === 'pair') {
    const key = holder.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
    return key ? { name: key, exported: true } : null;
  }
  // `exports.handler = async (event) => ...`, `module.exports.save = function () {}`.
  if (holder?.type === 'assignment_expression') {
    const left = holder.childForFieldName('left');
    if (left?.type === 'member_expression' && /^(?:module\.)?exports\b/.test(left.text))
      return { name: left.childForFieldName('property')?.text ?? '', exported: true };
  }
  if (holder?.type === 'export_statement') return { name: 'default', exported: true };
  return null;
}

function readFunction(fn: Node, seen: ReachPart, file: string, marks: FileMarks): void {
  const next = marks.next;
  // Also an inline handler's (`app.get('/x', async (req: Request) => …)`).
  seen.bindings.push(...parameterBindings(fn));
  const named = nameOf(fn);
  if (!named || !named.name) return;
  const span = spanOf(fn);
  const decorated = fn.type === 'method_definition' && marks.decorators && decoratorsOf(fn).length > 0;
  seen.functions.push({ name: named.name, span, exported: named.exported, decorated });
  // A factory returning a function it defines (`function traced(event) {…}; return traced;`)
  // calls it: whoever calls the factory (the handler it makes) reaches what that function calls.
  seen.calls.push(...returnedFunctions(fn));
  if (fn.type !== 'method_definition' && serverAction(fn, named.exported, marks.actions)) {
    const decl = fn.parent?.type === 'variable_declarator' ? fn.parent : fn;
    const name = `POST (server action ${named.name})`;
    seen.entries.push({
      entry: entryPoint('api', name, file, named.name, spanOf(decl), 'Next.js server action'),
      span,
    });
    return;
  }
  if (!named.exported || fn.type === 'method_definition') return;
  const decl = fn.parent?.type === 'variable_declarator' ? fn.parent : fn;
  if (next?.app && /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(named.name)) {
    const route = `${named.name} ${next.path}`;
    seen.entries.push({ entry: entryPoint('api', route, file, named.name, spanOf(decl), route), span });
    return;
  }
  const isDefault = named.name === 'default' || /^export\s+default\b/.test(fn.parent?.text ?? '');
  if (marks.page && isDefault) {
    seen.entries.push({ entry: pageEntry(marks.page, file, named.name, spanOf(decl)), span });
    return;
  }
  if (next && !next.app && isDefault) {
    const route = `ANY ${next.path}`;
    seen.entries.push({ entry: entryPoint('api', route, file, 'default', spanOf(decl), route), span });
    return;
  }
  const params = parametersOf(fn);
  const first = params[0]?.text ?? '';
  // `(event, context)`, or an exported function named a handler whatever it takes, unless it
  // makes the handler (`makeFeedHandler = (deps) => async (event) => …`): the export calling it is one.
  const looksLikeHandler =
    (/^(?:event|evt|_event|e)\b/.test(first) && params.length >= 2) ||
    (/^(?:\w+_)?handler$|Handler$/.test(named.name) && !makesFunction(fn));
  const typed = EVENT_TYPES.find(([re]) => re.test(decl.text.slice(0, decl.text.indexOf('=>') + 1 || 400)));
  if (!looksLikeHandler && !typed) return;
  const kind: EntryKind = typed ? typed[1] : 'unknown';
  const trigger = typed ? (typed[0].exec(decl.text)?.[0] ?? 'Lambda') : 'Lambda handler';
  const entry = entryPoint(kind, named.name, file, named.name, spanOf(decl), trigger);
  seen.entries.push({ entry: typed ? { ...entry, fromSignature: true } : entry, span });
}

function readCall(call: Node, seen: ReachPart, file: string, text: string): void {
  // tsc's and esbuild's `(0, service_1.submit)(event)` calls `service_1.submit`.
  const callee = plainCallee(call);
  if (!callee) return;
  const span = spanOf(call);
  readWrappedExport(call, seen, file);
  if (callee.type === 'identifier') {
    seen.calls.push({ name: callee.text, member: false, span });
    if (callee.text === 'require') readRequire(call, seen);
    if (RUNS_GIVEN.has(callee.text)) readCallbacks(call.childForFieldName('arguments')?.namedChildren ?? [], seen);
    return;
  }
  if (callee.type !== 'member_expression') return;
  const method = callee.childForFieldName('property')?.text ?? '';
  // `this.orders.open()`: the field, whose declared type says which `open` runs.
  const receiver = callee.childForFieldName('object');
  const field =
    receiver?.type === 'member_expression' && receiver.childForFieldName('object')?.type === 'this'
      ? receiver.childForFieldName('property')?.text
      : undefined;
  // `repo.get(id)`: the variable, whose declared class says which `get` runs.
  const variable = receiver?.type === 'identifier' ? receiver.text : undefined;
  seen.calls.push(memberCall(method, span, { field, variable, start: receiver?.startIndex }, text, JS_NAME));
  const procedure = trpcProcedureName(call, callee, method);
  if (procedure)
    return readRoute(procedure, call.childForFieldName('arguments')?.namedChildren ?? [], span, seen, file);
  // The arguments are read only for the few methods that may loop, route or run what they
  // are given: most calls are none of these.
  const loops = LOOP_METHODS.has(method);
  const runs = RUNS_GIVEN.has(method);
  if (!loops && !runs && !HTTP_METHODS.has(method.toLowerCase())) return;
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const given = loops || runs ? readCallbacks(args, seen) : false;
  if (loops && (given || args.some(isFunction))) seen.loops.push(span);
  // `app.get('/votes', handler)`, `router.post("/x", auth, async (req, res) => ...)`,
  // `router.route('/votes').get(list).post(cast)`.
  if (!HTTP_METHODS.has(method.toLowerCase())) return;
  const written = args[0] && /^['"`]\//.test(args[0].text) ? args[0].text.slice(1, -1) : null;
  const path = written ?? chainedRoutePath(callee, HTTP_METHODS);
  if (path === null) return;
  const name = `${method === 'all' ? 'ANY' : method.toUpperCase()} ${path}`;
  readRoute(name, written === null ? args : args.slice(1), span, seen, file);
}

/** Calls that run a function they are given, later or once per event: `setTimeout(flush)`, `promise.then(save)`, `emitter.on('x', fn)`. */
const RUNS_GIVEN = new Set([
  'setTimeout',
  'setImmediate',
  'setInterval',
  'queueMicrotask',
  'nextTick',
  'then',
  'catch',
  'finally',
  'on',
  'once',
  'addListener',
]);

/**
 * Functions given by name (`items.map(toItem)`, `setTimeout(flush)`, `this.save`): the
 * caller calls them. Whether one was.
 */
function readCallbacks(args: readonly Node[], seen: ReachPart): boolean {
  let given = false;
  for (const a of args) {
    if (a.type === 'identifier') seen.calls.push({ name: a.text, member: false, span: spanOf(a) });
    else if (a.type === 'member_expression' && a.childForFieldName('object')?.type === 'this')
      seen.calls.push({ name: a.childForFieldName('property')?.text ?? '', member: true, span: spanOf(a) });
    else continue;
    given = true;
  }
  return given;
}

/**
 * A route's handlers, inline or named, also when a wrapper is given them
 * (`asyncHandler(async (req, res) => …)`, `catchAsync(orders.get)`): each inline one is an
 * entry point of its own; the named ones are called by one entry point at the route.
 */
function readRoute(name: string, handlers: Node[], at: Span, seen: ReachPart, file: string): void {
  const passed = passedFunctions(handlers);
  for (const h of passed.inline)
    seen.entries.push({ entry: entryPoint('api', name, file, null, at, name), span: spanOf(h) });
  seen.imports.push(...passed.imports);
  const named = passed.named;
  if (named.length)
    seen.entries.push({
      entry: entryPoint('api', name, file, named[named.length - 1].name, at, name),
      span: null,
      calls: named,
    });
}

/** `{ method: 'GET', path: '/items', handler: items.list }`: a route given as an object. */
function readRouteObject(n: Node, seen: ReachPart, file: string): void {
  const route = routeObject(n);
  if (route) readRoute(route.name, [route.handler], spanOf(n), seen, file);
}

/**
 * An export made by a call that wraps a function: `export const main = middyfy(handler)`,
 * `export const handler = middy(baseHandler).use(cors())`, `exports.handler = wrap(async (event) => ...)`.
 * Middleware wraps Lambda handlers this way (the aws-nodejs-typescript template's `middyfy`),
 * and the template names the export. The export is read as a function that calls each
 * function the chain is given, by name or written inline (its calls are the export's), so
 * what the wrapped handler reaches is reached from the export's entry point.
 *
 * A handler a factory makes (`export const handler = makeHandler({ repo })`,
 * `export const handler = feedService.trendingHandler()`) runs the function the factory
 * returns, written inside the factory: the export is a function too, and the calls of the
 * chain (`makeHandler`, `trendingHandler`), read as every call is, are its calls. Only for
 * an export named like a handler, or one given functions: another exported call
 * (`export const client = DynamoDBDocumentClient.from(ddb)`) stays the module's code.
 */
function readWrappedExport(call: Node, seen: ReachPart, file: string): void {
  const name = exportedName(call);
  if (!name) return;
  // Along the chain: `middy(main).use(cors())`, `middy().handler(main)`, `compose(auth)(main)`.
  const given: Node[] = [];
  for (let at: Node | null = call; at?.type === 'call_expression';) {
    given.push(...argumentsOf(at));
    const callee = at.childForFieldName('function');
    at = callee?.type === 'member_expression' ? callee.childForFieldName('object') : callee;
  }
  const passed = passedFunctions(given);
  const handlerName = /^(?:\w+_)?handler$|Handler$/.test(name);
  if (!passed.named.length && !passed.inline.length && !handlerName) return;
  const span = spanOf(call);
  seen.functions.push({ name, span, exported: true });
  for (const a of passed.named) seen.calls.push({ ...a, span });
  // Callbacks written in its options (`AuthHandler({ async onSuccess(input) {…} })`, `{ onSuccess:
  // async () => … }`) run when the handler does: it calls each named one (an unnamed one's
  // calls are already the export's, the function around them).
  for (const fn of passed.inline) {
    const callback = nameOf(fn)?.name;
    if (callback) seen.calls.push({ name: callback, member: false, span });
  }
  seen.imports.push(...passed.imports);
  if (handlerName) seen.entries.push({ entry: entryPoint('unknown', name, file, name, span, 'Lambda handler'), span });
}

/** `main` of `export const main = <call>`, `handler` of `exports.handler = <call>`; null for any other place. */
function exportedName(call: Node): string | null {
  const holder = call.parent;
  if (holder?.type === 'variable_declarator') {
    const id = holder.childForFieldName('name');
    const exported = holder.parent?.parent?.type === 'export_statement';
    return exported && id?.type === 'identifier' && holder.childForFieldName('value')?.id === call.id ? id.text : null;
  }
  if (holder?.type === 'assignment_expression' && holder.childForFieldName('right')?.id === call.id) {
    const left = holder.childForFieldName('left');
    if (left?.type === 'member_expression' && /^(?:module\.)?exports\.\w+$/.test(left.text))
      return left.childForFieldName('property')?.text ?? null;
  }
  return null;
}

/**
 * What a Python file tells the reachability pass (`entry-points/`): its functions, calls,
 * loops and imports, and the entry points written in it — Flask (and blueprints),
 * FastAPI (`APIRouter` too) and Powertools routes (`@app.route`, `@app.get`, AppSync's
 * `@app.resolver(type_name=..., field_name=...)`), Chalice
 * routes, schedules (`Rate`, `Cron`) and event handlers (`@app.on_sqs_message`, ...),
 * Django `urlpatterns`, a Lambda handler by its signature, an `if __name__ ==
 * "__main__"` block, a test file.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { emptyPart, seenClass, entryPoint, memberCall, readWhole, wholeFileEntry } from '../file-reach';
import { mayBeWritten, type WordCounts } from '../word-counts';
import type { FileReach, ReachPart, ReachReading, SeenCall, SeenEntry } from '../../model/entry-point';
import type { Span } from '../../model/range';
import { spanOf } from '../../syntax/span';
import { argumentsOf, passedNames, registeredView, wrappedAssignment } from './passed-functions';
import { dependencyProvider } from './depends';
import { assignmentBinding, fieldTypes, parameterBindings } from './declared-types';
import { decoratorEntry, pathConstants, routerPrefixes, stringOf, type RouteNames } from './route-decorators';

/** A Python name, read sticky from where a receiver starts. */
const PYTHON_NAME = /[A-Za-z_]\w*/y;
const LOOPS = new Set([
  'for_statement',
  'while_statement',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
  'generator_expression',
]);
/** The node types the reading looks at; every other node is passed over. */
const VISITED = new Set([
  'function_definition',
  'assignment',
  'class_definition',
  'call',
  ...LOOPS,
  'import_from_statement',
  'import_statement',
]);
/** The nodes whose children are statements: a reading looks at nothing outside its node's statement. */
const CONTAINERS = new Set(['module', 'block']);
/** With the `if` statements, for a file that may hold a main guard (most `if`s are not one). */
const VISITED_MAIN = new Set([...VISITED, 'if_statement']);
const APP_OBJECT =
  /\b(?:Flask|FastAPI|Chalice|APIRouter|Blueprint|APIGatewayRestResolver|APIGatewayHttpResolver|ALBResolver|LambdaFunctionUrlResolver)\s*\(|^urlpatterns\s*=/m;
/** What a Lambda handler is named: `handler`, `lambda_handler`, `order_handler`, `handle`. */
const HANDLER_NAME = /^(?:\w+_)?handler$|^handle$/;
/** The words each mark needs written (each needs one of them as a whole word). */
const APP_WORDS = [
  'Flask',
  'FastAPI',
  'Chalice',
  'APIRouter',
  'Blueprint',
  'APIGatewayRestResolver',
  'APIGatewayHttpResolver',
  'ALBResolver',
  'LambdaFunctionUrlResolver',
  'urlpatterns',
];
const ROUTER_WORDS = ['APIRouter', 'Blueprint'];
/** A logging handler object (`handler = logging.StreamHandler(sys.stdout)`), no Lambda handler. */
const LOG_HANDLER = /^logging\.|(?:File|Stream|Null|Queue|Memory|Syslog|SMTP|HTTP|Socket|Datagram|EventLog)Handler$/;
/** `words`: the text's word counts, when the caller keeps them (`countWords`): marks needing a word not written are not looked for. */
export function pythonReachReading(tree: Tree, file: string, testFile: boolean, words?: WordCounts): ReachReading {
  const text = tree.rootNode.text;
  const entries: SeenEntry[] = [];
  if (testFile) entries.push(wholeFileEntry('test', file, spanOf(tree.rootNode), 'test run'));
  const prefixes = mayBeWritten(words, ROUTER_WORDS) ? routerPrefixes(text) : new Map<string, string>();
  const paths = pathConstants(text);
  const main = text.includes('__main__');
  return {
    mode: JSON.stringify([main, [...prefixes], [...paths]]),
    entries,
    declaresApp: mayBeWritten(words, APP_WORDS) && APP_OBJECT.test(text),
    types: main ? VISITED_MAIN : VISITED,
    read: (n) => {
      const part = emptyPart();
      if (n.type === 'function_definition') readFunction(n, part, file, { prefixes, paths });
      else if (n.type === 'call') readCall(n, part, file, prefixes, text);
      else if (n.type === 'class_definition') readClass(n, part);
      else if (n.type === 'assignment') {
        const binding = assignmentBinding(n);
        if (binding) part.bindings.push(binding);
      } else if (LOOPS.has(n.type)) part.loops.push(spanOf(n));
      else if (n.type === 'import_from_statement' || n.type === 'import_statement') readImport(n, part);
      else if (n.type === 'if_statement' && n.parent?.type === 'module' && isMainGuard(n)) {
        const entry = entryPoint('script', '__main__', file, null, spanOf(n), 'run by hand');
        part.entries.push({ entry, span: spanOf(n) });
      }
      return part;
    },
    containers: CONTAINERS,
  };
}

export function pythonFileReach(tree: Tree, file: string, testFile: boolean): FileReach {
  return readWhole(tree.rootNode, file, pythonReachReading(tree, file, testFile));
}

/** A class and the classes it names as bases (`class Impl(UserRepository)`, `abc.ABC` as `ABC`); keyword arguments (`metaclass=`) are none. */
function readClass(n: Node, part: ReachPart): void {
  const name = n.childForFieldName('name')?.text;
  if (!name) return;
  const bases: string[] = [];
  for (const b of n.childForFieldName('superclasses')?.namedChildren ?? []) {
    const base = b.type === 'subscript' ? b.childForFieldName('value') : b; // Generic[T], Repository[User]
    if (base?.type === 'identifier') bases.push(base.text);
    else if (base?.type === 'attribute') bases.push(base.childForFieldName('attribute')?.text ?? '');
  }
  const fields = fieldTypes(n.childForFieldName('body'));
  part.classes.push(seenClass(name, bases, spanOf(n), fields));
}

function isMainGuard(n: Node): boolean {
  return /^__name__\s*==\s*['"]__main__['"]$/.test(n.childForFieldName('condition')?.text ?? '');
}

function readFunction(fn: Node, seen: ReachPart, file: string, names: RouteNames): void {
  const name = fn.childForFieldName('name')?.text;
  if (!name) return;
  const span = spanOf(fn);
  const top = fn.parent?.type === 'module' || fn.parent?.parent?.type === 'module';
  const method = fn.parent?.type === 'block' && fn.parent.parent?.type === 'class_definition';
  const decorated = fn.parent?.type === 'decorated_definition' ? fn.parent : null;
  seen.functions.push({ name, span, exported: top || method || !!decorated, decorated: !!decorated });
  seen.bindings.push(...parameterBindings(fn));
  const made = returnedFunctions(fn);
  for (const r of made) seen.calls.push(r);
  let found = false;
  for (const d of decorated?.namedChildren.filter((c) => c.type === 'decorator') ?? []) {
    const entry = decoratorEntry(d, name, file, names);
    if (entry) {
      seen.entries.push({ entry, span });
      found = true;
    } else readDecoratorFactory(d, span, seen);
  }
  if (found || !top) return;
  const params = fn.childForFieldName('parameters')?.namedChildren.map((p) => p.text.split(/[:=]/)[0].trim()) ?? [];
  // A factory named like a handler (`def make_handler(repo): ... return inner`) is no
  // handler: the module-level name its call makes is.
  if ((/^_?event$/.test(params[0] ?? '') && params.length === 2) || (/^(?:\w+_)?handler$/.test(name) && !made.length))
    seen.entries.push({ entry: entryPoint('unknown', name, file, name, span, 'Lambda handler'), span });
}

/**
 * The functions a factory returns: `return inner` where `inner` is defined in its body
 * (`def make_handler(repo): def inner(event, context): ...; return inner`, a decorator's
 * `wrapper`). Read as calls at the `return`, so whoever calls the factory reaches what the
 * function it makes calls: the handler made at module level (`handler = make_handler(repo)`)
 * runs `inner`.
 */
function returnedFunctions(fn: Node): SeenCall[] {
  const body = fn.childForFieldName('body');
  if (!body) return [];
  const defined = new Set<string>();
  for (const c of body.namedChildren) {
    const def = c?.type === 'decorated_definition' ? c.childForFieldName('definition') : c;
    const name = def?.type === 'function_definition' ? def.childForFieldName('name')?.text : null;
    if (name) defined.add(name);
  }
  if (!defined.size) return [];
  const out: SeenCall[] = [];
  for (const c of body.namedChildren) {
    const value = c?.type === 'return_statement' ? c.namedChild(0) : null;
    if (value?.type === 'identifier' && defined.has(value.text))
      out.push({ name: value.text, member: false, span: spanOf(c!) });
  }
  return out;
}

/**
 * A decorator that declares no entry point wraps the function it decorates (`@with_repository`,
 * `@inject_store(table="x")`): the function runs inside the wrapper the decorator makes, and
 * is handed what the decorator's module builds. Read as a call from the function to the
 * decorator, at the function's own span (a decorator sits outside the `def`), so the
 * objects the decorator's module makes are found for the methods the function calls on them.
 */
function readDecoratorFactory(d: Node, span: Span, seen: ReachPart): void {
  let target: Node | null | undefined = d.namedChildren[0];
  if (target?.type === 'call') target = target.childForFieldName('function');
  if (target?.type === 'identifier') seen.calls.push({ name: target.text, member: false, span });
}

function readCall(call: Node, seen: ReachPart, file: string, prefixes: Map<string, string>, text: string): void {
  const callee = call.childForFieldName('function');
  const span = spanOf(call);
  readWrappedHandler(call, seen, file);
  // FastAPI calls a parameter's provider (`repo = Depends(get_repo)`) for the route: the route reaches it.
  const provider = dependencyProvider(call);
  if (provider?.type === 'identifier') seen.calls.push({ name: provider.text, member: false, span });
  else if (provider) seen.calls.push({ name: provider.childForFieldName('attribute')?.text ?? '', member: true, span });
  readCallbacks(call, callee, seen);
  if (callee?.type === 'identifier') {
    seen.calls.push({ name: callee.text, member: false, span });
    // Django: `path("votes/", views.vote)` in `urlpatterns`.
    if ((callee.text === 'path' || callee.text === 're_path' || callee.text === 'url') && inUrlPatterns(call))
      readDjangoPath(call, seen, file);
  } else if (callee?.type === 'attribute') {
    const method = callee.childForFieldName('attribute')?.text ?? '';
    // `self.store.pending()`: the field, whose declared type says which `pending` runs.
    const receiver = callee.childForFieldName('object');
    const field =
      receiver?.type === 'attribute' && receiver.childForFieldName('object')?.text === 'self'
        ? receiver.childForFieldName('attribute')?.text
        : undefined;
    // `repo.get(key)`: the variable, whose declared class says which `get` runs.
    const variable = receiver?.type === 'identifier' ? receiver.text : undefined;
    seen.calls.push(memberCall(method, span, { field, variable, start: receiver?.startIndex }, text, PYTHON_NAME));
    if (method === 'add_url_rule' || method === 'add_api_route') {
      const view = registeredView(method, argumentsOf(call), stringOf);
      if (!view) return;
      const prefix = prefixes.get(callee.childForFieldName('object')?.text ?? '') ?? '';
      const name = `${view.methods.join('|')} ${prefix}${view.path}`;
      const calls = passedNames([view.view]);
      if (calls.length)
        seen.entries.push({ entry: entryPoint('api', name, file, calls[0].name, span, name), span: null, calls });
    }
  }
}

/**
 * Calls that run a function they are given, later or on another thread, for the caller:
 * FastAPI's `background_tasks.add_task(fn, ...)`, `executor.submit(fn)`, `Thread(target=fn)`,
 * `loop.run_in_executor(None, fn)`, `asyncio.to_thread(fn)`, `functools.partial(fn, ...)`.
 */
const RUNS_GIVEN = new Set([
  'add_task',
  'submit',
  'apply_async',
  'run_in_executor',
  'to_thread',
  'call_soon',
  'call_later',
  'call_soon_threadsafe',
  'start_new_thread',
  'partial',
  'Thread',
  'Process',
  'Timer',
  'sync_to_async',
  'run_sync',
]);
/** The same, once per item of what they are also given (`executor.map(fn, records)`). */
const MAPS_GIVEN = new Set(['map', 'imap', 'imap_unordered', 'starmap']);

/**
 * A function given by name to a call that runs it (`RUNS_GIVEN`, `MAPS_GIVEN`): the caller
 * calls it, once per item for a map. `self._process` is a method of the caller's class.
 */
function readCallbacks(call: Node, callee: Node | null, seen: ReachPart): void {
  const name = callee?.type === 'attribute' ? callee.childForFieldName('attribute')?.text : callee?.text;
  if (!name || !(RUNS_GIVEN.has(name) || MAPS_GIVEN.has(name))) return;
  let given = false;
  for (const arg of argumentsOf(call)) {
    const a = arg.type === 'keyword_argument' ? arg.childForFieldName('value') : arg;
    if (a?.type === 'identifier') seen.calls.push({ name: a.text, member: false, span: spanOf(a) });
    else if (a?.type === 'attribute' && /^(self|cls)$/.test(a.childForFieldName('object')?.text ?? ''))
      seen.calls.push({ name: a.childForFieldName('attribute')?.text ?? '', member: true, span: spanOf(a) });
    else continue;
    given = true;
  }
  if (given && MAPS_GIVEN.has(name)) seen.loops.push(spanOf(call));
}

/**
 * A handler made at module level by wrapping a function (`lambda_handler =
 * logger.inject_lambda_context(main)`): read as a function of that name that calls what it
 * is given, so the template naming it (`app.lambda_handler`) reaches what the wrapped one does.
 * Only a name a handler goes by: any other module-level call (`item = table.get_item(Key=key)`
 * in a script) stays the module's code.
 */
function readWrappedHandler(call: Node, seen: ReachPart, file: string): void {
  const wrapped = wrappedAssignment(call);
  if (!wrapped || !HANDLER_NAME.test(wrapped.name)) return;
  // Given no function, the call is a factory making the handler (`handler =
  // make_handler(OrdersRepository())`): the calls along it, read as every call is, are its calls.
  const calls = passedNames(wrapped.given);
  if (!calls.length && LOG_HANDLER.test(call.childForFieldName('function')?.text ?? '')) return;
  const span = spanOf(call);
  seen.functions.push({ name: wrapped.name, span, exported: true });
  for (const c of calls) seen.calls.push({ ...c, span });
  seen.entries.push({ entry: entryPoint('unknown', wrapped.name, file, wrapped.name, span, 'Lambda handler'), span });
}

function inUrlPatterns(call: Node): boolean {
  for (let p = call.parent; p; p = p.parent)
    if (p.type === 'assignment') return /^urlpatterns\b/.test(p.childForFieldName('left')?.text ?? '');
  return false;
}

function readDjangoPath(call: Node, seen: ReachPart, file: string): void {
  const [route, view] = call.childForFieldName('arguments')?.namedChildren ?? [];
  if (!route || !view || view.type === 'call') return;
  const name = `ANY /${(stringOf(route) ?? route.text).replace(/^\^|\$$/g, '')}`;
  const member = view.type === 'attribute';
  const handler = member ? (view.childForFieldName('attribute')?.text ?? view.text) : view.text;
  seen.entries.push({
    entry: entryPoint('api', name, file, handler, spanOf(call), name),
    span: null,
    calls: [{ name: handler, member }],
  });
}

function readImport(n: Node, seen: ReachPart): void {
  if (n.type === 'import_statement') {
    for (const c of n.namedChildren) {
      const module = c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text;
      const local = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : c.text.split('.')[0];
      if (module && local) seen.imports.push({ local, module, name: '*' });
    }
    return;
  }
  const module = n.childForFieldName('module_name')?.text;
  if (!module) return;
  for (const c of n.childrenForFieldName('name')) {
    if (!c) continue;
    const name = c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text;
    const local = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : c.text;
    if (name && local) seen.imports.push({ local, module, name });
  }
}

/**
 * Functions handed to a framework as values, not called where they are written: a route's
 * handler wrapped in an error catcher (`router.get('/memes', asyncHandler(async (req, res) =>
 * …))`, `catchAsync(orders.get)`), a Lambda handler given to middleware in an options object
 * (`middyfy({ handler, eventSchema })`) or by a factory call (`.handler(makeHandler(logger,
 * service))`), a function of a module required in place (`wrap(require('./impl').run)`), and
 * route objects (`{ method: 'GET', path: '/items', handler: items.list }`: middy's
 * http-router, hapi's and Fastify's `route`). The reachability pass follows calls by name;
 * these say which names a route or an export runs.
 */
import type { Node } from 'web-tree-sitter';
import type { ImportBinding } from '../../model/entry-point';
import { isFunction } from './scope';

export interface Passed {
  /** Functions given by name: `listOrders`, `orders.list` (through a receiver: `member`). */
  named: Array<{ name: string; member: boolean }>;
  /** Functions written in place: their calls are the route's or the export's. */
  inline: Node[];
  /** Modules required where a function of theirs is given: `require('./impl').run`. */
  imports: ImportBinding[];
}

/** How deep options objects and wrapper calls are searched for functions. */
const MAX_DEPTH = 4;
/** Names that are values, never functions of the workspace. */
const NOT_FUNCTIONS = new Set(['undefined', 'null', 'true', 'false', 'this', 'process', 'console', 'module']);

/** The functions the given argument expressions hand over, searched through wrappers, options objects and lists. */
export function passedFunctions(args: readonly Node[]): Passed {
  const out: Passed = { named: [], inline: [], imports: [] };
  for (const a of args) collect(a, out, 0);
  return out;
}

function collect(n: Node, out: Passed, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (isFunction(n)) {
    out.inline.push(n);
    return;
  }
  switch (n.type) {
    case 'identifier':
    case 'shorthand_property_identifier':
      if (!NOT_FUNCTIONS.has(n.text)) out.named.push({ name: n.text, member: false });
      return;
    case 'member_expression': {
      const name = n.childForFieldName('property')?.text;
      const object = n.childForFieldName('object');
      if (!name || !object || /^process\.env\b/.test(n.text)) return;
      const required = requiredModule(object);
      if (required) out.imports.push({ local: object.text, module: required, name: '*' });
      out.named.push({ name, member: true });
      return;
    }
    case 'call_expression': {
      const callee = n.childForFieldName('function');
      // `controller.list.bind(controller)` gives `controller.list`.
      if (callee?.type === 'member_expression' && callee.childForFieldName('property')?.text === 'bind') {
        const bound = callee.childForFieldName('object');
        if (bound) collect(bound, out, depth + 1);
        return;
      }
      for (const a of argumentsOf(n)) collect(a, out, depth + 1);
      return;
    }
    case 'object':
      for (const p of n.namedChildren) {
        if (p?.type === 'shorthand_property_identifier') collect(p, out, depth + 1);
        // `AuthHandler({ async onSuccess(input) {...} })`: a method written in the object.
        else if (p?.type === 'method_definition') out.inline.push(p);
        else if (p?.type === 'pair') {
          const value = p.childForFieldName('value');
          if (value) collect(value, out, depth + 1);
        }
      }
      return;
    case 'array':
    case 'parenthesized_expression':
    case 'await_expression':
    case 'as_expression':
    case 'satisfies_expression':
    case 'non_null_expression':
      for (const c of n.namedChildren) if (c) collect(c, out, depth + 1);
      return;
  }
}

export function argumentsOf(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => !!a);
}

/** `./impl` of `require('./impl')`, else null. */
function requiredModule(n: Node): string | null {
  if (n.type !== 'call_expression' || n.childForFieldName('function')?.text !== 'require') return null;
  const source = argumentsOf(n)[0];
  return source && /^['"`][^'"`]+['"`]$/.test(source.text) ? source.text.slice(1, -1) : null;
}

/** A literal string's text (`'/items'`, `"GET"`, a template without substitutions), else null. */
function literal(n: Node | null | undefined): string | null {
  if (!n) return null;
  if (n.type === 'string') return n.text.slice(1, -1);
  if (n.type === 'template_string' && !n.text.includes('${')) return n.text.slice(1, -1);
  return null;
}

/**
 * The path of an Express route written as a chain: `router.route('/orders').get(list).post(create)`
 * read at `.post(...)` gives `/orders`; null when the chain does not start at `route(path)`.
 */
export function chainedRoutePath(callee: Node, httpMethods: ReadonlySet<string>): string | null {
  for (let obj = callee.childForFieldName('object'); obj?.type === 'call_expression';) {
    const fn = obj.childForFieldName('function');
    if (fn?.type !== 'member_expression') return null;
    const method = fn.childForFieldName('property')?.text ?? '';
    if (method === 'route') {
      const path = literal(argumentsOf(obj)[0]);
      return path?.startsWith('/') ? path : null;
    }
    if (!httpMethods.has(method.toLowerCase())) return null;
    obj = fn.childForFieldName('object');
  }
  return null;
}

/**
 * A route written as an object: `{ method: 'GET', path: '/items/{id}', handler: getItem }`
 * (middy's http-router, hapi's `server.route`), `{ method: ['GET', 'HEAD'], url: '/x', handler }`
 * (Fastify), the handler also under `options`/`config` (hapi). Its name (`GET /items/{id}`) and
 * the handler's expression; null for any other object.
 */
export function routeObject(n: Node): { name: string; handler: Node } | null {
  const props = new Map<string, Node>();
  for (const p of n.namedChildren) {
    if (p?.type === 'pair') {
      const key = p.childForFieldName('key');
      const value = p.childForFieldName('value');
      if (key && value) props.set(key.text.replace(/^['"]|['"]$/g, ''), value);
    } else if (p?.type === 'shorthand_property_identifier') props.set(p.text, p);
  }
  const method = props.get('method');
  const path = literal(props.get('path') ?? props.get('url'));
  if (!method || !path?.startsWith('/')) return null;
  const nested = [props.get('options'), props.get('config')].find((o) => o?.type === 'object');
  const handler =
    props.get('handler') ??
    nested?.namedChildren
      .find((p) => p?.type === 'pair' && p.childForFieldName('key')?.text === 'handler')
      ?.childForFieldName('value');
  if (!handler) return null;
  const methods =
    method.type === 'array'
      ? method.namedChildren.map((m) => literal(m))
      : [literal(method) ?? (null as string | null)];
  if (methods.some((m) => m === null)) return null;
  const verbs = methods.map((m) => (m === '*' ? 'ANY' : m!.toUpperCase()));
  return { name: `${verbs.join('|')} ${path}`, handler };
}

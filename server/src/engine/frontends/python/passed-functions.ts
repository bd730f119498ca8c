/**
 * Functions handed over as values in Python, not called where they are written: a Lambda
 * handler made by wrapping one at module level (`lambda_handler =
 * logger.inject_lambda_context(main)`, `handler = tracer.capture_lambda_handler(process)`,
 * `handler = Mangum(app)`), and a view registered by a call rather than a decorator
 * (`app.add_url_rule("/x", view_func=list_orders)`, `router.add_api_route("/x", read_item)`).
 * The reachability pass follows calls by name; these say which names a handler or a route runs.
 */
import type { Node } from 'web-tree-sitter';

/** How deep wrapper calls are searched for functions. */
const MAX_DEPTH = 4;
const NOT_FUNCTIONS = new Set(['None', 'True', 'False', 'self', 'cls']);

/** The functions the given expressions hand over (`main`, `views.list_orders`), searched through wrapper calls. */
export function passedNames(args: readonly Node[]): Array<{ name: string; member: boolean }> {
  const out: Array<{ name: string; member: boolean }> = [];
  const collect = (n: Node, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (n.type === 'identifier') {
      if (!NOT_FUNCTIONS.has(n.text)) out.push({ name: n.text, member: false });
    } else if (n.type === 'attribute') {
      const name = n.childForFieldName('attribute')?.text;
      if (name && !/^os\.environ\b/.test(n.text)) out.push({ name, member: true });
    } else if (n.type === 'keyword_argument') {
      const value = n.childForFieldName('value');
      if (value) collect(value, depth + 1);
    } else if (n.type === 'call') {
      for (const a of argumentsOf(n)) collect(a, depth + 1);
    }
  };
  for (const a of args) collect(a, 0);
  return out;
}

export function argumentsOf(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => !!a);
}

/**
 * `handler` of `handler = wrap(main)` written at module level, with the arguments the call
 * and the calls it is chained on are given (`Wrapper(cfg)(main)`, `make(main).with_tracing()`);
 * null for any other call.
 */
export function wrappedAssignment(call: Node): { name: string; given: Node[] } | null {
  const holder = call.parent;
  if (holder?.type !== 'assignment' || holder.childForFieldName('right')?.id !== call.id) return null;
  if (holder.parent?.type !== 'expression_statement' || holder.parent.parent?.type !== 'module') return null;
  const left = holder.childForFieldName('left');
  if (left?.type !== 'identifier') return null;
  const given: Node[] = [];
  for (let at: Node | null = call; at?.type === 'call';) {
    given.push(...argumentsOf(at));
    const fn = at.childForFieldName('function');
    at = fn?.type === 'attribute' ? fn.childForFieldName('object') : fn;
  }
  return { name: left.text, given };
}

/**
 * A view registered by a call: Flask's `add_url_rule(rule, endpoint, view_func, methods=...)`,
 * FastAPI's `add_api_route(path, endpoint, methods=...)`. The path, the methods and the view's
 * expression; null for any other call.
 */
export function registeredView(
  method: string,
  args: Node[],
  stringOf: (n: Node) => string | null,
): { path: string; methods: string[]; view: Node } | null {
  const positional = args.filter((a) => a.type !== 'keyword_argument');
  const keyword = (name: string) =>
    args
      .find((a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === name)
      ?.childForFieldName('value') ?? null;
  const path = positional[0] ? stringOf(positional[0]) : null;
  if (!path?.startsWith('/')) return null;
  const view =
    method === 'add_url_rule' ? (keyword('view_func') ?? positional[2]) : (keyword('endpoint') ?? positional[1]);
  if (!view) return null;
  const listed = keyword('methods')?.namedChildren.map((m) => (m ? stringOf(m)?.toUpperCase() : null));
  const methods = listed?.filter((m): m is string => !!m) ?? ['GET'];
  return { path, methods: methods.length ? methods : ['GET'], view };
}

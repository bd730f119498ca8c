/**
 * Entry points a Python decorator declares: Flask and blueprint routes, FastAPI routes (an
 * `APIRouter`'s prefix too), Powertools and AppSync resolvers, Chalice routes, schedules
 * (`Rate`, `Cron`) and event handlers, with paths written through module constants.
 */
import type { Node } from 'web-tree-sitter';
import { entryPoint, HTTP_METHODS } from '../file-reach';
import { cronPerHour, parseRate, ratePerHourOf } from '../schedule-rates';
import type { EntryKind } from '../../model/entry-point';
import { spanOf } from '../../syntax/span';

/** Chalice's event decorators and what invokes them. */
const CHALICE_EVENTS: Record<string, EntryKind> = {
  on_sqs_message: 'queue',
  on_dynamodb_record: 'stream',
  on_kinesis_record: 'stream',
  on_s3_event: 'event',
  on_sns_message: 'event',
  on_cw_event: 'event',
  websocket_message: 'websocket',
  lambda_function: 'unknown',
};
const RATE_UNITS: Record<string, string> = { MINUTES: 'minutes', HOURS: 'hours', DAYS: 'days' };

/** `router = APIRouter(prefix="/items")`, `bp = Blueprint("votes", __name__, url_prefix="/votes")`: name → prefix. */
export function routerPrefixes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^(\w+)\s*=\s*(?:APIRouter|Blueprint)\(([^)]*)\)/gm)) {
    const prefix = /\b(?:url_)?prefix\s*=\s*['"]([^'"]*)['"]/.exec(m[2]);
    if (prefix) out.set(m[1], prefix[1].replace(/\/$/, ''));
  }
  return out;
}

/** What a route's path may be read through: routers' prefixes, the module's path constants. */
export interface RouteNames {
  prefixes: Map<string, string>;
  paths: Map<string, string>;
}

/**
 * The module's path constants (`ORDERS_PATH = "/api/orders/"`): a route may name its path by
 * one (`@app.post(ORDERS_PATH)`, `@app.get(f"{ORDERS_PATH}<order_id>")`). Read from the
 * text as a whole (and kept in the reading's mode), so an edit of the constant reads the
 * routes again.
 */
export function pathConstants(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^([A-Z][A-Z0-9_]*)\s*(?::\s*str\s*)?=\s*[rRuU]?(['"])(\/[^'"\n]*)\2\s*$/gm))
    out.set(m[1], m[3]);
  return out;
}

/**
 * A route's path as written: a string, or a constant (`ORDERS_PATH`, `paths.ORDERS`), an
 * f-string or a `+` of them. A constant of this module is put in; one imported stays as its
 * name in braces (`{ORDERS_PATH}<order_id>`), which the reading of that module does not give
 * here. Null when the expression is no path (a lower-case name, a call).
 */
function routePath(n: Node | undefined, paths: Map<string, string>, depth = 0): string | null {
  if (!n || depth > 4) return null;
  const constant = (name: string) =>
    /^(?:\w+\.)*[A-Z][A-Z0-9_]*$/.test(name) ? (paths.get(name) ?? `{${name}}`) : null;
  if (n.type === 'identifier' || n.type === 'attribute') return constant(n.text);
  if (n.type === 'binary_operator' && n.childForFieldName('operator')?.text === '+') {
    const left = routePath(n.childForFieldName('left') ?? undefined, paths, depth + 1);
    const right = routePath(n.childForFieldName('right') ?? undefined, paths, depth + 1);
    return left !== null && right !== null ? left + right : null;
  }
  if (n.type !== 'string') return null;
  if (!n.namedChildren.some((c) => c?.type === 'interpolation')) return stringOf(n);
  let out = '';
  for (const c of n.namedChildren) {
    if (!c || c.type === 'string_start' || c.type === 'string_end') continue;
    if (c.type !== 'interpolation') {
      out += c.text;
      continue;
    }
    const inner = c.childForFieldName('expression') ?? c.namedChild(0);
    const v = inner ? routePath(inner, paths, depth + 1) : null;
    if (v === null) return null;
    out += v;
  }
  return out;
}

/** The entry point a decorator declares (`@app.route("/votes", methods=["POST"])`), or null. */
export function decoratorEntry(d: Node, fn: string, file: string, { prefixes, paths }: RouteNames) {
  const call = d.namedChildren[0];
  if (call?.type !== 'call') return null;
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'attribute') return null;
  const method = callee.childForFieldName('attribute')?.text ?? '';
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const first = args.find((a) => a.type !== 'keyword_argument');
  const at = spanOf(d);
  const written = routePath(first, paths);
  const prefix = prefixes.get(callee.childForFieldName('object')?.text ?? '') ?? '';
  // A path named by an imported constant (`{ORDERS_PATH}`) is taken as rooted.
  const path = written && /^[/{]/.test(written) ? prefix + written : written;
  const rooted = !!path && /^[/{]/.test(path);
  if ((method === 'route' || method === 'api_route') && rooted) {
    const methods = keyword(args, 'methods')?.namedChildren.map((m) => stringOf(m)?.toUpperCase()) ?? ['GET'];
    const name = `${methods.filter(Boolean).join('|') || 'GET'} ${path}`;
    return entryPoint('api', name, file, fn, at, name);
  }
  if (HTTP_METHODS.has(method) && rooted) {
    const name = `${method === 'all' ? 'ANY' : method.toUpperCase()} ${path}`;
    return entryPoint('api', name, file, fn, at, name);
  }
  if (method === 'websocket' && path) return entryPoint('websocket', path, file, fn, at, path);
  // Powertools' AppSyncResolver: `@app.resolver(type_name="Query", field_name="listBadges")`,
  // one GraphQL field per request (AppSync calls the Lambda, its handler `app.resolve`s the field).
  const field = method === 'resolver' ? keyword(args, 'field_name') : null;
  if (field?.type === 'string') {
    const type = keyword(args, 'type_name');
    const name = `${(type && stringOf(type)) ?? 'GraphQL'} ${stringOf(field)}`;
    return entryPoint('api', name, file, fn, at, name);
  }
  if (method === 'schedule' && first) {
    const rate = scheduleOf(first);
    return entryPoint('schedule', rate.trigger, file, fn, at, rate.trigger, rate.ratePerHour);
  }
  const kind = CHALICE_EVENTS[method];
  if (!kind) return null;
  const batch = keyword(args, 'batch_size');
  const trigger = [method, ...args.map((a) => a.text)].join(' ');
  const entry = entryPoint(kind, `${method} ${fn}`, file, fn, at, trigger);
  return batch && /^\d+$/.test(batch.text) ? { ...entry, batchSize: Number(batch.text) } : entry;
}

/** `Rate(5, unit=Rate.MINUTES)`, `Cron(0, 10, '*', '*', '?', '*')` or `"rate(5 minutes)"`. */
function scheduleOf(n: Node): { trigger: string; ratePerHour: number | null } {
  if (n.type === 'string') return parseRate(stringOf(n) ?? '') ?? { trigger: n.text, ratePerHour: null };
  if (n.type !== 'call') return { trigger: n.text, ratePerHour: null };
  const kind = n.childForFieldName('function')?.text;
  const args = n.childForFieldName('arguments')?.namedChildren ?? [];
  if (kind === 'Rate') {
    const count = Number(args[0]?.text);
    const unit = RATE_UNITS[(keyword(args, 'unit') ?? args[1])?.text.split('.').pop() ?? ''] ?? 'minutes';
    const trigger = `rate(${count} ${count === 1 ? unit.replace(/s$/, '') : unit})`;
    return { trigger, ratePerHour: ratePerHourOf(count, unit) };
  }
  if (kind === 'Cron') {
    const fields = args.filter((a) => a.type !== 'keyword_argument').map((a) => stringOf(a) ?? a.text);
    return { trigger: `cron(${fields.join(' ')})`, ratePerHour: cronPerHour(fields) };
  }
  return { trigger: n.text, ratePerHour: null };
}

export function keyword(args: Node[], name: string): Node | null {
  const k = args.find((a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === name);
  return k?.childForFieldName('value') ?? null;
}

export function stringOf(n: Node): string | null {
  if (n.type !== 'string') return null;
  return n.text.replace(/^[a-zA-Z]*(['"]{1,3})/, '').replace(/['"]{1,3}$/, '');
}

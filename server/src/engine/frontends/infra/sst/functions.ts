/**
 * The Lambda functions of an SST app and what invokes each. SST makes a function for
 * each handler it is given, wherever it is given one:
 * - v3 (`sst.aws.*`): `new sst.aws.Function("Id", { handler })`, `new sst.aws.Cron("Id", {
 *   schedule, function })` (`job` before 3.3), `api.route("POST /votes", handler)` on an
 *   `ApiGatewayV2`, `ApiGatewayV1` or `ApiGatewayWebSocket`, and `x.subscribe(...)` on a
 *   `Dynamo` (its stream), a `Queue`, a `Bus` or an `SnsTopic`;
 * - v2 (`sst/constructs`): `new Function(stack, "Id", { handler })`, `new Api(stack, "Id", {
 *   routes })` and `api.addRoutes(stack, routes)`, `new Cron(stack, "Id", { schedule, job })`,
 *   a `Queue`'s `consumer`, a `Table`'s `consumers` and `addConsumers`;
 * - the auth server both make (v3 `sst.aws.Auth` `issuer`, v2 `Auth` `authenticator`).
 * A handler is written as text (`packages/functions/src/vote.handler`, relative to the app's
 * folder: the one holding `sst.config.ts`) or as function props (`{ handler, link }`; v2
 * `{ function: ... }`). A linked (v3) or bound (v2) table puts its name in the function's
 * environment as SST does: `SST_RESOURCE_<id>` (read as `Resource.<id>.name`),
 * `SST_Table_tableName_<id>` (read as `Table.<id>.tableName`).
 */
import * as path from 'node:path';
import type { CdkValue } from '../../../model/cdk';
import type { EnvValue, InfraFunction } from '../../../model/entry-point';
import { scheduleTrigger, type Trigger } from '../events';
import { resolveHandler, type InfraFiles } from '../handlers';
import { envValueOf } from '../cdk/environment';
import { constructOf, itemsOf, prop, propsOf, textOf, written, type CallValue, type NewValue } from '../cdk/values';
import { sstVariablesOf } from '../../../requests/env';
import type { Component, SstApp } from './app';

type Skip = { reason: string; source: { file: string; span: CdkValue['span'] } };

/** A handler as given: the text, and the function props around it (null when given as text alone). */
interface HandlerDef {
  handler: string;
  props: CdkValue | null;
}

/** Text, `{ handler }`, or v2's `{ function: text | { handler } }`; null when the value is none of them. */
export function handlerDef(v: CdkValue | null | undefined, depth = 0): HandlerDef | null {
  if (!v || depth > 3) return null;
  const text = plainText(v);
  if (text !== null) return { handler: text, props: null };
  if (v.kind !== 'object') return null;
  const handler = plainText(prop(v, 'handler'));
  if (handler !== null) return { handler, props: v };
  return handlerDef(prop(v, 'function'), depth + 1);
}

/** Text, also written as a template literal with nothing put in (`\`packages/api/src/animal.list\``). */
function plainText(v: CdkValue | null | undefined): string | null {
  if (v?.kind === 'template' && v.parts.every((p) => 'text' in p))
    return v.parts.map((p) => ('text' in p ? p.text : '')).join('');
  return textOf(v);
}

/** What a function made from `def` needs besides its handler: its name, trigger and defaults. */
export interface Made {
  name: string;
  def: HandlerDef;
  trigger: Trigger | null;
  /** Function props that apply unless the handler's own say otherwise (v2 `defaults.function`). */
  defaults?: CdkValue | null;
  span: CdkValue['span'];
}

/** The function SST makes for `made`, its handler followed to its source. */
export function sstFunctionOf(made: Made, app: SstApp, files: InfraFiles, skipped: Skip[]): InfraFunction {
  const source = { file: app.file, span: made.span };
  const { def } = made;
  const srcPath = textOf(prop(def.props, 'srcPath')) ?? textOf(prop(made.defaults, 'srcPath'));
  const base = srcPath ? path.join(app.root, srcPath) : app.root;
  const target = resolveHandler(def.handler, base, files, { declaredIn: app.root });
  if ('reason' in target) skipped.push({ reason: `${made.name}: ${target.reason}`, source });
  const runtime = textOf(prop(def.props, 'runtime')) ?? textOf(prop(made.defaults, 'runtime'));
  return {
    name: made.name,
    runtime,
    handler: def.handler,
    handlerFile: 'reason' in target ? null : target.file,
    handlerFunction: 'reason' in target ? null : target.fn,
    triggers: [],
    environment: { ...environmentOf(made.defaults ?? null, app), ...environmentOf(def.props, app) },
    source,
  };
}

/** The variables function props set: `environment`, and the tables of `link` (v3) or `bind` (v2). */
function environmentOf(props: CdkValue | null, app: SstApp): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  for (const { key, value } of propsOf(prop(props, 'environment'))) env[key] = sstEnvValue(value, app);
  for (const linked of [...itemsOf(prop(props, 'link')), ...itemsOf(prop(props, 'bind'))]) {
    const table = tableRef(app.componentOf(linked));
    if (table) for (const variable of sstVariablesOf(table.logicalId)) env[variable] = table;
  }
  return env;
}

/** An environment value, a v3 table's `table.name` read as the table (v2's `table.tableName` is the CDK's). */
function sstEnvValue(v: CdkValue, app: SstApp): EnvValue {
  const table = v.kind === 'member' && /^(name|tableName)$/.test(v.name) ? tableRef(app.componentOf(v.object)) : null;
  return table ?? envValueOf(v);
}

function tableRef(c: Component | null): Extract<EnvValue, { kind: 'table' }> | null {
  if (!c || (c.kind !== 'Dynamo' && c.kind !== 'Table')) return null;
  return c.file ? { kind: 'table', logicalId: c.id, file: c.file } : { kind: 'table', logicalId: c.id };
}

const api = (route: string, span: CdkValue['span']): Trigger => ({
  kind: 'api',
  name: route,
  trigger: route,
  ratePerHour: null,
  span,
});

/** A route key: `GET /votes`, `ANY /{proxy+}`, `$default`, a WebSocket's `$connect` or `sendMessage`. */
const ROUTE = /^(?:(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ANY)\s+\/\S*|\$\w+)$/i;

/** Each function SST makes from the constructs and calls of one file. */
export function madeFunctions(constructs: readonly NewValue[], calls: readonly CallValue[], app: SstApp): Made[] {
  const out: Made[] = [];
  const push = (
    name: string,
    v: CdkValue | null | undefined,
    trigger: Trigger | null,
    span: CdkValue['span'],
    defaults?: CdkValue | null,
  ) => {
    const def = handlerDef(v);
    if (def) out.push({ name, def, trigger, span, defaults });
  };
  for (const n of constructs) {
    const kind = app.kindOf(n);
    const id = app.idOf(n);
    if (!kind || !id) continue;
    if (kind === 'Function') {
      const url = prop(n.props, 'url');
      push(id, n.props, url && !(url.kind === 'bool' && !url.value) ? api('function URL', n.span) : null, n.span);
    } else if (kind === 'Cron') {
      const schedule = prop(n.props, 'schedule');
      const expression = textOf(schedule);
      const trigger = expression
        ? scheduleTrigger(id, expression, n.span)
        : { kind: 'schedule' as const, name: id, trigger: written(schedule), ratePerHour: null, span: n.span };
      push(id, prop(n.props, 'function') ?? prop(n.props, 'job'), trigger, n.span);
    } else if (kind === 'Api') {
      const defaults = prop(prop(n.props, 'defaults'), 'function');
      for (const [route, value] of routesOf(prop(n.props, 'routes')))
        push(`${id} ${route}`, value, api(route, value.span), value.span, defaults);
    } else if (kind === 'Auth') {
      // The auth server's handler answers every sign-in and token request (v3 `issuer`,
      // `authorizer` before it; v2 `authenticator`).
      const handler = prop(n.props, 'issuer') ?? prop(n.props, 'authorizer') ?? prop(n.props, 'authenticator');
      push(`${id} auth`, handler, api(`${id}: sign-in routes`, n.span), n.span);
    } else if (kind === 'Queue') {
      push(`${id} consumer`, prop(n.props, 'consumer'), batched('queue', 'SQS', id, n.span), n.span);
    } else if (kind === 'Table') {
      for (const { key, value } of propsOf(prop(n.props, 'consumers')))
        push(`${id} ${key}`, value, batched('stream', 'DynamoDB', id, value.span), value.span);
    }
  }
  for (const c of calls) {
    const receiver = constructOf(c.receiver)?.construct ?? null;
    const component = app.componentOf(c.receiver);
    const kind = component?.kind ?? null;
    const owner = component?.id ?? written(c.receiver);
    if (c.name === 'route' && ROUTE.test(textOf(c.args[0]) ?? '')) {
      const route = textOf(c.args[0])!;
      push(`${owner} ${route}`, c.args[1], api(route, c.span), c.span);
    } else if (c.name === 'addRoutes' && kind === 'Api') {
      const defaults = prop(prop(receiver!.props, 'defaults'), 'function');
      for (const [route, value] of routesOf(c.args[1] ?? c.props))
        push(`${owner} ${route}`, value, api(route, value.span), value.span, defaults);
    } else if (c.name === 'addConsumers' && kind === 'Table') {
      for (const { key, value } of propsOf(c.args[1] ?? c.props))
        push(`${owner} ${key}`, value, batched('stream', 'DynamoDB', owner, value.span), value.span);
    } else if (c.name === 'subscribe' && component) {
      // v3: `subscribe(name, subscriber, args)`; before 3.2 `subscribe(subscriber, args)`.
      const named = textOf(c.args[0]) !== null && handlerDef(c.args[1]) !== null;
      const subscriber = named ? c.args[1] : c.args[0];
      push(`${owner} subscriber`, subscriber, subscribed(component.kind, owner, c.span), c.span);
    }
  }
  return out;
}

/** v2 routes by key, the key's spacing made one space (`"GET    /notes"` lines up in SST's guide). */
function routesOf(routes: CdkValue | null | undefined): Array<[string, CdkValue]> {
  return propsOf(routes).map((e) => [e.key.trim().replace(/\s+/g, ' '), e.value]);
}

function batched(kind: 'queue' | 'stream', type: string, name: string, span: CdkValue['span']): Trigger {
  return { kind, name, trigger: `${type} ${name}`, ratePerHour: null, batchSize: null, span };
}

/** What a `subscribe` call on a construct of `kind` invokes its subscriber on. */
function subscribed(kind: string, name: string, span: CdkValue['span']): Trigger {
  if (kind === 'Dynamo' || kind === 'Table') return batched('stream', 'DynamoDB', name, span);
  if (kind === 'Queue') return batched('queue', 'SQS', name, span);
  if (kind === 'KinesisStream') return batched('stream', 'Kinesis', name, span);
  const type = kind === 'SnsTopic' ? 'SNS' : kind === 'Bus' ? 'EventBridge' : `${kind}`;
  return { kind: 'event', name, trigger: `${type} ${name}`, ratePerHour: null, span };
}

/**
 * What invokes each CDK function: EventBridge rules (`schedule` with `targets` or
 * `addTarget(new targets.LambdaFunction(fn))`), EventBridge Scheduler schedules, REST
 * APIs (`LambdaRestApi`, `resource.addResource('x').addMethod('GET', new
 * LambdaIntegration(fn))`), HTTP APIs (`addRoutes` with an `HttpLambdaIntegration`),
 * WebSocket APIs (`connectRouteOptions` and the like, `addRoute('sendmessage', ...)` with a
 * `WebSocketLambdaIntegration`),
 * event sources (`fn.addEventSource(new SqsEventSource(q, { batchSize }))`, or the
 * function's `events` prop), SNS subscriptions, function URLs, and the state machines
 * invoking a function (`state-machines.ts`). Keyed by the function construct's `at`.
 */
import type { CdkValue } from '../../../model/cdk';
import { scheduleTrigger, type Trigger } from '../events';
import { expressionOf } from './schedule';
import { stepTriggers } from '../state-machines';
import { invokedFunctions, restApiStart, startedMachine, type CdkFiles } from './state-machines';
import {
  argumentOf,
  constructId,
  constructOf,
  itemsOf,
  lastName,
  numberOf,
  prop,
  textOf,
  written,
  type CallValue,
  type NewValue,
} from './values';

export type Triggers = Map<number, Trigger[]>;

/** A trigger given to a function construct another file of the app makes (a `ref`). */
export interface TriggerOfOther {
  construct: NewValue;
  file: string;
  trigger: Trigger;
}

/**
 * What triggers each function construct (by its `at`), and what starts each state machine
 * construct (`machines`, by its `at`; a machine nothing here starts has none).
 */
export function triggersOf(
  constructs: readonly NewValue[],
  calls: readonly CallValue[],
  read?: CdkFiles,
): { functions: Triggers; machines: Triggers; others: TriggerOfOther[] } {
  const out: Triggers = new Map();
  const others: TriggerOfOther[] = [];
  const add = (fn: CdkValue | null | undefined, t: Trigger) => {
    if (fn?.kind === 'ref' && FUNCTION_CLASSES.has(fn.construct.className))
      others.push({ construct: fn.construct, file: fn.file, trigger: t });
    if (fn?.kind !== 'new') return;
    const list = out.get(fn.at);
    if (list) list.push(t);
    else out.set(fn.at, [t]);
  };
  const callsOn = (n: NewValue, name: string) =>
    calls.filter((c) => c.name === name && c.receiver?.kind === 'new' && c.receiver.at === n.at);
  // What starts each state machine, by the machine construct's `at`.
  const starts = new Map<number, Trigger[]>();
  const start = (machine: CdkValue | null | undefined, t: Trigger) => {
    if (machine?.kind === 'new') starts.set(machine.at, [...(starts.get(machine.at) ?? []), t]);
  };

  for (const n of constructs) {
    const id = constructId(n) ?? n.qualified;
    if (n.className === 'Rule' && !/config\./.test(n.qualified)) {
      const targets = [...itemsOf(prop(n.props, 'targets')), ...callsOn(n, 'addTarget').map((c) => c.args[0])];
      const t = ruleTrigger(n, id);
      for (const target of targets) {
        add(invoked(target, 'LambdaFunction', 0, 'handler'), t);
        start(startedMachine(target), t);
      }
    } else if (n.className === 'Schedule' && prop(n.props, 'target')) {
      const target = prop(n.props, 'target');
      const expr = expressionOf(prop(n.props, 'schedule'));
      const t = expr ? scheduleTrigger(id, expr, n.span) : unreadSchedule(id, n);
      add(invoked(target, 'LambdaInvoke', 0, 'func'), t);
      start(startedMachine(target), t);
    } else if (n.className === 'LambdaRestApi') {
      // `proxy: false`: only the methods added to its resources are routes.
      const proxy = prop(n.props, 'proxy');
      if (!(proxy?.kind === 'bool' && !proxy.value)) add(prop(n.props, 'handler'), api('ANY /{proxy+}', n));
    } else if (n.className === 'HttpApi') {
      const fn = httpLambdaOf(prop(n.props, 'defaultIntegration'));
      if (fn) add(fn, api('ANY /{proxy+}', n));
    } else if (n.className === 'WebSocketApi') {
      for (const [option, route] of WEBSOCKET_ROUTE_OPTIONS)
        add(webSocketLambdaOf(prop(prop(n.props, option), 'integration')), websocket(route, n));
    } else if (FUNCTION_CLASSES.has(n.className)) {
      for (const source of itemsOf(prop(n.props, 'events'))) eventSource(source, (t) => add(n, t));
    } else {
      const api = restApiStart(n);
      if (api) start(api.machine, api.trigger);
    }
  }
  for (const n of constructs) {
    if (n.className !== 'StateMachine' || (!prop(n.props, 'definitionBody') && !prop(n.props, 'definition'))) continue;
    const id = constructId(n) ?? n.qualified;
    for (const { fn, perItem } of invokedFunctions(n, read))
      for (const t of stepTriggers(id, starts.get(n.at) ?? [], n.span, perItem)) add(fn, t);
  }

  for (const c of calls) {
    if (c.name === 'addMethod') {
      const where = resourcePath(c.receiver);
      const method = (textOf(c.args[0]) ?? 'ANY').toUpperCase();
      if (!where) continue;
      const route = `${method} ${where.path || '/'}`;
      add(lambdaOf(c.args[1]) ?? defaultHandler(where.api), api(route, c));
    } else if (c.name === 'addRoutes') {
      const arg = c.args[0] ?? c.props;
      const integration = prop(arg, 'integration');
      const route = textOf(prop(arg, 'path')) ?? '/';
      const methods = itemsOf(prop(arg, 'methods')).map((m) => lastName(m) ?? textOf(m) ?? 'ANY');
      const fn = httpLambdaOf(integration);
      for (const m of methods.length ? methods : ['ANY']) if (fn) add(fn, api(`${m} ${route}`, c));
    } else if (c.name === 'addRoute') {
      // `webSocketApi.addRoute('sendmessage', { integration })`; Python passes the options as keywords.
      const route = textOf(c.args[0]);
      const fn = webSocketLambdaOf(prop(c.args[1] ?? c.props, 'integration'));
      if (route && fn) add(fn, websocket(route, c));
    } else if (c.name === 'addEventSource') {
      eventSource(c.args[0], (t) => add(c.receiver, { ...t, span: c.span }));
    } else if (c.name === 'addSubscription') {
      const topic = c.receiver?.kind === 'new' ? (constructId(c.receiver) ?? 'topic') : written(c.receiver);
      add(invoked(c.args[0], 'LambdaSubscription', 0, 'fn'), {
        kind: 'event',
        name: topic,
        trigger: `SNS ${topic}`,
        ratePerHour: null,
        span: c.span,
      });
    } else if (c.name === 'addFunctionUrl') {
      add(c.receiver, { kind: 'api', name: 'function URL', trigger: 'function URL', ratePerHour: null, span: c.span });
    }
  }
  return { functions: out, machines: starts, others };
}

/** The Lambda function constructs. */
export const FUNCTION_CLASSES = new Set(['Function', 'NodejsFunction', 'PythonFunction']);

function isNew(v: CdkValue | null | undefined, className: string): v is NewValue {
  return v?.kind === 'new' && v.className === className;
}

/**
 * The function a target or integration of class `className` invokes: its argument at `index`
 * (null: props only), or the keyword Python passes it by. The construction may be made in
 * another file of the app (`props.booksLambdaIntegration`, a stack's field
 * `new LambdaIntegration(booksLambda)`): the function is then named as made in that file.
 */
function invoked(
  v: CdkValue | null | undefined,
  className: string,
  index: number | null,
  keyword: string,
): CdkValue | null {
  const n = v?.kind === 'ref' ? v.construct : v;
  if (!isNew(n, className)) return null;
  const fn = index === null ? prop(n.props, keyword) : argumentOf(n, index, keyword);
  if (v?.kind !== 'ref' || fn?.kind !== 'new') return fn;
  return { kind: 'ref', file: v.file, construct: fn, span: v.span };
}

function api(route: string, at: { span: Trigger['span'] }): Trigger {
  return { kind: 'api', name: route, trigger: route, ratePerHour: null, span: at.span };
}

/** A WebSocket API's route: run per message, named as the Serverless Framework's `websocket` events are. */
function websocket(route: string, at: { span: Trigger['span'] }): Trigger {
  return { kind: 'websocket', name: route, trigger: `websocket ${route}`, ratePerHour: null, span: at.span };
}

/** The props of `new WebSocketApi(...)` that route a connection's events, and the route each is. */
const WEBSOCKET_ROUTE_OPTIONS = [
  ['connectRouteOptions', '$connect'],
  ['disconnectRouteOptions', '$disconnect'],
  ['defaultRouteOptions', '$default'],
] as const;

/** The function a `new WebSocketLambdaIntegration('Id', fn)` invokes. */
function webSocketLambdaOf(v: CdkValue | null | undefined): CdkValue | null {
  return invoked(v, 'WebSocketLambdaIntegration', 1, 'handler');
}

function unreadSchedule(name: string, n: NewValue): Trigger {
  return { kind: 'schedule', name, trigger: written(prop(n.props, 'schedule')), ratePerHour: null, span: n.span };
}

/** An EventBridge rule: its schedule, or the event sources its pattern names. */
function ruleTrigger(n: NewValue, id: string): Trigger {
  const schedule = prop(n.props, 'schedule');
  if (schedule) {
    const expr = expressionOf(schedule);
    return expr ? scheduleTrigger(id, expr, n.span) : unreadSchedule(id, n);
  }
  const sources = itemsOf(prop(prop(n.props, 'eventPattern'), 'source'))
    .map(textOf)
    .filter((s): s is string => !!s);
  const trigger = sources.length ? `EventBridge source ${sources.join(', ')}` : `EventBridge rule ${id}`;
  return { kind: 'event', name: id, trigger, ratePerHour: null, span: n.span };
}

const SOURCES: Record<string, { kind: Trigger['kind']; type: string }> = {
  SqsEventSource: { kind: 'queue', type: 'SQS' },
  DynamoEventSource: { kind: 'stream', type: 'DynamoDB' },
  KinesisEventSource: { kind: 'stream', type: 'Kinesis' },
  SnsEventSource: { kind: 'event', type: 'SNS' },
  S3EventSource: { kind: 'event', type: 'S3' },
};

function eventSource(v: CdkValue | null | undefined, add: (t: Trigger) => void): void {
  if (v?.kind !== 'new') return;
  const s = SOURCES[v.className];
  if (!s) return;
  const from = constructOf(v.args[0])?.construct;
  const name = from ? (constructId(from) ?? from.qualified) : written(v.args[0]);
  const batch = numberOf(prop(v.props, 'batchSize'));
  const batched = s.kind === 'queue' || s.kind === 'stream';
  add({
    kind: s.kind,
    name,
    trigger: `${s.type} ${name}${batch !== null ? `, batchSize ${batch}` : ''}`,
    ratePerHour: null,
    ...(batched ? { batchSize: batch } : {}),
    span: v.span,
  });
}

/**
 * The function an HTTP API integration invokes: `new HttpLambdaIntegration('Id', fn)`, or
 * the CDK v1 `new LambdaProxyIntegration({ handler: fn })` (Python: `handler=fn`).
 */
function httpLambdaOf(v: CdkValue | null | undefined): CdkValue | null {
  return invoked(v, 'HttpLambdaIntegration', 1, 'handler') ?? invoked(v, 'LambdaProxyIntegration', null, 'handler');
}

/** The function a `new LambdaIntegration(fn)` invokes. */
function lambdaOf(v: CdkValue | null | undefined): CdkValue | null {
  return invoked(v, 'LambdaIntegration', 0, 'handler');
}

/** The function a REST API sends every method to unless told otherwise. */
function defaultHandler(a: NewValue): CdkValue | null {
  if (a.className === 'LambdaRestApi') return prop(a.props, 'handler');
  return lambdaOf(prop(a.props, 'defaultIntegration'));
}

/** `api.root.addResource('polls').addResource('{id}')`: the API and the path `/polls/{id}`. */
function resourcePath(v: CdkValue | null, depth = 0): { api: NewValue; path: string } | null {
  if (!v || depth > 20) return null;
  if (v.kind === 'member' && v.name === 'root' && v.object.kind === 'new') return { api: v.object, path: '' };
  if (v.kind !== 'call') return null;
  const parent = resourcePath(v.receiver, depth + 1);
  if (!parent) return null;
  const part = textOf(v.args[0]);
  if (v.name === 'addResource' && part) return { api: parent.api, path: `${parent.path}/${part}` };
  if (v.name === 'resourceForPath' && part)
    return { api: parent.api, path: `${parent.path}/${part.replace(/^\/+|\/+$/g, '')}` };
  if (v.name === 'addProxy') return { api: parent.api, path: `${parent.path}/{proxy+}` };
  return null;
}

/**
 * What invokes a Terraform-declared function, read from the resources that name it:
 * EventBridge rules through their targets, EventBridge Scheduler schedules, event source
 * mappings (SQS, Kinesis, DynamoDB streams), API Gateway integrations (HTTP and WebSocket
 * APIs with their routes, REST APIs with their method and resource path), and the state
 * machines (`aws_sfn_state_machine`) whose definition names it, started by what starts them.
 */
import type { Trigger } from '../events';
import { scheduleTrigger } from '../events';
import { PER_ITEM, stepTriggers } from '../state-machines';
import type { Block, TfExpr } from './hcl';
import { referenced, textOf, written, type Resource, type TfModule } from './module';

const typeOf = (r: Resource) => (r.address.startsWith('data.') ? '' : r.block.labels[0]);

/**
 * The triggers of the function (or state machine) resource `fn`, by what the module's other
 * resources say, each with the file of the resource it points at (any `.tf` file of the module).
 */
export function triggersOf(fn: Resource, mod: TfModule, depth = 0): Trigger[] {
  const out: Trigger[] = [];
  for (const r of mod.resources.values())
    for (const t of triggersFrom(r, fn, mod, depth)) out.push(t.file ? t : { ...t, file: r.file });
  return out;
}

/** What resource `r` says invokes `fn`; a trigger whose span is in another resource's file says which. */
function triggersFrom(r: Resource, fn: Resource, mod: TfModule, depth: number): Trigger[] {
  const out: Trigger[] = [];
  const names = (b: Block, attr: string) => referenced(b.attributes.get(attr), mod)?.resource === fn;
  const text = (b: Block, attr: string) => textOf(b.attributes.get(attr), mod)?.text ?? null;
  const b = r.block;
  const span = b.span;
  switch (typeOf(r)) {
    case 'aws_cloudwatch_event_target': {
      if (!names(b, 'arn')) break;
      const rule = referenced(b.attributes.get('rule'), mod)?.resource;
      const expression = rule ? text(rule.block, 'schedule_expression') : null;
      const name = rule?.address ?? text(b, 'rule') ?? r.address;
      if (expression) out.push({ ...scheduleTrigger(name, expression, span) });
      else out.push({ kind: 'event', name, trigger: rule ? 'event pattern' : name, ratePerHour: null, span });
      break;
    }
    case 'aws_scheduler_schedule': {
      const target = b.blocks.find((x) => x.type === 'target');
      const expression = text(b, 'schedule_expression');
      if (target && names(target, 'arn') && expression) out.push(scheduleTrigger(r.address, expression, span));
      break;
    }
    case 'aws_lambda_event_source_mapping': {
      if (!names(b, 'function_name')) break;
      const from = referenced(b.attributes.get('event_source_arn'), mod)?.resource;
      const kind = from && typeOf(from) === 'aws_sqs_queue' ? 'queue' : 'stream';
      const batch = text(b, 'batch_size');
      const source = b.attributes.get('event_source_arn');
      out.push({
        kind: from ? kind : /sqs/.test(source ? written(source) : '') ? 'queue' : 'stream',
        name: from?.address ?? (source ? written(source) : r.address),
        trigger: batch ? `batchSize ${batch}` : r.address,
        ratePerHour: null,
        batchSize: batch && /^\d+$/.test(batch) ? Number(batch) : null,
        span,
      });
      break;
    }
    case 'aws_apigatewayv2_integration': {
      if (!names(b, 'integration_uri')) break;
      const routes = [...mod.resources.values()].filter(
        (x) =>
          typeOf(x) === 'aws_apigatewayv2_route' && referenced(x.block.attributes.get('target'), mod)?.resource === r,
      );
      // A WebSocket API's routes run per message (`$connect`, `sendmessage`), named as the
      // Serverless Framework's `websocket` events and CloudFormation's routes are.
      const api = referenced(b.attributes.get('api_id'), mod)?.resource;
      const websocket = !!api && text(api.block, 'protocol_type') === 'WEBSOCKET';
      for (const route of routes) {
        const key = text(route.block, 'route_key') ?? route.address;
        const trigger = websocket ? `websocket ${key}` : key;
        out.push({
          kind: websocket ? 'websocket' : 'api',
          name: key,
          trigger,
          ratePerHour: null,
          span: route.block.span,
          file: route.file,
        });
      }
      if (routes.length === 0) out.push({ kind: 'api', name: r.address, trigger: r.address, ratePerHour: null, span });
      break;
    }
    case 'aws_api_gateway_integration': {
      if (!names(b, 'uri')) break;
      const method = methodOf(b, mod);
      const route = `${method} ${resourcePath(b, mod)}`;
      out.push({ kind: 'api', name: route, trigger: route, ratePerHour: null, span });
      break;
    }
    case 'aws_sfn_state_machine': {
      // A step runs when its machine runs: what starts the machine (rules, schedules naming its arn).
      const step = depth === 0 ? stepIn(b.attributes.get('definition'), fn, mod) : null;
      if (step) out.push(...stepTriggers(r.address, triggersOf(r, mod, depth + 1), span, step.perItem));
      break;
    }
  }
  return out;
}

/**
 * Whether a state machine's `definition` names function `fn` (`Resource = aws_lambda_function.x.arn`
 * in a `jsonencode`, an argument of `templatefile`, or a `vars` entry of the `data "template_file"`
 * it renders), and whether inside a `Map` state.
 */
function stepIn(
  e: TfExpr | undefined,
  fn: Resource,
  mod: TfModule,
  perItem = false,
  depth = 0,
): { perItem: boolean } | null {
  if (!e || depth > 30) return null;
  const inner: Array<[TfExpr, boolean]> =
    e.kind === 'object'
      ? e.entries.map((x) => [x.value, perItem || PER_ITEM.has(x.key)])
      : e.kind === 'list'
        ? e.items.map((x) => [x, perItem])
        : e.kind === 'call'
          ? e.args.map((x) => [x, perItem])
          : e.kind === 'template'
            ? e.parts.flatMap((x): Array<[TfExpr, boolean]> => (typeof x === 'string' ? [] : [[x, perItem]]))
            : [];
  const target = e.kind === 'ref' ? referenced(e, mod)?.resource : undefined;
  if (target === fn) return { perItem };
  // `definition = data.template_file.flow.rendered`: the function named in the template's `vars`.
  const vars = target?.address.startsWith('data.template_file.') ? target.block.attributes.get('vars') : undefined;
  if (vars) inner.push([vars, perItem]);
  for (const [x, each] of inner) {
    const found = stepIn(x, fn, mod, each, depth + 1);
    if (found) return found;
  }
  return null;
}

/** `http_method = aws_api_gateway_method.get.http_method` or a literal: the method, else ANY. */
function methodOf(b: Block, mod: TfModule): string {
  const m = referenced(b.attributes.get('http_method'), mod);
  const text = textOf(m ? m.resource.block.attributes.get('http_method') : b.attributes.get('http_method'), mod);
  return text && !text.holes ? text.text.toUpperCase() : 'ANY';
}

/** A REST API resource's path: its `path_part`s up the `parent_id` chain to the root. */
function resourcePath(b: Block, mod: TfModule): string {
  const parts: string[] = [];
  let r = referenced(b.attributes.get('resource_id'), mod)?.resource;
  for (let i = 0; r && typeOf(r) === 'aws_api_gateway_resource' && i < 20; i++) {
    parts.unshift(textOf(r.block.attributes.get('path_part'), mod)?.text ?? '{…}');
    r = referenced(r.block.attributes.get('parent_id'), mod)?.resource;
  }
  return '/' + parts.join('/');
}

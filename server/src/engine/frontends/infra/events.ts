/**
 * Triggers as entry points: SAM's `Events` of a function, CloudFormation's rules,
 * schedules and event source mappings, and the Serverless Framework's `events`. Each
 * reader says what the trigger is (kind, name, the trigger as written, rate, batch
 * size) and `entryPoint` adds where the handler is.
 */
import type { SourceRange } from '../../model';
import type { EntryKind, EntryPoint } from '../../model/entry-point';
import { ratePerHour } from './schedule';
import { at, get, itemsOf, scalarNumber, scalarText, type TNode } from './tree';
import { referencedId, writtenAs } from './values';

/** What a trigger says, before it is placed at its handler. */
export interface Trigger {
  kind: EntryKind;
  name: string;
  trigger: string;
  ratePerHour: number | null;
  batchSize?: number | null;
  span: TNode['span'];
  /** The file `span` is in, when not the one declaring the function (a Terraform module's other `.tf` files). */
  file?: string;
  /** The state machine whose step the function is (`EntryPoint.stateMachine`). */
  stateMachine?: string;
}

/** Where a function's handler is: the same for every trigger of the function. */
export interface HandlerPlace {
  file: string;
  functionName: string | null;
  line: number | null;
}

export function entryPoint(t: Trigger, handler: HandlerPlace, templateFile: string): EntryPoint {
  const source: SourceRange = { file: t.file ?? templateFile, span: t.span };
  return {
    kind: t.kind,
    name: t.name,
    file: handler.file,
    functionName: handler.functionName,
    line: handler.line,
    trigger: t.trigger,
    ratePerHour: t.ratePerHour,
    ...(t.batchSize !== undefined ? { batchSize: t.batchSize } : {}),
    source,
    ...(t.stateMachine ? { stateMachine: t.stateMachine } : {}),
  };
}

export function scheduleTrigger(name: string, expression: string, span: TNode['span']): Trigger {
  return { kind: 'schedule', name, trigger: expression, ratePerHour: ratePerHour(expression), span };
}

/** The name a queue, stream or topic reference reads as: its logical id, or the text written. */
function sourceName(n: TNode | undefined, text: string): string {
  if (!n) return '';
  return referencedId(n) ?? scalarText(n) ?? writtenAs(n, text);
}

const STREAMS = new Set(['Kinesis', 'DynamoDB', 'MSK', 'SelfManagedKafka', 'DocumentDB']);
const QUEUES = new Set(['SQS', 'MQ']);

/** One entry of a SAM function's `Events`; null for a type that triggers nothing readable. */
export function samTrigger(eventName: string, event: TNode, text: string): Trigger | null {
  const type = scalarText(get(event, 'Type'));
  const props = get(event, 'Properties');
  const span = event.span;
  if (!type) return null;
  if (type === 'Api' || type === 'HttpApi') {
    const method = scalarText(get(props, 'Method'))?.toUpperCase() ?? (type === 'HttpApi' ? 'ANY' : null);
    const route = scalarText(get(props, 'Path')) ?? (type === 'HttpApi' ? '/{proxy+}' : null);
    const trigger = method && route ? `${method} ${route}` : eventName;
    return { kind: 'api', name: trigger, trigger, ratePerHour: null, span };
  }
  if (type === 'Schedule' || type === 'ScheduleV2') {
    const expr = scalarText(get(props, type === 'Schedule' ? 'Schedule' : 'ScheduleExpression'));
    return expr ? scheduleTrigger(eventName, expr, span) : null;
  }
  if (QUEUES.has(type) || STREAMS.has(type)) {
    const from = type === 'SQS' ? get(props, 'Queue') : (get(props, 'Stream') ?? get(props, 'Broker'));
    const batch = scalarNumber(get(props, 'BatchSize'));
    const name = sourceName(from, text) || eventName;
    return {
      kind: QUEUES.has(type) ? 'queue' : 'stream',
      name,
      trigger: `${type} ${name}${batch !== null ? `, batchSize ${batch}` : ''}`,
      ratePerHour: null,
      batchSize: batch,
      span,
    };
  }
  if (type === 'EventBridgeRule' || type === 'CloudWatchEvent') {
    const schedule = scalarText(get(props, 'Schedule'));
    if (schedule) return scheduleTrigger(eventName, schedule, span);
    const pattern = get(props, 'Pattern');
    const sources = itemsOf(get(pattern, 'source')).map(scalarText).filter(Boolean);
    const trigger = sources.length ? `${type} source ${sources.join(', ')}` : `${type} ${eventName}`;
    return { kind: 'event', name: eventName, trigger, ratePerHour: null, span };
  }
  if (type === 'SNS' || type === 'S3' || type === 'SQSEvent' || type === 'IoTRule' || type === 'Cognito') {
    const from = get(props, 'Topic') ?? get(props, 'Bucket');
    const name = sourceName(from, text) || eventName;
    const events = itemsOf(get(props, 'Events')).map(scalarText).filter(Boolean);
    return {
      kind: 'event',
      name,
      trigger: `${type} ${name}${events.length ? ` ${events.join(', ')}` : ''}`,
      ratePerHour: null,
      span,
    };
  }
  return { kind: 'event', name: eventName, trigger: type, ratePerHour: null, span };
}

/** One entry of a Serverless function's `events` list; may give several (a list of rates). */
export function serverlessTriggers(
  event: TNode,
  text: string,
  resolve: (n: TNode | undefined) => string | null,
): Trigger[] {
  const [entry] = event.kind === 'map' ? event.entries : [];
  if (!entry) return [];
  const { key, value } = entry;
  const span = event.span;
  const str = (n: TNode | undefined) => resolve(n) ?? (n ? writtenAs(n, text) : null);
  const scalar = value.kind === 'scalar' ? str(value) : null;
  switch (key) {
    case 'http':
    case 'httpApi': {
      const written = scalar;
      const method = written ? null : str(get(value, 'method'));
      const route = written ? null : str(get(value, 'path'));
      const trigger =
        written === '*'
          ? 'ANY /{proxy+}'
          : (written ?? (method ? `${method.toUpperCase()} ${route ?? '/'}` : 'ANY /{proxy+}'));
      const normal = /^\w+\s/.test(trigger) ? trigger.replace(/^\w+/, (m) => m.toUpperCase()) : trigger;
      return [{ kind: 'api', name: normal, trigger: normal, ratePerHour: null, span }];
    }
    case 'schedule': {
      const rates = value.kind === 'scalar' ? [value] : itemsOf(get(value, 'rate'));
      const name = str(get(value, 'name')) ?? 'schedule';
      return rates
        .map((r) => str(r))
        .filter((r): r is string => !!r)
        .map((r) => scheduleTrigger(name, r, span));
    }
    case 'sqs':
    case 'stream': {
      const arn = value.kind === 'scalar' ? value : get(value, 'arn');
      const name = arn ? (referencedId(arn) ?? str(arn) ?? key) : key;
      const batch = scalarNumber(get(value, 'batchSize'));
      const type =
        key === 'sqs' ? 'SQS' : (scalarText(get(value, 'type')) ?? (/kinesis/.test(name) ? 'kinesis' : 'dynamodb'));
      return [
        {
          kind: key === 'sqs' ? 'queue' : 'stream',
          name,
          trigger: `${type} ${name}${batch !== null ? `, batchSize ${batch}` : ''}`,
          ratePerHour: null,
          batchSize: batch,
          span,
        },
      ];
    }
    case 'eventBridge': {
      const schedule = str(get(value, 'schedule'));
      if (schedule) return [scheduleTrigger('eventBridge', schedule, span)];
      const sources = itemsOf(at(value, 'pattern', 'source'))
        .map(str)
        .filter(Boolean);
      const trigger = sources.length ? `eventBridge source ${sources.join(', ')}` : 'eventBridge';
      return [{ kind: 'event', name: trigger, trigger, ratePerHour: null, span }];
    }
    case 'websocket': {
      const route = scalar ?? str(get(value, 'route')) ?? '$default';
      return [{ kind: 'websocket', name: route, trigger: `websocket ${route}`, ratePerHour: null, span }];
    }
    case 'sns':
    case 's3': {
      const name = scalar ?? str(get(value, 'topicName')) ?? str(get(value, 'bucket')) ?? str(get(value, 'arn')) ?? key;
      return [{ kind: 'event', name, trigger: `${key} ${name}`, ratePerHour: null, span }];
    }
    default:
      return [{ kind: 'event', name: key, trigger: key, ratePerHour: null, span }];
  }
}

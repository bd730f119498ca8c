/**
 * SAM and CloudFormation templates (YAML or JSON): functions (`AWS::Serverless::Function`
 * with `Globals.Function`, `AWS::Lambda::Function`), what triggers them (SAM `Events`,
 * `AWS::Events::Rule` and `AWS::Scheduler::Schedule` targets, `AWS::Lambda::EventSourceMapping`,
 * `AWS::ApiGatewayV2::Route`s (WebSocket and HTTP APIs) through their integration,
 * the state machines invoking them) and the DynamoDB tables.
 */
import * as path from 'node:path';
import type { EnvValue, InfraDeclarations, InfraFunction } from '../../model/entry-point';
import { entryPoint, samTrigger, scheduleTrigger, type Trigger } from './events';
import { resolveHandler, type InfraFiles } from './handlers';
import { directAccessesOfTemplate } from './direct-accesses';
import { templateFiles } from './api-integrations';
import { apiMachineStarts, kindsOf, machineStarts, stateMachineTriggers } from './state-machines';
import { tableIds, tableOf } from './tables';
import { at, entriesOf, get, itemsOf, parseTree, scalarNumber, scalarText, type TNode } from './tree';
import { envValueOf, idsMentioned, referencedAttribute, referencedId } from './values';

const FUNCTION_TYPES = new Set(['AWS::Serverless::Function', 'AWS::Lambda::Function']);

/** Whether a parsed document is a CloudFormation template (a `Resources` map of typed resources). */
export function isTemplate(root: TNode | null): boolean {
  const resources = get(root, 'Resources');
  return (
    !!get(root, 'AWSTemplateFormatVersion') ||
    entriesOf(resources).some((r) => /^(AWS|Custom)::/.test(scalarText(get(r.value, 'Type')) ?? ''))
  );
}

export function readTemplate(file: string, text: string, root: TNode, files: InfraFiles): InfraDeclarations {
  const transform = itemsOf(get(root, 'Transform')).map(scalarText);
  const resources = get(root, 'Resources');
  const sam =
    transform.some((t) => t?.startsWith('AWS::Serverless')) ||
    entriesOf(resources).some((r) => scalarText(get(r.value, 'Type'))?.startsWith('AWS::Serverless::'));
  const out: InfraDeclarations = {
    file,
    format: sam ? 'sam' : 'cloudformation',
    functions: [],
    tables: [],
    skipped: [],
  };
  const tables = tableIds(resources);
  for (const id of tables) out.tables.push(tableOf(id, get(resources, id)!, file, tables));
  const triggers = resourceTriggers(resources);
  for (const [machine, starts] of apiMachineStarts(resources, file, templateFiles(file, files)))
    triggers.set(machine, [...(triggers.get(machine) ?? []), ...starts]);
  // A definition kept in a file of its own (`DefinitionUri`), relative to the template.
  const definitionFile = (uri: string) => {
    const body = files.read(path.join(path.dirname(file), uri));
    return body === null ? null : parseTree(body).root;
  };
  // What starts each machine: its functions' steps run then, and its DynamoDB tasks that often.
  const starts = machineStarts(resources, text, triggers);
  const steps = stateMachineTriggers(resources, starts, definitionFile);
  const globals = at(root, 'Globals', 'Function');
  for (const { key: id, value: resource } of entriesOf(resources)) {
    const type = scalarText(get(resource, 'Type'));
    if (!type || !FUNCTION_TYPES.has(type)) continue;
    const fn = functionOf(
      id,
      resource,
      type === 'AWS::Serverless::Function' ? globals : undefined,
      file,
      text,
      files,
      tables,
    );
    if ('reason' in fn) {
      out.skipped.push({ reason: fn.reason, source: { file, span: resource.span } });
      continue;
    }
    const place = { file: fn.handlerFile ?? '', functionName: fn.handlerFunction, line: null };
    for (const t of [...(triggers.get(id) ?? []), ...(steps.get(id) ?? [])])
      fn.triggers.push(entryPoint(t, place, file));
    out.functions.push(fn);
    if (fn.handlerFile === null && fn.skippedReason)
      out.skipped.push({ reason: `${id}: ${fn.skippedReason}`, source: { file, span: resource.span } });
    delete fn.skippedReason;
  }
  const tableNames = new Map(out.tables.map((t) => [t.logicalId, t.tableName]));
  const direct = directAccessesOfTemplate(file, resources, files, tableNames).map((d) =>
    d.via === 'state-machine' ? { ...d, startedBy: kindsOf(starts.get(d.owner) ?? []) } : d,
  );
  if (direct.length > 0) out.directAccesses = direct;
  return out;
}

type Read = InfraFunction & { skippedReason?: string };

function functionOf(
  id: string,
  resource: TNode,
  globals: TNode | undefined,
  file: string,
  text: string,
  files: InfraFiles,
  tables: ReadonlySet<string>,
): Read | { reason: string } {
  const props = get(resource, 'Properties');
  const prop = (k: string) => get(props, k) ?? get(globals, k);
  const handler = scalarText(prop('Handler'));
  const runtime = scalarText(prop('Runtime'));
  const image = scalarText(prop('PackageType')) === 'Image';
  if (!handler)
    return { reason: `${id}: ${image ? 'a container image function: no handler to follow' : 'no Handler'}` };
  const environment: Record<string, EnvValue> = {};
  for (const vars of [at(globals, 'Environment', 'Variables'), at(props, 'Environment', 'Variables')])
    for (const e of entriesOf(vars)) environment[e.key] = envValueOf(e.value, tables, text);
  // SAM: CodeUri (a folder); CloudFormation after `package`: Code as a folder. Else the template's folder.
  const code = scalarText(prop('CodeUri')) ?? scalarText(get(props, 'Code'));
  const local = code && !/^s3:\/\//.test(code) ? code : '.';
  const codeDir = path.join(path.dirname(file), local);
  const entries = itemsOf(at(resource, 'Metadata', 'BuildProperties', 'EntryPoints')).map(scalarText);
  const entry = scalarText(at(resource, 'Metadata', 'BuildMethod')) === 'esbuild' && entries[0] ? entries[0] : null;
  const target = resolveHandler(handler, codeDir, files, { entry, declaredIn: path.dirname(file) });
  const events: Trigger[] = [];
  for (const e of entriesOf(get(props, 'Events'))) {
    const t = samTrigger(e.key, e.value, text);
    if (t) events.push(t);
  }
  const fn: Read = {
    name: id,
    runtime,
    handler,
    handlerFile: 'file' in target ? target.file : null,
    handlerFunction: 'fn' in target ? target.fn : null,
    triggers: [],
    environment,
    source: { file, span: resource.span },
    ...('reason' in target ? { skippedReason: target.reason } : {}),
  };
  const place = { file: fn.handlerFile ?? '', functionName: fn.handlerFunction, line: null };
  fn.triggers = events.map((t) => entryPoint(t, place, file));
  return fn;
}

/**
 * Triggers other resources declare, by the function's logical id: an `AWS::Events::Rule`
 * or `AWS::Scheduler::Schedule` whose target is the function, an event source mapping
 * naming it.
 */
function resourceTriggers(resources: TNode | undefined): Map<string, Trigger[]> {
  const out = new Map<string, Trigger[]>();
  const add = (id: string | null, t: Trigger) => {
    if (!id) return;
    const list = out.get(id);
    if (list) list.push(t);
    else out.set(id, [t]);
  };
  const typeOf = (id: string | null) => (id ? scalarText(get(get(resources, id), 'Type')) : null);
  for (const { key: id, value: r } of entriesOf(resources)) {
    const type = scalarText(get(r, 'Type'));
    const props = get(r, 'Properties');
    if (type === 'AWS::Events::Rule') {
      const schedule = scalarText(get(props, 'ScheduleExpression'));
      const sources = itemsOf(at(props, 'EventPattern', 'source'))
        .map(scalarText)
        .filter(Boolean);
      const t: Trigger = schedule
        ? scheduleTrigger(id, schedule, r.span)
        : {
            kind: 'event',
            name: id,
            trigger: sources.length ? `EventBridge source ${sources.join(', ')}` : `EventBridge ${id}`,
            ratePerHour: null,
            span: r.span,
          };
      for (const target of itemsOf(get(props, 'Targets'))) add(referencedId(get(target, 'Arn')), t);
    } else if (type === 'AWS::Scheduler::Schedule') {
      const schedule = scalarText(get(props, 'ScheduleExpression'));
      if (schedule) add(referencedId(at(props, 'Target', 'Arn')), scheduleTrigger(id, schedule, r.span));
    } else if (type === 'AWS::ApiGatewayV2::Route') {
      // Route → integration → function: a WebSocket or HTTP API route runs per message or request.
      const integration = idsMentioned(get(props, 'Target')).find(
        (x) => typeOf(x) === 'AWS::ApiGatewayV2::Integration',
      );
      const uri = integration ? at(get(resources, integration), 'Properties', 'IntegrationUri') : undefined;
      const fn = idsMentioned(uri).find((x) => FUNCTION_TYPES.has(typeOf(x) ?? ''));
      const api = idsMentioned(get(props, 'ApiId')).find((x) => typeOf(x) === 'AWS::ApiGatewayV2::Api');
      const protocol = scalarText(at(get(resources, api ?? ''), 'Properties', 'ProtocolType'));
      const route = scalarText(get(props, 'RouteKey')) ?? id;
      // As the Serverless Framework's `websocket` events read: kind `websocket`, named by the route.
      const websocket = protocol === 'WEBSOCKET';
      const trigger = websocket ? `websocket ${route}` : route;
      add(fn ?? null, { kind: websocket ? 'websocket' : 'api', name: route, trigger, ratePerHour: null, span: r.span });
    } else if (type === 'AWS::Lambda::EventSourceMapping') {
      const fromNode = get(props, 'EventSourceArn');
      const from = referencedId(fromNode);
      const fromType = typeOf(from);
      const stream = referencedAttribute(fromNode) === 'StreamArn' || fromType === 'AWS::Kinesis::Stream';
      const batch = scalarNumber(get(props, 'BatchSize'));
      const name = from ?? scalarText(fromNode) ?? id;
      const label = stream ? (fromType === 'AWS::Kinesis::Stream' ? 'Kinesis' : 'DynamoDB') : 'SQS';
      add(referencedId(get(props, 'FunctionName')) ?? scalarText(get(props, 'FunctionName')), {
        kind: stream ? 'stream' : 'queue',
        name,
        trigger: `${label} ${name}${batch !== null ? `, batchSize ${batch}` : ''}`,
        ratePerHour: null,
        batchSize: batch,
        span: r.span,
      });
    }
  }
  return out;
}

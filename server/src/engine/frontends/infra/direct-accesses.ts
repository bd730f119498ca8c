/**
 * DynamoDB requests a template's state machines and APIs make with no code in between: a
 * Step Functions task (`"Resource": "arn:aws:states:::dynamodb:updateItem"` with its
 * `Parameters`, or the `aws-sdk:dynamodb:` integrations) and an API Gateway integration
 * (`uri: arn:aws:apigateway:…:dynamodb:action/GetItem` with a VTL `requestTemplates` body).
 * Applications that keep a single-table key such as `PK = "orders"` often read or update it
 * from both places: a fix that shards the key in the code alone would leave these requests
 * asking for the bare key, so they are collected for the fixes to see (`DirectAccess`).
 *
 * Read from what the template shows: the definition file (`DefinitionUri`) or inline
 * `Definition` of `AWS::Serverless::StateMachine` / `AWS::StepFunctions::StateMachine`, with
 * `DefinitionSubstitutions` naming the table; the OpenAPI body of an API (`DefinitionBody`
 * inline or through `AWS::Include`, `DefinitionUri`, `Body`, `BodyS3Location` is not read) and
 * `AWS::ApiGateway::Method` integrations.
 */
import * as path from 'node:path';
import type { DirectAccess } from '../../model/entry-point';
import type { InfraFiles } from './handlers';
import { at, entriesOf, get, intrinsic, itemsOf, parseTree, scalarText, type TNode } from './tree';
import { referencedId } from './values';

const MACHINE_TYPES = new Set(['AWS::Serverless::StateMachine', 'AWS::StepFunctions::StateMachine']);
const API_TYPES = new Set(['AWS::Serverless::Api', 'AWS::ApiGateway::RestApi', 'AWS::ApiGateway::Method']);
/** Requests of one item or one partition: what a key names. Scans and batches name no one key to shard. */
const KEYED = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query']);
const TASK = /^arn:(?:\$\{AWS::Partition\}|[^:]*):states:::(?:aws-sdk:)?dynamodb:(\w+)/i;
const ACTION = /:dynamodb:action\/(\w+)/;

/** A file of the template's folder, parsed (root null when malformed); null when absent or on S3. */
type ReadFile = (uri: string) => { root: TNode | null; text: string; file: string } | null;

/**
 * Every keyed DynamoDB request of the template's state machines and APIs. `tableNames`: each
 * table's logical id to its physical name (null when the template leaves it to CloudFormation).
 */
export function directAccessesOfTemplate(
  file: string,
  resources: TNode | undefined,
  files: InfraFiles,
  tableNames: ReadonlyMap<string, string | null>,
): DirectAccess[] {
  const read: ReadFile = (uri) => {
    if (/^s3:/.test(uri)) return null;
    const target = path.join(path.dirname(file), uri);
    const text = files.read(target);
    return text === null ? null : { root: parseTree(text).root, text, file: target };
  };
  const out: DirectAccess[] = [];
  for (const { key: id, value: resource } of entriesOf(resources)) {
    const type = scalarText(get(resource, 'Type')) ?? '';
    const props = get(resource, 'Properties');
    if (MACHINE_TYPES.has(type)) out.push(...machineAccesses(id, props, file, read, tableNames));
    else if (API_TYPES.has(type)) out.push(...apiAccesses(id, props, file, read, tableNames));
  }
  return out;
}

function machineAccesses(
  id: string,
  props: TNode | undefined,
  file: string,
  read: ReadFile,
  tableNames: ReadonlyMap<string, string | null>,
): DirectAccess[] {
  const substitutions = new Map(entriesOf(get(props, 'DefinitionSubstitutions')).map((e) => [e.key, e.value]));
  // `${X}`: the substitution's value; a table's `!Ref` is its name (SAM's own templates
  // write even the task's Resource so: `DDBPutItem: !Sub arn:${AWS::Partition}:states:::dynamodb:putItem`).
  const substituted = (n: TNode | undefined): TNode | undefined => {
    const whole = /^\$\{(\w+)\}$/.exec(scalarText(n) ?? '');
    return whole ? substitutions.get(whole[1]) : n;
  };
  const uri = scalarText(get(props, 'DefinitionUri'));
  const own = uri ? read(uri) : null;
  const inline = get(props, 'Definition');
  const definition = own?.root ? { root: own.root, file: own.file } : inline ? { root: inline, file } : null;
  if (!definition) return [];
  const tableName = (written: TNode) => {
    const value = substituted(written);
    const ref = referencedId(value);
    if (ref !== null) return tableNames.get(ref) ?? null;
    const name = scalarText(value);
    return name?.includes('${') ? null : name;
  };
  return stateMachineAccesses(id, definition.root, definition.file, tableName, (r) => subText(substituted(r)));
}

/**
 * The DynamoDB tasks of a state machine's definition (also the Serverless Framework's
 * `definition`), each state found at any depth: `Parallel` branches, `Map` iterators.
 * `tableName`: the physical table a `TableName` as written names, or null.
 */
export function stateMachineAccesses(
  owner: string,
  definition: TNode,
  file: string,
  tableName: (written: TNode) => string | null,
  resourceText: (resource: TNode | undefined) => string | null = scalarText,
): DirectAccess[] {
  const out: DirectAccess[] = [];
  eachMap(definition, (state, trail) => {
    const resource = get(state, 'Resource');
    const operation = TASK.exec(resourceText(resource) ?? '')?.[1];
    const op = operation && operation[0].toUpperCase() + operation.slice(1);
    if (!op || !KEYED.has(op)) return;
    const params = get(state, 'Parameters') ?? get(state, 'Arguments');
    const table = get(params, 'TableName');
    out.push({
      via: 'state-machine',
      owner,
      ...(trail.at(-2) === 'States' ? { step: trail.at(-1) } : {}),
      operation: op,
      table: table ? tableName(table) : null,
      index: literal(scalarText(get(params, 'IndexName'))),
      attributes: requestAttributes(params),
      source: { file, span: resource!.span },
    });
  });
  return out;
}

/** The attributes a request's `Key`, `Item` or key condition names, with literal values. */
function requestAttributes(params: TNode | undefined): DirectAccess['attributes'] {
  const out: DirectAccess['attributes'] = [];
  for (const part of ['Key', 'Item'])
    for (const e of entriesOf(get(params, part))) out.push({ name: e.key, value: typedValue(e.value) });
  const condition = scalarText(get(params, 'KeyConditionExpression'));
  if (condition) {
    const names = new Map(entriesOf(get(params, 'ExpressionAttributeNames')).map((e) => [e.key, scalarText(e.value)]));
    const values = new Map(entriesOf(get(params, 'ExpressionAttributeValues')).map((e) => [e.key, e.value]));
    for (const [, name, value] of condition.matchAll(/(#?[\w.-]+)\s*=\s*(:[\w-]+)/g))
      out.push({ name: (name.startsWith('#') ? names.get(name) : name) ?? name, value: typedValue(values.get(value)) });
  }
  return out;
}

/** `{ "S": "orders" }` → `orders`; `{ "S.$": "$.id" }`, a JSONata `{% … %}` → null. */
function typedValue(n: TNode | undefined): string | null {
  for (const e of entriesOf(n)) if (e.key === 'S' || e.key === 'N') return literal(scalarText(e.value));
  return null;
}

const literal = (text: string | null) => (text === null || /\{%|\$\{/.test(text) ? null : text);

function apiAccesses(
  id: string,
  props: TNode | undefined,
  file: string,
  read: ReadFile,
  tableNames: ReadonlyMap<string, string | null>,
): DirectAccess[] {
  const bodies: Array<{ root: TNode; file: string }> = [];
  const out: DirectAccess[] = [];
  const body = get(props, 'DefinitionBody') ?? get(props, 'Body');
  const include = intrinsic(body)?.fn === 'Fn::Transform' ? intrinsic(body)!.arg : null;
  const location = include && scalarText(get(include, 'Name')) === 'AWS::Include';
  const included = location ? scalarText(at(include, 'Parameters', 'Location')) : null;
  const uri = scalarText(get(props, 'DefinitionUri'));
  for (const own of [included, uri]) {
    const r = own ? read(own) : null;
    if (r?.root) bodies.push({ root: r.root, file: r.file });
    // API Gateway's importer takes YAML the strict parser refuses (a quoted template's
    // continuation lines indented less than its first): its integrations are read from the text.
    else if (r) out.push(...textIntegrations(id, r.text, r.file, tableNames));
  }
  if (body && !include) bodies.push({ root: body, file });
  const integration = get(props, 'Integration');
  if (integration) bodies.push({ root: integration, file });
  return [...out, ...bodies.flatMap((b) => integrationAccesses(id, b.root, b.file, tableNames))];
}

/** The DynamoDB integrations of an OpenAPI file that did not parse: each action up to the next, its template unescaped. */
function textIntegrations(
  owner: string,
  text: string,
  file: string,
  tableNames: ReadonlyMap<string, string | null>,
): DirectAccess[] {
  const actions = [...text.matchAll(new RegExp(ACTION.source, 'g'))];
  return actions.flatMap((m, i) => {
    if (!KEYED.has(m[1])) return [];
    const end = actions[i + 1]?.index ?? text.length;
    const unescaped = text
      .slice(m.index, end)
      .replace(/\\\r?\n[ \t]*/g, '')
      .replace(/\\(["\\ n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const lines = text.slice(0, m.index).split('\n');
    const line = lines.length - 1;
    const route = routeAbove(lines);
    const span = { startLine: line, startColumn: 0, endLine: line, endColumn: 0 };
    return [
      {
        via: 'api-gateway' as const,
        owner: route ? `${owner} ${route}` : owner,
        operation: m[1],
        ...mappedRequest(unescaped, tableNames),
        source: { file, span },
      },
    ];
  });
}

/** Each DynamoDB integration under `root`: a map with a `uri` naming an action and its request templates. */
function integrationAccesses(
  owner: string,
  root: TNode,
  file: string,
  tableNames: ReadonlyMap<string, string | null>,
): DirectAccess[] {
  const out: DirectAccess[] = [];
  eachMap(root, (m, trail) => {
    const uri = get(m, 'uri') ?? get(m, 'Uri');
    const op = ACTION.exec(subText(uri) ?? '')?.[1];
    if (!op || !KEYED.has(op)) return;
    const route = routeOf(trail);
    for (const t of entriesOf(get(m, 'requestTemplates') ?? get(m, 'RequestTemplates'))) {
      const text = subText(t.value);
      if (text === null) continue;
      out.push({
        via: 'api-gateway',
        owner: route ? `${owner} ${route}` : owner,
        operation: op,
        ...mappedRequest(text, tableNames),
        source: { file, span: uri!.span },
      });
    }
  });
  return out;
}

/** A scalar's text, or the text a `Fn::Sub` writes (its first item when given a list). */
function subText(n: TNode | undefined): string | null {
  const i = intrinsic(n);
  if (i?.fn === 'Fn::Sub') return scalarText(i.arg) ?? scalarText(itemsOf(i.arg)[0]);
  return scalarText(n);
}

/** `GET /orders/{id}` from the keys leading to an OpenAPI operation. */
function routeOf(trail: readonly string[]): string | null {
  const i = trail.indexOf('paths');
  return i >= 0 && trail.length > i + 2 ? `${trail[i + 2].toUpperCase()} ${trail[i + 1]}` : null;
}

/**
 * What a VTL mapping template asks for: not JSON (`#set`, `$input.params('id')`), so its
 * parts are read by their JSON spelling. A value holding `$` is filled in at run time.
 */
function mappedRequest(
  text: string,
  tableNames: ReadonlyMap<string, string | null>,
): Pick<DirectAccess, 'table' | 'index' | 'attributes'> {
  const field = (name: string) => new RegExp(`"${name}"\\s*:\\s*"([^"]*)"`).exec(text)?.[1] ?? null;
  const tableText = field('TableName');
  const sub = tableText && /^\$\{(\w+)\}$/.exec(tableText);
  const table = sub ? (tableNames.get(sub[1]) ?? null) : tableText?.includes('$') ? null : tableText;
  const index = field('IndexName');
  const attributes: DirectAccess['attributes'] = [];
  const typed = /"([^"]+)"\s*:\s*\{\s*"[SN]"\s*:\s*"((?:[^"\\]|\\.)*)"\s*\}/g;
  for (const part of ['Key', 'Item']) {
    const block = objectAfter(text, part);
    for (const [, name, value] of block?.matchAll(typed) ?? []) attributes.push({ name, value: vtlValue(value) });
  }
  const condition = field('KeyConditionExpression');
  if (condition) {
    const names = objectAfter(text, 'ExpressionAttributeNames') ?? '';
    const values = objectAfter(text, 'ExpressionAttributeValues') ?? '';
    for (const [, name, value] of condition.matchAll(/(#?[\w.-]+)\s*=\s*(:[\w-]+)/g)) {
      const real = name.startsWith('#') ? new RegExp(`"${name}"\\s*:\\s*"([^"]+)"`).exec(names)?.[1] : name;
      const v = new RegExp(`"${value}"\\s*:\\s*\\{\\s*"[SN]"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(values)?.[1];
      attributes.push({ name: real ?? name, value: v === undefined ? null : vtlValue(v) });
    }
  }
  return { table, index: index?.includes('$') ? null : index, attributes };
}

const vtlValue = (v: string) => (v.includes('$') ? null : v);

/** `GET /orders/{id}`: the OpenAPI method and path keys last written above a line, by their spelling alone. */
function routeAbove(lines: readonly string[]): string | null {
  let method: string | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^\s*(get|put|post|delete|patch|head|options|x-amazon-apigateway-any-method):\s*$/.exec(lines[i]);
    if (!method && m) method = m[1] === 'x-amazon-apigateway-any-method' ? 'ANY' : m[1].toUpperCase();
    const p = /^\s*['"]?(\/[^:'"]*)['"]?:\s*$/.exec(lines[i]);
    if (method && p) return `${method} ${p[1]}`;
  }
  return null;
}

/** The text of the `{…}` object written after `"name":`, braces balanced; null when absent. */
function objectAfter(text: string, name: string): string | null {
  const m = new RegExp(`"${name}"\\s*:\\s*\\{`).exec(text);
  if (!m) return null;
  let depth = 0;
  for (let i = m.index + m[0].length - 1; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(m.index + m[0].length, i);
  }
  return null;
}

/** Every map of a tree, depth first to a bounded depth, with the keys leading to it. */
function eachMap(n: TNode | undefined, visit: (m: TNode, trail: string[]) => void, trail: string[] = []): void {
  if (!n || trail.length > 40) return;
  if (n.kind === 'map') {
    visit(n, trail);
    for (const e of n.entries) eachMap(e.value, visit, [...trail, e.key]);
  } else if (n.kind === 'seq') for (const item of n.items) eachMap(item, visit, trail);
}

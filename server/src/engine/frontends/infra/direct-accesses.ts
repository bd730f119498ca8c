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
import type { DirectAccess } from '../../model/entry-point';
import { parseKeyCondition } from '../../requests/expressions';
import { API_TYPES, apiIntegrations, eachMap, subText, templateFiles, type ReadFile } from './api-integrations';
import type { InfraFiles } from './handlers';
import { entriesOf, get, scalarText, type TNode } from './tree';
import { referencedId } from './values';

const MACHINE_TYPES = new Set(['AWS::Serverless::StateMachine', 'AWS::StepFunctions::StateMachine']);
/** Requests of one item or one partition: what a key names. Scans and batches name no one key to shard. */
const KEYED = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query']);
const TASK = /^arn:(?:\$\{AWS::Partition\}|[^:]*):states:::(?:aws-sdk:)?dynamodb:(\w+)/i;

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
  const read = templateFiles(file, files);
  const out: DirectAccess[] = [];
  for (const { key: id, value: resource } of entriesOf(resources)) {
    const type = scalarText(get(resource, 'Type')) ?? '';
    const props = get(resource, 'Properties');
    if (MACHINE_TYPES.has(type)) out.push(...machineAccesses(id, props, file, read, tableNames));
    else if (API_TYPES.has(type))
      for (const i of apiIntegrations(id, props, file, read)) {
        if (i.service !== 'dynamodb' || !KEYED.has(i.action)) continue;
        for (const t of i.templates)
          out.push({
            via: 'api-gateway',
            owner: i.owner,
            operation: i.action,
            ...mappedRequest(t, tableNames),
            source: i.source,
          });
      }
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
  const names = get(params, 'ExpressionAttributeNames');
  const values = get(params, 'ExpressionAttributeValues');
  if (condition)
    out.push(
      ...keyConditionAttributes(
        condition,
        (alias) => scalarText(get(names, alias)),
        (placeholder) => typedValue(get(values, placeholder)),
      ),
    );
  return out;
}

/**
 * The attributes a key condition fixes with `=` (`#pk = :pk AND begins_with(#sk, :p)` → `pk`),
 * read with the SDK front-ends' parser, each with its value: `nameOf` resolves a `#alias`,
 * `valueOf` a `:placeholder`, from wherever the request writes them.
 */
export function keyConditionAttributes(
  condition: string,
  nameOf: (alias: string) => string | null | undefined,
  valueOf: (placeholder: string) => string | null,
): DirectAccess['attributes'] {
  return (parseKeyCondition(condition) ?? [])
    .filter((c) => c.op === '=')
    .map((c) => ({
      name: (c.attribute.startsWith('#') ? nameOf(c.attribute) : c.attribute) ?? c.attribute,
      value: valueOf(c.values[0]),
    }));
}

/** `{ "S": "orders" }` → `orders`; `{ "S.$": "$.id" }`, a JSONata `{% … %}` → null. */
function typedValue(n: TNode | undefined): string | null {
  for (const e of entriesOf(n)) if (e.key === 'S' || e.key === 'N') return literal(scalarText(e.value));
  return null;
}

const literal = (text: string | null) => (text === null || /\{%|\$\{/.test(text) ? null : text);

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
    const nameOf = (alias: string) => new RegExp(`"${alias}"\\s*:\\s*"([^"]+)"`).exec(names)?.[1];
    const valueOf = (placeholder: string) => {
      const v = new RegExp(`"${placeholder}"\\s*:\\s*\\{\\s*"[SN]"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(values)?.[1];
      return v === undefined ? null : vtlValue(v);
    };
    attributes.push(...keyConditionAttributes(condition, nameOf, valueOf));
  }
  return { table, index: index?.includes('$') ? null : index, attributes };
}

const vtlValue = (v: string) => (v.includes('$') ? null : v);

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

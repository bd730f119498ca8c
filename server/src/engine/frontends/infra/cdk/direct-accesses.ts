/**
 * DynamoDB requests a CDK app's state machines and APIs make with no function in between
 * (see `infra/direct-accesses.ts` for why they matter): the Step Functions tasks
 * `tasks.DynamoGetItem` / `DynamoPutItem` / `DynamoUpdateItem` / `DynamoDeleteItem` (keys as
 * `DynamoAttributeValue.fromString('orders')`), `tasks.CallAwsService({ service: 'dynamodb' })`
 * with the API's own parameters, and `apigateway.AwsIntegration({ service: 'dynamodb' })`
 * with a request template (text, or `JSON.stringify({...})` / `json.dumps({...})`).
 * TypeScript and Python alike: the CDK front-ends give both as the same values.
 */
import type { DirectAccess, EntryKind } from '../../../model/entry-point';
import type { CdkValue } from '../../../model/cdk';
import { keyConditionAttributes, stateMachineAccesses } from '../direct-accesses';
import { scalarText } from '../tree';
import { definitionFile, type CdkFiles } from './state-machines';
import { constructId, constructOf, prop, propsOf, TABLE_CLASSES, textOf, type NewValue } from './values';

const TASKS: Record<string, string> = {
  DynamoGetItem: 'GetItem',
  DynamoPutItem: 'PutItem',
  DynamoUpdateItem: 'UpdateItem',
  DynamoDeleteItem: 'DeleteItem',
};
const KEYED = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query']);

/** The keyed DynamoDB requests of the app's task and integration constructs. */
export function directAccessesOfCdk(
  constructs: readonly NewValue[],
  file: string,
  read?: CdkFiles,
  machineStarts: ReadonlyMap<number, EntryKind[]> = new Map(),
): DirectAccess[] {
  // A task's or a machine's requests run as often as what starts its machine.
  return constructs.flatMap((n) => {
    const accesses = accessesOf(n, file, read);
    const startedBy = machineStarts.get(n.at);
    return startedBy ? accesses.map((d) => (d.via === 'state-machine' ? { ...d, startedBy } : d)) : accesses;
  });
}

/** The keyed DynamoDB requests one construct makes. */
function accessesOf(n: NewValue, file: string, read: CdkFiles | undefined): DirectAccess[] {
  const out: DirectAccess[] = [];
  {
    if (n.className === 'StateMachine') return fileMachineAccesses(n, read);
    const owner = constructId(n) ?? (n.className === 'AwsIntegration' ? 'integration' : n.className);
    const source = { file, span: n.span };
    const task = TASKS[n.className];
    if (task) {
      const attributes = [
        ...typedEntries(prop(n.props, 'key'), taskValue),
        ...typedEntries(prop(n.props, 'item'), taskValue),
      ];
      out.push({
        via: 'state-machine',
        owner,
        operation: task,
        table: tableName(prop(n.props, 'table')),
        index: null,
        attributes,
        source,
      });
      return out;
    }
    if (textOf(prop(n.props, 'service'))?.toLowerCase() !== 'dynamodb') return out;
    const action = textOf(prop(n.props, 'action'));
    const operation = action && action[0].toUpperCase() + action.slice(1);
    if (!operation || !KEYED.has(operation)) return out;
    if (n.className === 'CallAwsService') {
      const params = prop(n.props, 'parameters');
      out.push({
        via: 'state-machine',
        owner,
        operation,
        table: tableName(prop(params, 'TableName')),
        index: textOf(prop(params, 'IndexName')),
        attributes: requestAttributes(params),
        source,
      });
    } else if (n.className === 'AwsIntegration') {
      for (const t of propsOf(prop(prop(n.props, 'options'), 'requestTemplates'))) {
        const body = t.value.kind === 'call' ? t.value.args[0] : null; // JSON.stringify({...}), json.dumps({...})
        if (!body || body.kind !== 'object') continue;
        out.push({
          via: 'api-gateway',
          owner,
          operation,
          table: tableName(prop(body, 'TableName')),
          index: textOf(prop(body, 'IndexName')),
          attributes: requestAttributes(body),
          source,
        });
      }
    }
  }
  return out;
}

/**
 * A machine defined in an ASL file (`DefinitionBody.fromFile`): its DynamoDB tasks, a
 * `"${TableName}"` named through `definitionSubstitutions` (`{ TableName: table.tableName }`).
 */
function fileMachineAccesses(n: NewValue, read?: CdkFiles): DirectAccess[] {
  const definition = definitionFile(n, read);
  if (!definition) return [];
  const substitutions = prop(n.props, 'definitionSubstitutions');
  return stateMachineAccesses(constructId(n) ?? n.className, definition.root, definition.file, (written) => {
    const text = scalarText(written);
    const variable = text && /^\$\{(\w+)\}$/.exec(text);
    if (variable) return tableName(prop(substitutions, variable[1]));
    return text?.includes('${') ? null : text;
  });
}

/** A table construct's stated name (`table.tableName` of a `Table` with `tableName`), a literal name, else null. */
function tableName(v: CdkValue | null): string | null {
  const text = textOf(v);
  if (text !== null) return text.includes('${') ? null : text;
  const c = constructOf(v?.kind === 'member' ? v.object : v);
  if (!c || !TABLE_CLASSES.has(c.construct.className)) return null;
  return textOf(prop(c.construct.props, 'tableName'));
}

/** The attributes a request object's `Key`, `Item` and key condition name (the DynamoDB API's own shape). */
function requestAttributes(params: CdkValue | null): DirectAccess['attributes'] {
  const out = [...typedEntries(prop(params, 'Key'), apiValue), ...typedEntries(prop(params, 'Item'), apiValue)];
  const condition = textOf(prop(params, 'KeyConditionExpression'));
  if (condition)
    out.push(
      ...keyConditionAttributes(
        condition,
        (alias) => textOf(prop(prop(params, 'ExpressionAttributeNames'), alias)),
        (placeholder) => apiValue(prop(prop(params, 'ExpressionAttributeValues'), placeholder)),
      ),
    );
  return out;
}

function typedEntries(v: CdkValue | null, valueOf: (v: CdkValue | null) => string | null): DirectAccess['attributes'] {
  return propsOf(v).map((e) => ({ name: e.key, value: valueOf(e.value) }));
}

/** `DynamoAttributeValue.fromString('orders')` (Python `from_string`) → `orders`; anything else (a JSON path) → null. */
function taskValue(v: CdkValue | null): string | null {
  if (v?.kind !== 'call' || !/^(fromString|from_string|fromNumber|from_number)$/.test(v.name)) return null;
  const arg = v.args[0];
  const text = arg?.kind === 'text' ? arg.text : arg?.kind === 'number' ? String(arg.value) : null;
  return text === null || text.startsWith('$') ? null : text;
}

/** `{ S: 'orders' }` → `orders`; `{ 'S.$': '$.id' }` and `$input` templates → null. */
function apiValue(v: CdkValue | null): string | null {
  const text = textOf(prop(v, 'S')) ?? textOf(prop(v, 'N'));
  return text === null || text.includes('$') ? null : text;
}

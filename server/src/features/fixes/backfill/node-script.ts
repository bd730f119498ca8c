import { hashHelperSource } from '../hash-helper';
import { headerLines, noTable } from './header';
import type { BackfillPlan } from './plan';

/**
 * A backfill script for Node: plain JavaScript that runs with `node` as it is (ES module
 * for the v3 SDK, CommonJS for v2, whose package has no named exports an ES module can
 * import), so a TypeScript project needs no build step for a one-off run. It talks to
 * DynamoDB through the low-level client: items move as DynamoDB returns them (types, sets,
 * binary and number precision kept), never through a DocumentClient's conversion.
 */
export function nodeBackfillScript(plan: BackfillPlan, fileName: string): string {
  const v2 = plan.script.sdk === 'v2';
  const header = headerLines(plan, `node scripts/${fileName}`).map((l) => (l ? `// ${l}` : '//'));
  const s = jsString;
  const tableExpression = [
    'options.table',
    ...(plan.table.variable ? [`process.env.${plan.table.variable}`] : []),
    ...(plan.table.name ? [s(plan.table.name)] : []),
  ].join(' ?? ');
  return [
    '#!/usr/bin/env node',
    ...header,
    '',
    ...(v2 ? CLIENT_V2 : CLIENT_V3),
    '',
    `const KEY_ATTRIBUTE = ${s(plan.attribute)};`,
    '/** The bare value when it is one (a Query finds its items), else null (a Scan does). */',
    `const BARE_KEY = ${plan.literal === null ? 'null' : s(plan.literal)};`,
    `const BARE_SHOWN = ${s(plan.shown)};`,
    `const BARE_PATTERN = new RegExp(${s(plan.barePattern)});`,
    `const SHARDED_PATTERN = new RegExp(${s(plan.shardedPattern)});`,
    `const SCAN_PREFIX = ${s(plan.prefix)};`,
    `const SEPARATOR = ${s(plan.separator)};`,
    `const SHARD_COUNT = ${plan.count};`,
    plan.hashAttribute
      ? `const HASH_ATTRIBUTE = ${s(plan.hashAttribute)};`
      : "const HASH_ATTRIBUTE = null; // the item's table key is hashed",
    '',
    'const options = parseOptions(process.argv.slice(2));',
    `const client = new ${v2 ? 'DynamoDB' : 'DynamoDBClient'}({`,
    '  ...(options.endpoint && { endpoint: options.endpoint }),',
    '  ...(options.region && { region: options.region }),',
    '});',
    // The operation is chosen by name, so the SDK's types cannot say what each answers: a
    // project type-checking its JavaScript (`checkJs`) would flag every field read.
    '/** @type {(operation: string, input: object) => Promise<any>} */',
    v2
      ? 'const send = (operation, input) =>\n  client[operation[0].toLowerCase() + operation.slice(1)](input).promise();'
      : 'const send = (operation, input) => client.send(new COMMANDS[operation](input));',
    '',
    'main().catch((error) => {',
    '  console.error(`backfill failed: ${error.message}`);',
    '  process.exitCode = 2;',
    '});',
    '',
    'async function main() {',
    `  const tableName = ${tableExpression};`,
    `  if (!tableName) usage(${s(noTable(plan))});`,
    "  const { Table: table } = await send('DescribeTable', { TableName: tableName });",
    '  const tableKey = table.KeySchema.map((k) => k.AttributeName);',
    '  const index =',
    '    hashKeyOf(table.KeySchema) === KEY_ATTRIBUTE',
    '      ? null',
    '      : (table.GlobalSecondaryIndexes ?? []).find((i) => hashKeyOf(i.KeySchema) === KEY_ATTRIBUTE);',
    '  if (index === undefined)',
    '    throw new Error(`${KEY_ATTRIBUTE} is the partition key of neither ${tableName} nor its global indexes`);',
    '  if (!index) checkStream(table, tableName);',
    '  const counts = { found: 0, moved: 0, conflicts: 0, skipped: 0 };',
    '  const perShard = new Array(SHARD_COUNT).fill(0);',
    '  for await (const item of bareItems(tableName, index?.IndexName)) {',
    '    counts.found += 1;',
    '    const projected = !index || !HASH_ATTRIBUTE || HASH_ATTRIBUTE in item;',
    '    const whole = projected ? item : await wholeItem(tableName, item, tableKey);',
    '    const shard = whole ? shardOf(whole, tableKey) : null;',
    '    if (shard === null) {',
    '      counts.skipped += 1;',
    '      console.warn(`skipped ${describe(item, tableKey)}: no ${HASH_ATTRIBUTE} to compute its shard from`);',
    '      continue;',
    '    }',
    '    perShard[shard] += 1;',
    '    if (!options.apply) continue;',
    '    const value = `${item[KEY_ATTRIBUTE].S}${SEPARATOR}${shard}`;',
    '    const outcome = index',
    '      ? await setIndexKey(tableName, item, tableKey, value)',
    '      : await moveItem(tableName, item, tableKey, value);',
    '    counts[outcome] += 1;',
    '  }',
    '  report(tableName, counts, perShard);',
    '  if (counts.conflicts + counts.skipped > 0) process.exitCode = 1;',
    '}',
    '',
    BODY,
    hashHelperSource('javascript'),
    '',
  ].join('\n');
}

/** A single-quoted JavaScript string, as the rest of the script writes them. */
const jsString = (text: string) => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;

const CLIENT_V3 = [
  'import {',
  '  DeleteItemCommand,',
  '  DescribeTableCommand,',
  '  DynamoDBClient,',
  '  GetItemCommand,',
  '  PutItemCommand,',
  '  QueryCommand,',
  '  ScanCommand,',
  '  UpdateItemCommand,',
  "} from '@aws-sdk/client-dynamodb';",
  '',
  'const COMMANDS = {',
  '  DeleteItem: DeleteItemCommand,',
  '  DescribeTable: DescribeTableCommand,',
  '  GetItem: GetItemCommand,',
  '  PutItem: PutItemCommand,',
  '  Query: QueryCommand,',
  '  Scan: ScanCommand,',
  '  UpdateItem: UpdateItemCommand,',
  '};',
];

const CLIENT_V2 = ["'use strict';", '', "const { DynamoDB } = require('aws-sdk');"];

/** The functions every Node backfill shares; the plan lives in the constants above them. */
const BODY = String.raw`/** Every item under the bare key: a Query of it, or a Scan when the bare key has variable parts. */
async function* bareItems(tableName, indexName) {
  const input =
    BARE_KEY !== null
      ? {
          KeyConditionExpression: '#k = :bare',
          ExpressionAttributeNames: { '#k': KEY_ATTRIBUTE },
          ExpressionAttributeValues: { ':bare': { S: BARE_KEY } },
        }
      : SCAN_PREFIX
        ? {
            FilterExpression: 'begins_with(#k, :prefix)',
            ExpressionAttributeNames: { '#k': KEY_ATTRIBUTE },
            ExpressionAttributeValues: { ':prefix': { S: SCAN_PREFIX } },
          }
        : {};
  let start;
  do {
    const page = await send(BARE_KEY !== null ? 'Query' : 'Scan', {
      TableName: tableName,
      ...(indexName && { IndexName: indexName }),
      ...input,
      ...(start && { ExclusiveStartKey: start }),
    });
    for (const item of page.Items ?? []) if (isBare(item)) yield item;
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * An item under a bare value, not one already sharded (moved items can turn up again later
 * in a Scan). A value reads both ways when a variable part ends like a shard does
 * ("clicks-2026-12-1" under "clicks-{day}" sharded with "-"): it is taken as sharded only
 * when its number can be a shard (below the count, no leading zero) and, with a calculated
 * suffix, is the item's own shard; with a random one it is left alone.
 */
function isBare(item) {
  const value = item[KEY_ATTRIBUTE]?.S;
  if (value === undefined || !BARE_PATTERN.test(value)) return false;
  const sharded = SHARDED_PATTERN.exec(value);
  if (!sharded || Number(sharded[1]) >= SHARD_COUNT) return true;
  if (!HASH_ATTRIBUTE || !(HASH_ATTRIBUTE in item)) return false;
  return shardOf(item, []) !== Number(sharded[1]);
}

function shardOf(item, tableKey) {
  const text = HASH_ATTRIBUTE
    ? textOf(item[HASH_ATTRIBUTE])
    : tableKey.map((k) => textOf(item[k]) ?? '').join('#');
  return text === null ? null : shardlensHash(text) % SHARD_COUNT;
}

/** What String(x) gives for the value in the code: a string's text, a number's digits. */
const textOf = (value) => (value && (value.S ?? value.N)) ?? null;

/**
 * Writes the item under its shard unless an item is there, then deletes it from the bare
 * key. The delete returns what it removed: when the code still writing the bare key changed
 * or deleted the item between the read and the delete, the copy is brought to match.
 */
async function moveItem(tableName, item, tableKey, value) {
  const moved = { ...item, [KEY_ATTRIBUTE]: { S: value } };
  try {
    await send('PutItem', {
      TableName: tableName,
      Item: moved,
      ConditionExpression: 'attribute_not_exists(#k)',
      ExpressionAttributeNames: { '#k': KEY_ATTRIBUTE },
    });
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    const key = keyOf(moved, tableKey);
    const { Item: there } = await send('GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
    if (!there || canonical(there) !== canonical(moved)) {
      console.warn('conflict: ' + describe(moved, tableKey) + ' holds another item; ' + describe(item, tableKey));
      return 'conflicts';
    }
    // The copy an interrupted run wrote: only the bare item is left to delete.
  }
  const deleted = await send('DeleteItem', {
    TableName: tableName,
    Key: keyOf(item, tableKey),
    ReturnValues: 'ALL_OLD',
  });
  const removed = deleted.Attributes;
  if (removed && canonical(removed) === canonical(item)) return 'moved';
  if (!removed) {
    // Deleted by the application, or moved by another run at the same time: the copy stays,
    // as losing an item is worse than keeping one that was meant to go.
    console.warn('conflict: ' + describe(item, tableKey) + ' was gone when deleted; its copy at the shard kept');
    return 'conflicts';
  }
  return carryChange(tableName, tableKey, moved, removed, value);
}

/**
 * The bare item changed between the read and the delete: the copy at the shard becomes its
 * last version, while the copy is still the one this run wrote. When the fixed code changed
 * the copy meanwhile, the last version goes back under the bare key and both are left.
 */
async function carryChange(tableName, tableKey, copy, removed, value) {
  const latest = { ...removed, [KEY_ATTRIBUTE]: { S: value } };
  const replaced = await putIf(tableName, latest, unchanged(copy));
  if (replaced && canonical(replaced) === canonical(copy)) {
    console.warn(describe(copy, tableKey) + ': changed while it moved; its last version moved');
    return 'moved';
  }
  // An attribute the fixed code added passes the condition: the copy it replaced is put back.
  if (replaced) await putIf(tableName, replaced, unchanged(latest));
  const restored = await putIf(tableName, removed, {
    ConditionExpression: 'attribute_not_exists(#k)',
    ExpressionAttributeNames: { '#k': KEY_ATTRIBUTE },
  });
  const where = restored ? 'put back under the bare key' : 'not stored again: ' + JSON.stringify(removed);
  console.warn('conflict: ' + describe(copy, tableKey) + ' and its bare item both changed; its last version ' + where);
  return 'conflicts';
}

/** Puts the item if the condition holds: what it replaced ({} for nothing), or null. */
async function putIf(tableName, item, condition) {
  try {
    const out = await send('PutItem', { TableName: tableName, Item: item, ...condition, ReturnValues: 'ALL_OLD' });
    return out.Attributes ?? {};
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    return null;
  }
}

/** A condition that holds while an item still has every attribute value of the given one. */
function unchanged(item) {
  const names = {};
  const values = {};
  const terms = Object.keys(item).map((name, i) => {
    names['#a' + i] = name;
    values[':a' + i] = item[name];
    return '#a' + i + ' = :a' + i;
  });
  return { ConditionExpression: terms.join(' AND '), ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** Sets the index key to its shard, only while it still holds the bare value. */
async function setIndexKey(tableName, item, tableKey, value) {
  try {
    await send('UpdateItem', {
      TableName: tableName,
      Key: keyOf(item, tableKey),
      UpdateExpression: 'SET #k = :sharded',
      ConditionExpression: '#k = :bare',
      ExpressionAttributeNames: { '#k': KEY_ATTRIBUTE },
      ExpressionAttributeValues: { ':sharded': { S: value }, ':bare': item[KEY_ATTRIBUTE] },
    });
    return 'moved';
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    console.warn('skipped ' + describe(item, tableKey) + ': changed since it was read');
    return 'skipped';
  }
}

/** The whole item, when the index does not project the attribute its shard is computed from. */
async function wholeItem(tableName, item, tableKey) {
  const key = keyOf(item, tableKey);
  const { Item } = await send('GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
  return Item ?? null;
}

const hashKeyOf = (schema) => schema.find((k) => k.KeyType === 'HASH').AttributeName;
const keyOf = (item, tableKey) => Object.fromEntries(tableKey.map((k) => [k, item[k]]));
const describe = (item, tableKey) => tableKey.map((k) => k + ' = ' + JSON.stringify(textOf(item[k]))).join(', ');
const conditionFailed = (error) => [error.name, error.code].includes('ConditionalCheckFailedException');

/** One text per value, whatever the order of attributes and of set members. */
function canonical(value, isSet = false) {
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) {
    const parts = value.map((v) => canonical(v));
    return '[' + (isSet ? parts.sort() : parts).join(',') + ']';
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    const fields = keys.map((k) => JSON.stringify(k) + ':' + canonical(value[k], ['SS', 'NS', 'BS'].includes(k)));
    return '{' + fields.join(',') + '}';
  }
  return JSON.stringify(value);
}

/**
 * Moving an item is a DeleteItem and a PutItem: a stream's consumers see a REMOVE then an
 * INSERT, and one that acts on a REMOVE (deletes a search document, a file, a balance) would
 * act on every moved item. So --apply on a table with a stream asks to be told they are safe.
 */
function checkStream(table, tableName) {
  const stream = table.StreamSpecification?.StreamEnabled ? table.StreamSpecification.StreamViewType : null;
  if (!stream) return;
  console.warn(tableName + ' has a stream (' + stream + '): its consumers see each move as a REMOVE and an INSERT');
  if (options.apply && !options.despiteStream)
    usage('--apply on a table with a stream needs --despite-stream, once no consumer acts on a REMOVE as a loss');
}

function report(tableName, counts, perShard) {
  const where = KEY_ATTRIBUTE + ' = ' + JSON.stringify(BARE_SHOWN) + ' in ' + tableName;
  const spread = 'per shard 0..' + (SHARD_COUNT - 1) + ': ' + perShard.join(' ');
  console.log('found ' + counts.found + ' item(s) under ' + where + '; ' + spread);
  if (!options.apply) console.log('dry run: nothing changed; run again with --apply to move them');
  else console.log('moved ' + counts.moved + ', conflicts ' + counts.conflicts + ', skipped ' + counts.skipped);
}

function parseOptions(args) {
  const out = { apply: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--apply') out.apply = true;
    else if (arg === '--despite-stream') out.despiteStream = true;
    else if (['--table', '--endpoint', '--region'].includes(arg)) {
      if (!args[i + 1]) usage(arg + ' needs a value');
      out[arg.slice(2)] = args[(i += 1)];
    } else if (arg === '--help' || arg === '-h') usage();
    else usage('unknown option ' + arg);
  }
  return out;
}

function usage(problem) {
  const text =
    'usage: node <this script> [--apply [--despite-stream]] [--table NAME] [--endpoint URL] [--region REGION]';
  if (problem) console.error(problem + '\n' + text);
  else console.log(text);
  process.exit(problem ? 2 : 0);
}
`;

/**
 * A key written from a name the function first checks against a short list of literals
 * (`if (!COUNTERS.includes(name)) throw ...`, `if name not in COUNTERS: raise ...`) takes
 * only that list's values: few-valued, and a counter on it is a few hot items. Checks that
 * do not hold the name to the list (one that only logs, one inside another branch, a list
 * read at run time, a check after the use) leave it what its name says.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, findingLines, summarize } from './helpers';

const JS_HEAD = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const COUNTERS = ['SST', 'TURBOREPO'];
`;

const jsIncrement = (key: string) =>
  `await dynamo.send(new UpdateCommand({ TableName: 'counters', Key: { ${key} }, UpdateExpression: 'ADD v :one', ExpressionAttributeValues: { ':one': 1 } }));`;

test('JS: a name thrown out unless the list includes it, as a parameter or destructured, is few-valued', async () => {
  const r = await analyze(
    'actions.ts',
    `${JS_HEAD}
export async function increment(name: string) {
  if (!COUNTERS.includes(name)) {
    throw new Error('unknown counter');
  }
  ${jsIncrement('name: name')}
}

export const server = {
  bump: {
    async handler({ name }: { name: string }) {
      if (!COUNTERS.includes(name)) return null;
      ${jsIncrement('name')}
      return name;
    },
  },
};

export async function onlyKnown(kind: string) {
  if (['a', 'b', 'c'].includes(kind)) {
    ${jsIncrement('name: kind')}
  }
}
`,
  );
  assert.deepEqual(summarize(r), [
    '11 UpdateItem counters name={low-cardinality} (counter)',
    '18 UpdateItem counters name={low-cardinality} (counter)',
    '26 UpdateItem counters name={low-cardinality} (counter)',
  ]);
  assert.deepEqual(findingLines(r), ['11 SL004', '18 SL004', '26 SL004']);
  assert.match(r.findings[0].message, /one of a few items, "\{low-cardinality\}" \(`name` takes only a few values\)/);
});

test('JS: a check that only logs, one nested in a branch, a list read at run time or a check after the use do not narrow', async () => {
  const r = await analyze(
    'actions.ts',
    `${JS_HEAD}
export async function logged(name: string) {
  if (!COUNTERS.includes(name)) {
    console.warn('unknown counter', name);
  }
  ${jsIncrement('name: name')}
}

export async function nested(name: string, strict: boolean) {
  if (strict) {
    if (!COUNTERS.includes(name)) throw new Error('unknown counter');
  }
  ${jsIncrement('name: name')}
}

export async function loaded(name: string) {
  const allowed = await loadCounterNames();
  if (!allowed.includes(name)) throw new Error('unknown counter');
  ${jsIncrement('name: name')}
}

export async function late(name: string) {
  ${jsIncrement('name: name')}
  if (!COUNTERS.includes(name)) throw new Error('unknown counter');
}
`,
  );
  assert.deepEqual(
    summarize(r).map((s) => s.replace(/^\d+ /, '')),
    Array(4).fill('UpdateItem counters name={entity-id} (high-cardinality)'),
  );
  assert.deepEqual(r.findings, []);
});

const PY_HEAD = `import boto3

table = boto3.resource("dynamodb").Table("counters")
COUNTERS = ["SST", "TURBOREPO"]
`;

const pyIncrement = (key: string) =>
  `table.update_item(Key={"name": ${key}}, UpdateExpression="ADD v :one", ExpressionAttributeValues={":one": 1})`;

test('Python: `if name not in COUNTERS: raise`, and a use inside `if name in (...)`, are few-valued; a check that only logs is not', async () => {
  const r = await analyze(
    'counters.py',
    `${PY_HEAD}

def increment(name):
    if name not in COUNTERS:
        raise ValueError("unknown counter")
    ${pyIncrement('name')}


def only_known(kind):
    if kind in ("a", "b", "c"):
        ${pyIncrement('kind')}


def logged(name):
    if name not in COUNTERS:
        print("unknown counter", name)
    ${pyIncrement('name')}
`,
  );
  assert.deepEqual(summarize(r), [
    '10 UpdateItem counters name={low-cardinality} (counter)',
    '15 UpdateItem counters name={low-cardinality} (counter)',
    '21 UpdateItem counters name={entity-id} (high-cardinality)',
  ]);
  assert.deepEqual(findingLines(r), ['10 SL004', '15 SL004']);
});

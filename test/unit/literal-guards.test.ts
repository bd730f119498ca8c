/**
 * A name that is a placeholder constant on some paths (`id ? String(id) : "UNKNOWN"`,
 * `sub || "anonymous"`) cannot hold it where the code checks it away: inside
 * `if (id !== "UNKNOWN") { ... }`, in the `else` of `if (id === "UNKNOWN")`, or after
 * `if (sub === "anonymous") throw ...` / `if user_id == "UNKNOWN": return`. A key written
 * there is what the name says (an id), not the constant. Checks that do not keep the
 * literal away (on another name, one that only logs, one after the use, the name assigned
 * again after the check) leave the constant on some paths, and SL001 stays.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, findingLines, summarize } from './helpers';

const JS_HEAD = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = process.env.TABLE_NAME;
const ANONYMOUS = "anonymous";

function itemIdOf(detail: any): string {
  const id = detail?.input?.itemId || detail?.itemId;
  return id ? String(id) : "UNKNOWN";
}
`;

const markFailed = (key: string) => `await ddb.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: { pk: ${key}, sk: "META" },
          UpdateExpression: "SET lastError = :e",
          ExpressionAttributeValues: { ":e": "failed" },
        }),
      );`;

test('JS: inside `!==`, in the else of `===` and after a throw or a continue, the placeholder is not the key', async () => {
  const r = await analyze(
    'dlq.ts',
    `${JS_HEAD}
export const onDeadLetter = async (event: any) => {
  for (const record of event.Records ?? []) {
    const itemId = itemIdOf(JSON.parse(record.body));
    if (itemId !== "UNKNOWN" && record.attributes) {
      ${markFailed('`ITEM#${itemId}`')}
    }
  }
};

export const onRetry = async (event: any) => {
  const itemId = itemIdOf(event.detail);
  if (itemId === "UNKNOWN") {
    console.warn("no id");
  } else {
    ${markFailed('`ITEM#${itemId}`')}
  }
};

export const createDraft = async (event: any) => {
  const sub = event.identity?.sub || event.identity?.claims?.sub || ANONYMOUS;
  if (!event.arguments || sub === ANONYMOUS) {
    throw new Error("Unauthorized");
  }
  await ddb.send(new PutCommand({ TableName: TABLE, Item: { pk: \`CREATOR#\${sub}\`, sk: "DRAFT", body: event.arguments.body } }));
};

export const onBatch = async (event: any) => {
  for (const record of event.Records) {
    const itemId = itemIdOf(record);
    if (itemId === "UNKNOWN") continue;
    ${markFailed('`ITEM#${itemId}`')}
  }
};
`,
  );
  assert.deepEqual(summarize(r), [
    '20 UpdateItem TABLE_NAME pk=ITEM#{entity-id} sk=META (high-cardinality)',
    '37 UpdateItem TABLE_NAME pk=ITEM#{entity-id} sk=META (high-cardinality)',
    '50 PutItem TABLE_NAME pk=CREATOR#{entity-id} sk=DRAFT (high-cardinality)',
    '60 UpdateItem TABLE_NAME pk=ITEM#{entity-id} sk=META (high-cardinality)',
  ]);
  assert.deepEqual(findingLines(r), []);
});

test('JS: a check on another name, one that only logs, one after the use, or the name assigned after it keep the constant', async () => {
  const r = await analyze(
    'dlq.ts',
    `${JS_HEAD}
export const onDeadLetter = async (event: any) => {
  const itemId = itemIdOf(JSON.parse(event.body));
  const other = event.other;
  if (other !== "UNKNOWN") {
    ${markFailed('`ITEM#${itemId}`')}
  }
};

export const onLog = async (event: any) => {
  const itemId = itemIdOf(event.detail);
  if (itemId === "UNKNOWN") console.warn("no id");
  ${markFailed('`ITEM#${itemId}`')}
  if (itemId === "UNKNOWN") return;
};

export const onAgain = async (event: any) => {
  let itemId = itemIdOf(event.detail);
  if (itemId === "UNKNOWN") return;
  itemId = itemIdOf(event.retry);
  ${markFailed('`ITEM#${itemId}`')}
};
`,
  );
  assert.deepEqual(findingLines(r), ['20 SL001', '34 SL001', '49 SL001']);
  for (const f of r.findings) assert.match(f.message, /"ITEM#UNKNOWN" .*is a constant on some paths/);
});

const PY = `import os
import boto3

table = boto3.resource("dynamodb").Table(os.environ["TABLE_NAME"])


def handler(event, context):
    claims = event.get("requestContext", {}).get("authorizer", {}).get("claims", {})
    user_id = claims.get("sub") or "UNKNOWN"
    if not user_id or user_id == "UNKNOWN":
        return {"statusCode": 401}
    table.put_item(Item={"pk": f"USER#{user_id}", "sk": "PROFILE", "name": event["body"]})
    return {"statusCode": 200}


def by_tenant(event, context):
    tenant = event.get("tenant") or "default"
    if tenant == "default":
        pass
    elif tenant != "legacy":
        table.put_item(Item={"pk": f"TENANT#{tenant}", "sk": "X"})
    else:
        table.put_item(Item={"pk": f"TENANT#{tenant}", "sk": "Y"})
    if tenant != "default":
        table.put_item(Item={"pk": f"TENANT#{tenant}", "sk": "Z"})
    else:
        table.put_item(Item={"pk": f"TENANT#{tenant}", "sk": "W"})
`;

test('Python: after `== ... return`, in an elif, and in the branch of `!=`, the placeholder is not the key; an else keeps it', async () => {
  const r = await analyze('app.py', PY);
  assert.deepEqual(summarize(r), [
    '12 PutItem TABLE_NAME pk=USER#{entity-id} sk=PROFILE (high-cardinality)',
    // \`tenant\` says nothing of its values: unknown where "default" is checked away.
    '21 PutItem TABLE_NAME pk=TENANT#{unknown} sk=X (unknown)',
    '23 PutItem TABLE_NAME pk=TENANT#{unknown} sk=Y (unknown)',
    '25 PutItem TABLE_NAME pk=TENANT#{unknown} sk=Z (unknown)',
    '27 PutItem TABLE_NAME pk=TENANT#default sk=W (constant)',
  ]);
  assert.deepEqual(findingLines(r), ['27 SL001']);
});

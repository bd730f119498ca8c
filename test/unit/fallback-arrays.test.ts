import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexedWorkspace } from './helpers';

/**
 * A loop over an attribute with an empty fallback (`item.replies || []`, `item.get("replies") or []`)
 * walks the attribute's ids, not shards: the element it passes on is an entity id. The
 * empty side of the fallback once gave a shard set of no values, and the recursive call
 * an SL008 "scatter-gather Query over shard".
 */

const findings = (index: Awaited<ReturnType<typeof indexedWorkspace>>['index']) =>
  index.results().flatMap((r) => r.findings.map((f) => `${f.rule} ${f.span.startLine + 1}`));

test('JS: a recursive query over `(item.replies || [])[i]` is no scatter-gather read', async () => {
  const { index } = await indexedWorkspace({
    'src/threads.js': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function countThread(messageId) {
  const res = await doc.send(new QueryCommand({
    TableName: "messages",
    KeyConditionExpression: "messageId = :id",
    ExpressionAttributeValues: { ":id": messageId },
  }));
  let count = res.Items.length;
  for (const item of res.Items) {
    const replies = item.replies || [];
    for (let i = 0; i < replies.length; i++) count += await countThread(replies[i]);
    for (const reply of item.quoted || []) count += await countThread(reply);
  }
  return count;
}
`,
  });
  assert.deepEqual(findings(index), []);
});

test('Python: a loop over `item.get("replies") or []` is no scatter-gather read', async () => {
  const { index } = await indexedWorkspace({
    'threads.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("messages")


def count_thread(message_id):
    items = table.query(KeyConditionExpression=Key("messageId").eq(message_id))["Items"]
    count = len(items)
    for item in items:
        for reply in item.get("replies") or []:
            count += count_thread(reply)
    return count
`,
  });
  assert.deepEqual(findings(index), []);
});

test('a loop over a literal list of shard numbers is still a scatter-gather read', async () => {
  const { index } = await indexedWorkspace({
    'src/board.js': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const SHARDS = [0, 1, 2, 3];

export async function readBoard() {
  const out = [];
  for (let i = 0; i < SHARDS.length; i++) {
    const r = await doc.send(new QueryCommand({
      TableName: "board",
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": \`BOARD#\${SHARDS[i]}\` },
    }));
    out.push(...r.Items);
  }
  return out;
}
`,
  });
  assert.deepEqual(findings(index), ['SL008 13']); // on the key value
});

import type { Case } from '../case';

/** A file git tracks is source, even when a .gitignore pattern matches it. */
export const cases: Case[] = [
  {
    name: 'tracked file under an ignored folder',
    git: true,
    files: {
      'package.json': '{ "name": "svc" }\n',
      'gitignore.txt': 'generated/\n',
      'src/generated/writer.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function addBuild(buildId: string) {
  await doc.send(new PutCommand({ TableName: "builds", Item: { pk: "BUILDS", sk: buildId } })); // expect SL001:error
}
`,
    },
  },
  {
    name: 'tracked Python module matching an ignore pattern',
    git: true,
    files: {
      'requirements.txt': 'boto3\n',
      'gitignore.txt': 'local_*.py\n',
      'app/local_cache.py': `import boto3

table = boto3.resource("dynamodb").Table("cache")


def cached_settings(event, context):
    return table.get_item(Key={"pk": "SETTINGS"}).get("Item")  # expect SL001:error
`,
    },
  },
];

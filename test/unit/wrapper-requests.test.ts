import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { coverageOf } from '../../server/src/engine/requests/coverage';
import { indexedWorkspace } from './helpers';

/*
 * Generic database classes that take the caller's request, or a part of it, and build
 * the command around it: the key is in the caller's object, so it is judged there.
 */

function findings(index: WorkspaceIndex, dir: string): string[] {
  return index
    .results()
    .flatMap((r) => r.findings.map((f) => `${path.relative(dir, f.file)}:${f.span.startLine + 1} ${f.rule}`))
    .sort();
}

const DATABASE = `import {
  type DynamoDBDocumentClient,
  GetCommand,
  type GetCommandInput,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";

export interface IDatabase {
  create<T extends Record<string, unknown>>(attributes: T): Promise<void>;
  get<T>(args: Omit<GetCommandInput, "TableName">): Promise<T | undefined>;
  update(args: Omit<UpdateCommandInput, "TableName">): Promise<void>;
  query<T>(args: Omit<QueryCommandInput, "TableName">): Promise<T[]>;
}

export class Database implements IDatabase {
  private readonly table = process.env.APP_TABLE;

  constructor(private readonly doc: DynamoDBDocumentClient) {}

  async create<T extends Record<string, unknown>>(attributes: T) {
    await this.doc.send(new PutCommand({ TableName: this.table, Item: { ...attributes } }));
  }

  async get<T>(args: Omit<GetCommandInput, "TableName">): Promise<T | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.table, ...args }));
    return out.Item as T | undefined;
  }

  async update(args: Omit<UpdateCommandInput, "TableName">) {
    const command = new UpdateCommand({
      TableName: this.table,
      ...args,
    });
    await this.doc.send(command);
  }

  async query<T>(args: Omit<QueryCommandInput, "TableName">): Promise<T[]> {
    const out = await this.doc.send(new QueryCommand({ TableName: this.table, ...args }));
    return (out.Items ?? []) as T[];
  }
}
`;

for (const type of ['Database', 'IDatabase']) {
  test(`a wrapper spreading the caller request into the command (field typed ${type}): the constant key is judged at each caller`, async () => {
    const { index, dir } = await indexedWorkspace({
      'src/database/database.ts': DATABASE,
      'src/users/user.repository.ts': `import type { ${type} } from "../database/database";

export class UserRepository {
  constructor(private readonly db: ${type}) {}

  async signUp(userId: string, email: string) {
    await this.db.create({ PK: "PROFILE", SK: \`USER#\${userId}\`, email });
  }

  async findById(userId: string) {
    return this.db.get<{ email: string }>({ Key: { PK: "PROFILE", SK: \`USER#\${userId}\` } });
  }

  async changeEmail(userId: string, email: string) {
    await this.db.update({
      Key: { PK: "PROFILE", SK: \`USER#\${userId}\` },
      UpdateExpression: "SET email = :e",
      ExpressionAttributeValues: { ":e": email },
    });
  }

  async sessions(userId: string) {
    return this.db.query({
      KeyConditionExpression: "PK = :pk",
      ExpressionAttributeValues: { ":pk": \`SESSION#\${userId}\` },
    });
  }
}
`,
    });
    assert.deepEqual(findings(index, dir), [
      'src/users/user.repository.ts:11 SL001',
      'src/users/user.repository.ts:16 SL001',
      'src/users/user.repository.ts:7 SL001',
    ]);
    const atCaller = index
      .results()
      .flatMap((r) => r.accesses)
      .filter((a) => a.file.endsWith('user.repository.ts'))
      .map((a) => `${a.operation} ${a.partitionKey?.attribute}`);
    assert.deepEqual(
      atCaller,
      ['PutItem PK', 'GetItem PK', 'UpdateItem PK', 'Query PK'],
      'each call read at the caller',
    );
  });
}

const DISPATCH_V3 = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

const COMMANDS = {
  get: GetCommand,
  put: PutCommand,
  query: QueryCommand,
  update: UpdateCommand,
};

export async function call(action, params) {
  const CommandClass = COMMANDS[action];
  return client.send(new CommandClass(params));
}

export async function run(action, params) {
  return client.send(new COMMANDS[action](params));
}
`;

const DISPATCH_V2 = `const AWS = require("aws-sdk");

module.exports.call = (action, params) => {
  const dynamoDb = new AWS.DynamoDB.DocumentClient();
  return dynamoDb[action](params).promise();
};
`;

const LIST_POSTS = (lib: string, fn: string) => `import * as dynamoDbLib from "${lib}";

export async function latest(event) {
  const params = {
    TableName: process.env.postsTable,
    IndexName: "postType-createdAt-index",
    KeyConditionExpression: "postType = :postType",
    ExpressionAttributeValues: { ":postType": "POST" },
    ScanIndexForward: false,
    Limit: 15,
  };
  const result = await dynamoDbLib.${fn}("query", params);
  return result.Items;
}

export async function byId(event) {
  return dynamoDbLib.${fn}("get", { TableName: process.env.postsTable, Key: { postId: event.pathParameters.id } });
}

export async function anything(event, action) {
  return dynamoDbLib.${fn}(action, { TableName: process.env.postsTable, Key: { postId: "FEATURED" } });
}
`;

for (const [lib, fn] of [
  ['libs/dynamodb-lib.js', 'call'],
  ['libs/dynamodb-lib.js', 'run'],
  ['libs/dynamodb-v2.js', 'call'],
]) {
  test(`a wrapper choosing the command by name (${lib} ${fn}): each caller's literal action picks the operation`, async () => {
    const { index, dir } = await indexedWorkspace({
      'libs/dynamodb-lib.js': DISPATCH_V3,
      'libs/dynamodb-v2.js': DISPATCH_V2,
      'posts/list.js': LIST_POSTS(`../${lib.replace(/\.js$/, '')}`, fn),
    });
    assert.deepEqual(findings(index, dir), ['posts/list.js:8 SL001'], 'the constant index key of every list page');
    const calls = index
      .results()
      .flatMap((r) => r.accesses)
      .filter((a) => a.file.endsWith('list.js'))
      .map((a) =>
        a.operationUnread
          ? `? from ${a.operationUnread}`
          : `${a.operation} ${a.index ?? '-'} ${a.partitionKey?.attribute}`,
      );
    // The call whose action is not a literal cannot say which operation it is: no key is
    // read from it (no finding on its constant "FEATURED"), and it counts as a call not understood.
    assert.deepEqual(calls, ['Query postType-createdAt-index postType', 'GetItem - postId', '? from action']);
    const coverage = coverageOf(index.results());
    const unread = coverage.unresolved.find((u) => u.reason === 'operation-not-read');
    assert.deepEqual(
      unread?.sites.map((s) => `${path.relative(dir, s.file)}:${s.span.startLine + 1} ${s.detail}`),
      ['posts/list.js:21 operation from action'],
    );
    assert.equal(coverage.calls, coverage.resolved + coverage.unresolved.reduce((n, u) => n + u.count, 0));
  });
}

test('a repository building its keys in a private method (const { PK, SK } = this.getKeys(id)): the constant is seen', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/database/database.ts': DATABASE,
    'src/users/user.repository.ts': `import type { IDatabase } from "../database/database";

export class UserRepository {
  constructor(private readonly db: IDatabase) {}

  async findById(userId: string) {
    const { PK, SK } = this.getKeys(userId);
    return this.db.get<{ email: string }>({ Key: { PK, SK } });
  }

  private getKeys(id: string): { PK: string; SK: string } {
    return { SK: \`USER#\${id}\`, PK: "PROFILE" };
  }
}
`,
  });
  assert.deepEqual(findings(index, dir), ['src/users/user.repository.ts:8 SL001']);
});

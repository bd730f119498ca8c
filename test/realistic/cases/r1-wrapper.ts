import type { Case } from '../case';

/** The SDK call sits in a helper, a repository or a base class; the hot value arrives as an argument. */
export const cases: Case[] = [
  {
    name: 'abstract base repository; a subclass writes one queue partition',
    files: {
      'package.json': '{ "name": "jobs" }\n',
      'src/base-repo.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export abstract class BaseRepo {
  constructor(protected readonly table: string) {}

  protected write(item: Record<string, unknown>) {
    return doc.send(new PutCommand({ TableName: this.table, Item: item }));
  }
}
`,
      'src/job-queue.ts': `import { BaseRepo } from "./base-repo";

export class JobQueue extends BaseRepo {
  constructor() {
    super("jobs");
  }

  enqueue(jobId: string, payload: unknown) {
    return this.write({ pk: "QUEUE", sk: jobId, payload }); // expect SL001:error
  }
}
`,
    },
  },
  {
    name: 'helper module imported with destructuring require',
    files: {
      'package.json': '{ "name": "chat" }\n',
      'lib/db.js': `const AWS = require("aws-sdk");
const client = new AWS.DynamoDB.DocumentClient();

function save(pk, sk, body) {
  return client.put({ TableName: "messages", Item: { pk, sk, body } }).promise();
}

module.exports = { save };
`,
      'lib/lobby.js': `const { save } = require("./db");

exports.postToLobby = async (messageId, text) => {
  await save("ROOM#lobby", messageId, text); // expect SL001:error
};
`,
    },
  },
  {
    name: 'ES module helper returning the key object',
    files: {
      'package.json': '{ "name": "cart" }\n',
      'src/keys.ts': `export function cartKey(owner: string) {
  return { pk: owner, sk: "CART" };
}
`,
      'src/cart.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { cartKey } from "./keys";

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function sharedCart() {
  return ddb.send(new GetCommand({ TableName: "carts", Key: cartKey("SHARED") })); // expect SL001:error
}
`,
    },
  },
  {
    name: 'Python DAO class; a service passes a constant partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/dao.py': `import boto3


class ItemDao:
    def __init__(self, table_name):
        self.table = boto3.resource("dynamodb").Table(table_name)

    def put(self, pk, sk, **attrs):
        self.table.put_item(Item={"pk": pk, "sk": sk, **attrs})
`,
      'app/notifications.py': `import uuid
from app.dao import ItemDao

dao = ItemDao("notifications")


def broadcast(text):
    dao.put("BROADCAST", str(uuid.uuid4()), text=text)  # expect SL001:error
`,
    },
  },
  {
    name: 'Python helper function in the same module called with self-less wrapper',
    files: {
      'requirements.txt': 'boto3\n',
      'service/metrics.py': `import boto3

table = boto3.resource("dynamodb").Table("metrics")


def _bump(name):
    table.update_item(
        Key={"pk": name},
        UpdateExpression="ADD total :one",
        ExpressionAttributeValues={":one": 1},
    )


def record_signup(user_id):
    _bump("signups")  # expect SL004:warning
    return user_id
`,
    },
  },
  {
    name: 'JS function returning the item: Item: toItem(u)',
    files: {
      'package.json': '{ "name": "presence" }\n',
      'src/presence.js': `const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, PutCommand } = require("@aws-sdk/lib-dynamodb");

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

function toItem(user) {
  return { pk: "ONLINE", sk: user.id, seenAt: Date.now() }; // expect SL001:error
}

async function markOnline(user) {
  await doc.send(new PutCommand({ TableName: "presence", Item: toItem(user) }));
}

module.exports = { markOnline };
`,
    },
  },
  {
    name: 'Python method on an instance created in another module',
    files: {
      'requirements.txt': 'boto3\n',
      'store/repo.py': `import boto3
from boto3.dynamodb.conditions import Key


class Repo:
    def __init__(self):
        self.table = boto3.resource("dynamodb").Table("catalog")

    def list_partition(self, pk):
        return self.table.query(KeyConditionExpression=Key("pk").eq(pk))["Items"]
`,
      'store/api.py': `from store.repo import Repo

repo = Repo()


def featured_products(event, context):
    return repo.list_partition("FEATURED")  # expect SL001:error
`,
    },
  },
  {
    name: 'wrapper called with an entity id only (no finding)',
    files: {
      'package.json': '{ "name": "users" }\n',
      'src/store.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export function getByPk(pk: string) {
  return doc.send(new GetCommand({ TableName: "users", Key: { pk, sk: "META" } }));
}
`,
      'src/handler.ts': `import { getByPk } from "./store";

export const handler = async (event: { pathParameters: { userId: string } }) => {
  const userId = event.pathParameters.userId;
  return getByPk(\`USER#\${userId}\`);
};
`,
    },
  },
  {
    name: 'static method on a model class called from a route',
    files: {
      'package.json': '{ "name": "board" }\n',
      'src/model.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class Post {
  static async inPartition(pk: string) {
    const r = await doc.send(
      new QueryCommand({
        TableName: "posts",
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": pk },
      }),
    );
    return r.Items;
  }
}
`,
      'src/routes.ts': `import { Post } from "./model";

export async function frontPage() {
  return Post.inPartition("FRONTPAGE"); // expect SL001:error
}
`,
    },
  },
  {
    name: 'Python repository subclass passing a status to a base query',
    files: {
      'requirements.txt': 'boto3\n',
      'svc/base.py': `import boto3
from boto3.dynamodb.conditions import Key


class Base:
    table_name = None

    def __init__(self):
        self.table = boto3.resource("dynamodb").Table(self.table_name)

    def by_partition(self, value):
        return self.table.query(KeyConditionExpression=Key("pk").eq(value))["Items"]
`,
      'svc/invoices.py': `from svc.base import Base


class Invoices(Base):
    table_name = "invoices"

    def unpaid(self):
        return self.by_partition("STATUS#UNPAID")  # expect SL001:error
`,
    },
  },
];

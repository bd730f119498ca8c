import type { Case } from '../case';

/**
 * Hot keys chosen one to three layers above the SDK call, in the ways projects wire
 * their data access: handler → service → repository, module singletons, factories,
 * containers, three-deep class hierarchies, Python dataclasses and functools.partial.
 * Some of these shapes are not followed yet; the case says what a reviewer expects.
 */
export const cases: Case[] = [
  {
    name: 'handler → service → repository with constructor injection (TS v3)',
    files: {
      'package.json': '{ "name": "feed" }\n',
      'src/repositories/feed-repository.ts': `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

export class FeedRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async append(pk: string, postId: string, body: string): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk, sk: postId, body } }));
  }
}
`,
      'src/services/feed-service.ts': `import { FeedRepository } from "../repositories/feed-repository";

export class FeedService {
  constructor(private readonly feed: FeedRepository) {}

  async publishToEveryone(postId: string, body: string) {
    await this.feed.append("FEED#everyone", postId, body); // expect SL001:error
  }

  async publishToFollowers(authorId: string, postId: string, body: string) {
    await this.feed.append(\`FEED#\${authorId}\`, postId, body);
  }
}
`,
      'src/handlers/publish.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { FeedRepository } from "../repositories/feed-repository";
import { FeedService } from "../services/feed-service";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const service = new FeedService(new FeedRepository(doc, process.env.FEED_TABLE!));

export const handler = async (event: { body: string }) => {
  const { postId, body, broadcast, authorId } = JSON.parse(event.body);
  if (broadcast) await service.publishToEveryone(postId, body);
  else await service.publishToFollowers(authorId, postId, body);
  return { statusCode: 201 };
};
`,
    },
  },
  {
    name: 'module singleton `export const counters = new CounterRepository()` bumping a sequence',
    files: {
      'package.json': '{ "name": "shop" }\n',
      'src/db/counter-repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

class CounterRepository {
  private readonly table = process.env.COUNTERS_TABLE ?? "counters";

  async next(name: string): Promise<number> {
    const out = await doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: name },
        UpdateExpression: "ADD #v :one",
        ExpressionAttributeNames: { "#v": "value" },
        ExpressionAttributeValues: { ":one": 1 },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return Number(out.Attributes?.value);
  }
}

export const counters = new CounterRepository();
`,
      'src/orders/create-order.ts': `import { counters } from "../db/counter-repository";

export async function createOrder(customerId: string, lines: unknown[]) {
  const orderNumber = await counters.next("ORDER_NUMBER"); // expect SL004:warning
  return { orderNumber, customerId, lines };
}
`,
    },
  },
  {
    name: 'factory function returning an object of methods, bound once in an index module',
    files: {
      'package.json': '{ "name": "sessions" }\n',
      'src/repositories/session-repository.ts': `import { DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";

export function createSessionRepository(doc: DynamoDBDocumentClient, tableName: string) {
  return {
    async save(pk: string, sessionId: string, data: Record<string, unknown>) {
      await doc.send(new PutCommand({ TableName: tableName, Item: { pk, sk: sessionId, ...data } }));
    },
    async list(pk: string) {
      const out = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": pk },
        }),
      );
      return out.Items ?? [];
    },
  };
}
`,
      'src/repositories/index.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createSessionRepository } from "./session-repository";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const sessionRepository = createSessionRepository(doc, process.env.SESSIONS_TABLE ?? "sessions");
`,
      'src/handlers/login.ts': `import { randomUUID } from "node:crypto";
import { sessionRepository } from "../repositories";

export const handler = async (event: { requestContext: { authorizer: { claims: { sub: string } } } }) => {
  const sub = event.requestContext.authorizer.claims.sub;
  await sessionRepository.save(\`USER#\${sub}\`, randomUUID(), { createdAt: Date.now() });
  return { statusCode: 204 };
};
`,
      'src/handlers/admin.ts': `import { sessionRepository } from "../repositories";

export const liveSessions = async () => {
  const items = await sessionRepository.list("LIVE"); // expect SL001:error
  return { statusCode: 200, body: JSON.stringify(items) };
};
`,
    },
  },
  {
    name: 'RepositoryFactory class handing out repositories to a websocket handler',
    files: {
      'package.json': '{ "name": "chat-ws" }\n',
      'src/repositories/RoomRepository.ts': `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

export class RoomRepository {
  constructor(private readonly dynamo: DynamoDBDocumentClient) {}

  async addMember(roomKey: string, connectionId: string) {
    await this.dynamo.send(
      new PutCommand({
        TableName: process.env.ROOMS_TABLE,
        Item: { pk: roomKey, sk: connectionId, joinedAt: Date.now() },
      }),
    );
  }
}
`,
      'src/repositories/RepositoryFactory.ts': `import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { RoomRepository } from "./RoomRepository";

export class RepositoryFactory {
  constructor(private readonly dynamo: DynamoDBDocumentClient) {}

  createRoomRepository(): RoomRepository {
    return new RoomRepository(this.dynamo);
  }
}
`,
      'src/handlers/connect.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { RepositoryFactory } from "../repositories/RepositoryFactory";

const factory = new RepositoryFactory(DynamoDBDocumentClient.from(new DynamoDBClient({})));

export const handler = async (event: { requestContext: { connectionId: string } }) => {
  const rooms = factory.createRoomRepository();
  await rooms.addMember("ROOM#lobby", event.requestContext.connectionId); // expect SL001:error
  return { statusCode: 200 };
};
`,
    },
  },
  {
    name: 'serverless-stack style lib: default-exported object of v2 calls, params built in the handler',
    files: {
      'package.json': '{ "name": "notes-api" }\n',
      'libs/dynamodb-lib.js': `import AWS from "aws-sdk";

const client = new AWS.DynamoDB.DocumentClient();

export default {
  get: (params) => client.get(params).promise(),
  put: (params) => client.put(params).promise(),
  query: (params) => client.query(params).promise(),
  update: (params) => client.update(params).promise(),
  delete: (params) => client.delete(params).promise(),
};
`,
      'functions/track-view.js': `import dynamoDb from "../libs/dynamodb-lib";

export async function main(event) {
  const params = {
    TableName: process.env.STATS_TABLE,
    Key: { pk: "PAGE_VIEWS" }, // expect SL004:warning
    UpdateExpression: "ADD hits :one",
    ExpressionAttributeValues: { ":one": 1 },
  };
  await dynamoDb.update(params);
  return { statusCode: 200, body: JSON.stringify({ ok: true, path: event.path }) };
}
`,
    },
  },
  {
    name: 'CommonJS `call(action, params)` lib dispatching on the method name',
    files: {
      'package.json': '{ "name": "bulletin" }\n',
      'libs/dynamodb-lib.js': `const AWS = require("aws-sdk");

module.exports.call = (action, params) => {
  const dynamoDb = new AWS.DynamoDB.DocumentClient();
  return dynamoDb[action](params).promise();
};
`,
      'handlers/announce.js': `const { randomUUID } = require("crypto");
const dynamoDbLib = require("../libs/dynamodb-lib");

module.exports.create = async (event) => {
  const body = JSON.parse(event.body);
  const params = {
    TableName: process.env.tableName,
    Item: {
      pk: "CHANNEL#announcements", // expect SL001:error
      sk: randomUUID(),
      text: body.text,
    },
  };
  await dynamoDbLib.call("put", params);
  return { statusCode: 201, body: JSON.stringify(params.Item) };
};
`,
    },
  },
  {
    name: 'Python dataclass store built in a deps module, used by a Lambda handler',
    files: {
      'requirements.txt': 'boto3\n',
      'app/__init__.py': '',
      'app/store.py': `from dataclasses import dataclass, field

import boto3


@dataclass
class EventStore:
    table_name: str
    _table: object = field(init=False, repr=False)

    def __post_init__(self):
        self._table = boto3.resource("dynamodb").Table(self.table_name)

    def append(self, stream, event_id, payload):
        self._table.put_item(Item={"pk": stream, "sk": event_id, "payload": payload})
`,
      'app/deps.py': `import os

from app.store import EventStore

event_store = EventStore(table_name=os.environ["EVENTS_TABLE"])
`,
      'app/handlers.py': `import uuid

from app.deps import event_store


def on_checkout(event, context):
    event_store.append("STREAM#orders", str(uuid.uuid4()), event["detail"])  # expect SL001:error
    return {"ok": True}
`,
    },
  },
  {
    name: 'functools.partial binding the table name of a shared put helper; caller writes a day key',
    files: {
      'requirements.txt': 'boto3\n',
      'shared/__init__.py': '',
      'shared/ddb.py': `import boto3

_resource = boto3.resource("dynamodb")


def put_record(table_name, pk, sk, **attrs):
    _resource.Table(table_name).put_item(Item={"pk": pk, "sk": sk, **attrs})
`,
      'audit/__init__.py': '',
      'audit/writer.py': `import datetime
import uuid
from functools import partial

from shared.ddb import put_record

write_audit = partial(put_record, "audit-trail")


def record(actor, action):
    today = datetime.date.today().isoformat()
    write_audit(f"AUDIT#{today}", str(uuid.uuid4()), actor=actor, action=action)  # expect SL002:warning
`,
    },
  },
  {
    name: 'boto3 client repository with a config dict of table names, injected by annotation',
    files: {
      'requirements.txt': 'boto3\n',
      'jobs/__init__.py': '',
      'jobs/config.py': `import os

TABLES = {
    "jobs": os.environ.get("JOBS_TABLE", "jobs-dev"),
    "locks": os.environ.get("LOCKS_TABLE", "locks-dev"),
}
`,
      'jobs/repository.py': `import boto3

from jobs.config import TABLES


class JobRepository:
    def __init__(self, client=None):
        self._client = client or boto3.client("dynamodb")
        self._table = TABLES["jobs"]

    def enqueue(self, queue, job_id, payload):
        self._client.put_item(
            TableName=self._table,
            Item={"pk": {"S": queue}, "sk": {"S": job_id}, "payload": {"S": payload}},
        )
`,
      'jobs/scheduler.py': `import json
import uuid

from jobs.repository import JobRepository


class Scheduler:
    def __init__(self, repository: JobRepository):
        self._repository = repository

    def schedule(self, kind, args):
        body = json.dumps({"kind": kind, "args": args})
        self._repository.enqueue("QUEUE#default", str(uuid.uuid4()), body)  # expect SL001:error
`,
      'jobs/main.py': `from jobs.repository import JobRepository
from jobs.scheduler import Scheduler

scheduler = Scheduler(JobRepository())


def handler(event, context):
    scheduler.schedule(event["kind"], event.get("args", {}))
`,
    },
  },
  {
    name: 'Python service passing an order status field to a queue repository built in app.py',
    files: {
      'requirements.txt': 'boto3\n',
      'orders/__init__.py': '',
      'orders/repo.py': `import boto3


class OrderQueueRepo:
    def __init__(self, table_name):
        self.table = boto3.resource("dynamodb").Table(table_name)

    def push(self, lane, order_id):
        self.table.put_item(Item={"pk": lane, "sk": order_id})
`,
      'orders/service.py': `class OrderService:
    def __init__(self, repo):
        self.repo = repo

    def accept(self, order):
        self.repo.push(order["status"], order["id"])  # expect SL003:warning
`,
      'orders/app.py': `import json
import os

from orders.repo import OrderQueueRepo
from orders.service import OrderService

service = OrderService(OrderQueueRepo(os.environ["QUEUE_TABLE"]))


def handler(event, context):
    for record in event["Records"]:
        service.accept(json.loads(record["body"]))
`,
    },
  },
  {
    name: 'three-deep class hierarchy: base put, time-series append, metrics writes the hour',
    files: {
      'package.json': '{ "name": "metrics" }\n',
      'src/db/base-repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export abstract class BaseRepository {
  protected abstract readonly tableName: string;

  protected async putItem(item: Record<string, unknown>): Promise<void> {
    await doc.send(new PutCommand({ TableName: this.tableName, Item: item }));
  }
}
`,
      'src/db/time-series-repository.ts': `import { BaseRepository } from "./base-repository";

export abstract class TimeSeriesRepository extends BaseRepository {
  protected async appendPoint(partition: string, pointId: string, data: Record<string, unknown>) {
    await this.putItem({ pk: partition, sk: pointId, ...data });
  }
}
`,
      'src/metrics/metrics-repository.ts': `import { randomUUID } from "node:crypto";
import { TimeSeriesRepository } from "../db/time-series-repository";

export class MetricsRepository extends TimeSeriesRepository {
  protected readonly tableName = process.env.METRICS_TABLE ?? "metrics";

  async record(name: string, value: number) {
    const hour = new Date().toISOString().slice(0, 13);
    await this.appendPoint(\`METRICS#\${hour}\`, randomUUID(), { name, value }); // expect SL002:warning
  }
}
`,
    },
  },
  {
    name: 'NestJS: controller → service → repository using an injected DynamoService client',
    files: {
      'package.json': '{ "name": "games-api" }\n',
      'src/dynamo/dynamo.service.ts': `import { Injectable } from "@nestjs/common";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

@Injectable()
export class DynamoService {
  readonly doc: DynamoDBDocumentClient;

  constructor() {
    this.doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION }));
  }
}
`,
      'src/leaderboard/leaderboard.repository.ts': `import { Injectable } from "@nestjs/common";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoService } from "../dynamo/dynamo.service";

@Injectable()
export class LeaderboardRepository {
  private readonly table = process.env.LEADERBOARD_TABLE;

  constructor(private readonly dynamo: DynamoService) {}

  async top(board: string, limit: number) {
    const out = await this.dynamo.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": board },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return out.Items ?? [];
  }
}
`,
      'src/leaderboard/leaderboard.service.ts': `import { Injectable } from "@nestjs/common";
import { LeaderboardRepository } from "./leaderboard.repository";

@Injectable()
export class LeaderboardService {
  constructor(private readonly repository: LeaderboardRepository) {}

  globalTop() {
    return this.repository.top("BOARD#global", 100); // expect SL001:error
  }
}
`,
      'src/leaderboard/leaderboard.controller.ts': `import { Controller, Get } from "@nestjs/common";
import { LeaderboardService } from "./leaderboard.service";

@Controller("leaderboard")
export class LeaderboardController {
  constructor(private readonly service: LeaderboardService) {}

  @Get()
  top() {
    return this.service.globalTop();
  }
}
`,
    },
  },
  {
    name: 'Inversify container: handler gets the gateway by symbol token',
    files: {
      'package.json': '{ "name": "inbox" }\n',
      'src/types.ts': `export const TYPES = {
  InboxGateway: Symbol.for("InboxGateway"),
};
`,
      'src/gateway/InboxGateway.ts': `import "reflect-metadata";
import { injectable } from "inversify";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

@injectable()
export class InboxGateway {
  private readonly doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

  async put(item: Record<string, unknown>): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: process.env.INBOX_TABLE, Item: item }));
  }
}
`,
      'src/inversify.config.ts': `import { Container } from "inversify";
import { InboxGateway } from "./gateway/InboxGateway";
import { TYPES } from "./types";

const container = new Container();
container.bind<InboxGateway>(TYPES.InboxGateway).to(InboxGateway).inSingletonScope();

export { container };
`,
      'src/handlers/submit.ts': `import { randomUUID } from "node:crypto";
import { container } from "../inversify.config";
import { InboxGateway } from "../gateway/InboxGateway";
import { TYPES } from "../types";

export const handler = async (event: { body?: string }) => {
  const gateway = container.get<InboxGateway>(TYPES.InboxGateway);
  const body = JSON.parse(event.body ?? "{}");
  await gateway.put({ pk: "INBOX#pending", sk: randomUUID(), body }); // expect SL001:error
  return { statusCode: 202 };
};
`,
    },
  },
  {
    name: 'callbacks: an item mapper passed to a batch writer, and a wrapper called inside .map',
    files: {
      'package.json': '{ "name": "importer" }\n',
      'src/db.js': `const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, PutCommand } = require("@aws-sdk/lib-dynamodb");

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

async function writeAll(items, toItem) {
  for (const item of items) {
    await doc.send(new PutCommand({ TableName: process.env.CATALOG_TABLE, Item: toItem(item) }));
  }
}

async function enqueue(pk, id, body) {
  await doc.send(new PutCommand({ TableName: process.env.OUTBOX_TABLE, Item: { pk, sk: id, body } }));
}

module.exports = { writeAll, enqueue };
`,
      'src/import.js': `const { writeAll } = require("./db");

exports.importCsv = async (rows) => {
  await writeAll(rows, (row) => ({ pk: "IMPORT#latest", sk: row.sku, ...row })); // expect SL001:error
};
`,
      'src/outbox.js': `const { enqueue } = require("./db");

exports.flush = async (events) => {
  await Promise.all(events.map((e) => enqueue("OUTBOX", e.id, e))); // expect SL001:error
};
`,
    },
  },
  {
    name: 'getRepository(Order): a generic repository per entity class, deploy-time table name',
    files: {
      'package.json': '{ "name": "fulfilment" }\n',
      'src/orm/repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class DynamoRepository<T> {
  constructor(private readonly tableName: string) {}

  async findByPartition(pk: string): Promise<T[]> {
    const out = await doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": pk },
      }),
    );
    return (out.Items ?? []) as T[];
  }
}

export function getRepository<T>(entity: { tableName: string }): DynamoRepository<T> {
  return new DynamoRepository<T>(entity.tableName);
}
`,
      'src/entities/Order.ts': `export class Order {
  static tableName = \`orders-\${process.env.STAGE}\`;
  id!: string;
  total!: number;
}
`,
      'src/services/fulfilment.ts': `import { getRepository } from "../orm/repository";
import { Order } from "../entities/Order";

const orders = getRepository<Order>(Order);

export async function backlog() {
  return orders.findByPartition("ORDERS#open"); // expect SL001:error
}
`,
    },
  },
  {
    name: 'CDK table with a GSI; a service passes a constant listing to the repository that writes gsi1pk',
    files: {
      'package.json': '{ "name": "catalog" }\n',
      'infra/lib/catalog-stack.ts': `import { Stack, StackProps } from "aws-cdk-lib";
import { AttributeType, BillingMode, Table } from "aws-cdk-lib/aws-dynamodb";
import { Construct } from "constructs";

export class CatalogStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const table = new Table(this, "Catalog", {
      tableName: "catalog",
      partitionKey: { name: "pk", type: AttributeType.STRING },
      sortKey: { name: "sk", type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
    });
    table.addGlobalSecondaryIndex({
      indexName: "gsi1",
      partitionKey: { name: "gsi1pk", type: AttributeType.STRING },
      sortKey: { name: "gsi1sk", type: AttributeType.STRING },
    });
  }
}
`,
      'src/catalog/product-repository.ts': `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

export interface Product {
  id: string;
  name: string;
  updatedAt: string;
}

export class ProductRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table = "catalog",
  ) {}

  async save(product: Product, listing: string) {
    await this.doc.send(
      new PutCommand({
        TableName: this.table,
        Item: { pk: \`PRODUCT#\${product.id}\`, sk: "META", gsi1pk: listing, gsi1sk: product.updatedAt, ...product },
      }),
    );
  }
}
`,
      'src/catalog/product-service.ts': `import { Product, ProductRepository } from "./product-repository";

export class ProductService {
  constructor(private readonly products: ProductRepository) {}

  async publish(product: Product) {
    await this.products.save(product, "LISTING#all"); // expect SL001:error SL005:info
  }
}
`,
    },
  },
  {
    name: 'path alias + barrel re-export of a v2 DocumentClient singleton',
    files: {
      'package.json': '{ "name": "notify" }\n',
      'tsconfig.json': `{
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@/*": ["src/*"] }
  }
}
`,
      'src/db/notifications-table.ts': `import { DynamoDB } from "aws-sdk";

class NotificationsTable {
  private readonly client = new DynamoDB.DocumentClient();
  private readonly name = process.env.NOTIFICATIONS_TABLE as string;

  async push(recipient: string, notificationId: string, message: string) {
    await this.client.put({ TableName: this.name, Item: { pk: recipient, sk: notificationId, message } }).promise();
  }
}

export const notificationsTable = new NotificationsTable();
`,
      'src/db/index.ts': `export * from "./notifications-table";
`,
      'src/handlers/maintenance.ts': `import { randomUUID } from "crypto";
import { notificationsTable } from "@/db";

export const handler = async (event: { message: string }) => {
  await notificationsTable.push("ALL_USERS", randomUUID(), event.message); // expect SL001:error
};
`,
    },
  },
  {
    name: 'a key helper with a public fallback branch, passed through a score service',
    files: {
      'package.json': '{ "name": "scores" }\n',
      'src/scores-repo.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function putScore(board: string, playerId: string, points: number) {
  await doc.send(new PutCommand({ TableName: "scores", Item: { pk: board, sk: playerId, points } }));
}
`,
      'src/score-service.ts': `import { putScore } from "./scores-repo";

function boardFor(tenantId?: string): string {
  if (tenantId) {
    return \`TENANT#\${tenantId}\`;
  }
  return "TENANT#public"; // expect SL001:error
}

export async function submitScore(playerId: string, points: number, tenantId?: string) {
  await putScore(boardFor(tenantId), playerId, points);
}
`,
    },
  },
  {
    name: 'Python classmethod factory `from_env()` returning an id allocator',
    files: {
      'requirements.txt': 'boto3\n',
      'ids/__init__.py': '',
      'ids/allocator.py': `import os

import boto3


class IdAllocator:
    def __init__(self, table):
        self._table = table

    @classmethod
    def from_env(cls):
        return cls(boto3.resource("dynamodb").Table(os.environ["COUNTERS_TABLE"]))

    def allocate(self, sequence):
        out = self._table.update_item(
            Key={"name": sequence},
            UpdateExpression="ADD current_value :one",
            ExpressionAttributeValues={":one": 1},
            ReturnValues="UPDATED_NEW",
        )
        return int(out["Attributes"]["current_value"])
`,
      'billing/__init__.py': '',
      'billing/invoices.py': `from ids.allocator import IdAllocator

ids = IdAllocator.from_env()


def create_invoice(customer_id, lines):
    number = ids.allocate("invoice")  # expect SL004:warning
    return {"number": number, "customer": customer_id, "lines": lines}
`,
    },
  },
  {
    name: 'CommonJS `module.exports = new PresenceStore()` (v2) used by a heartbeat handler',
    files: {
      'package.json': '{ "name": "presence" }\n',
      'lib/presence-store.js': `const AWS = require("aws-sdk");

class PresenceStore {
  constructor() {
    this.db = new AWS.DynamoDB.DocumentClient();
    this.table = process.env.PRESENCE_TABLE;
  }

  add(group, userId) {
    return this.db.put({ TableName: this.table, Item: { pk: group, sk: userId, at: Date.now() } }).promise();
  }
}

module.exports = new PresenceStore();
`,
      'handlers/heartbeat.js': `const presence = require("../lib/presence-store");

exports.handler = async (event) => {
  const { userId } = JSON.parse(event.body);
  await presence.add("ONLINE", userId); // expect SL001:error
  return { statusCode: 204 };
};
`,
    },
  },
  {
    name: 'Flask blueprint → service module → dal module; the service writes the hour bucket',
    files: {
      'requirements.txt': 'boto3\nflask\n',
      'api/__init__.py': '',
      'api/routes.py': `from flask import Blueprint, request

from api.services import analytics

bp = Blueprint("events", __name__)


@bp.post("/events")
def track():
    analytics.track(request.json["name"])
    return "", 204
`,
      'api/services/__init__.py': '',
      'api/services/analytics.py': `import time
import uuid

from api.dal import events_dal


def track(name):
    bucket = time.strftime("%Y-%m-%d-%H")
    events_dal.put_event(f"EVENTS#{bucket}", str(uuid.uuid4()), name)  # expect SL002:warning
`,
      'api/dal/__init__.py': '',
      'api/dal/events_dal.py': `import boto3

_table = boto3.resource("dynamodb").Table("events")


def put_event(pk, sk, name):
    _table.put_item(Item={"pk": pk, "sk": sk, "name": name})
`,
    },
  },
];

import type { Case } from '../case';

/**
 * Layered data access that is fine: entity ids through every layer, sample values in
 * tests, seeds and one-off scripts, sharded keys read back in full, and look-alike
 * names in unrelated services. None of these should produce a finding.
 */
export const cases: Case[] = [
  {
    name: 'NestJS controller → service → repository with a path id',
    files: {
      'package.json': '{ "name": "profiles" }\n',
      'src/users/users.repository.ts': `import { Injectable } from "@nestjs/common";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";

@Injectable()
export class UsersRepository {
  private readonly doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  private readonly table = process.env.USERS_TABLE;

  async get(pk: string, sk: string) {
    const out = await this.doc.send(new GetCommand({ TableName: this.table, Key: { pk, sk } }));
    return out.Item;
  }

  async put(pk: string, sk: string, data: Record<string, unknown>) {
    await this.doc.send(new PutCommand({ TableName: this.table, Item: { pk, sk, ...data } }));
  }
}
`,
      'src/users/users.service.ts': `import { Injectable } from "@nestjs/common";
import { UsersRepository } from "./users.repository";

@Injectable()
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

  profile(userId: string) {
    return this.users.get(\`USER#\${userId}\`, "PROFILE");
  }

  rename(userId: string, name: string) {
    return this.users.put(\`USER#\${userId}\`, "PROFILE", { name });
  }
}
`,
      'src/users/users.controller.ts': `import { Body, Controller, Get, Param, Patch } from "@nestjs/common";
import { UsersService } from "./users.service";

@Controller("users")
export class UsersController {
  constructor(private readonly service: UsersService) {}

  @Get(":id")
  get(@Param("id") id: string) {
    return this.service.profile(id);
  }

  @Patch(":id")
  rename(@Param("id") id: string, @Body() body: { name: string }) {
    return this.service.rename(id, body.name);
  }
}
`,
    },
  },
  {
    name: 'jest test driving a service with a sample tenant; the handler passes the caller tenant',
    files: {
      'package.json': '{ "name": "tenants" }\n',
      'src/orders-repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }),
);

export class OrdersRepository {
  async byTenant(pk: string) {
    const out = await doc.send(
      new QueryCommand({
        TableName: process.env.ORDERS_TABLE,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": pk },
      }),
    );
    return out.Items ?? [];
  }
}
`,
      'src/orders-service.ts': `import { OrdersRepository } from "./orders-repository";

export class OrdersService {
  constructor(private readonly repo = new OrdersRepository()) {}

  listFor(tenantId: string) {
    return this.repo.byTenant(\`TENANT#\${tenantId}\`);
  }
}
`,
      'src/handler.ts': `import { OrdersService } from "./orders-service";

const service = new OrdersService();

export const handler = async (event: { requestContext: { authorizer: { tenantId: string } } }) => {
  const items = await service.listFor(event.requestContext.authorizer.tenantId);
  return { statusCode: 200, body: JSON.stringify(items) };
};
`,
      'test/orders-service.test.ts': `import { OrdersRepository } from "../src/orders-repository";
import { OrdersService } from "../src/orders-service";

describe("OrdersService", () => {
  it("lists a tenant's orders", async () => {
    const repo = new OrdersRepository();
    const direct = await repo.byTenant("TENANT#acme");
    const viaService = await new OrdersService(repo).listFor("acme");
    expect(viaService).toEqual(direct);
  });
});
`,
    },
  },
  {
    name: 'pytest and conftest calling a Python repository with sample ids',
    files: {
      'requirements.txt': 'boto3\npytest\nmoto\n',
      'app/__init__.py': '',
      'app/repository.py': `import boto3


class InvoiceRepository:
    def __init__(self, table_name):
        self.table = boto3.resource("dynamodb").Table(table_name)

    def save(self, invoice_id, total):
        self.table.put_item(Item={"pk": f"INVOICE#{invoice_id}", "sk": "META", "total": total})

    def get(self, invoice_id):
        return self.table.get_item(Key={"pk": f"INVOICE#{invoice_id}", "sk": "META"}).get("Item")
`,
      'app/api.py': `import os

from app.repository import InvoiceRepository

repo = InvoiceRepository(os.environ["INVOICES_TABLE"])


def get_invoice(event, context):
    return repo.get(event["pathParameters"]["invoice_id"])
`,
      'tests/conftest.py': `import boto3
import pytest
from moto import mock_aws

from app.repository import InvoiceRepository


@pytest.fixture
def repo():
    with mock_aws():
        boto3.client("dynamodb", region_name="us-east-1").create_table(
            TableName="invoices",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        r = InvoiceRepository("invoices")
        r.save("INV-0001", 100)
        yield r
`,
      'tests/test_repository.py': `def test_get(repo):
    assert repo.get("INV-0001")["total"] == 100


def test_missing(repo):
    assert repo.get("INV-404") is None
`,
    },
  },
  {
    name: 'seed and backfill scripts writing sample and marker items through the app repository',
    files: {
      'package.json': '{ "name": "catalog-admin" }\n',
      'src/product-repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class ProductRepository {
  async put(pk: string, sk: string, data: Record<string, unknown> = {}) {
    await doc.send(new PutCommand({ TableName: process.env.PRODUCTS_TABLE, Item: { pk, sk, ...data } }));
  }
}

export const productRepository = new ProductRepository();
`,
      'src/handlers/create.ts': `import { randomUUID } from "node:crypto";
import { productRepository } from "../product-repository";

export const handler = async (event: { body: string }) => {
  const id = randomUUID();
  await productRepository.put(\`PRODUCT#\${id}\`, "META", JSON.parse(event.body));
  return { statusCode: 201, body: id };
};
`,
      'scripts/seed.ts': `import { productRepository } from "../src/product-repository";

async function main() {
  for (let i = 1; i <= 20; i++) {
    await productRepository.put(\`PRODUCT#\${i}\`, "META", { name: \`Sample \${i}\` });
  }
  await productRepository.put("PRODUCT#featured", "META", { name: "Lamp" });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`,
      'scripts/backfill-2024-06.ts': `import { productRepository } from "../src/product-repository";

async function main() {
  await productRepository.put("MIGRATION#2024_06", "DONE", { at: new Date().toISOString() });
}

main();
`,
    },
  },
  {
    name: 'monorepo: two services each with its own Repository class; the cache one is not DynamoDB',
    files: {
      'services/billing/package.json': '{ "name": "billing" }\n',
      'services/billing/src/repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class Repository {
  async save(key: string, data: Record<string, unknown>) {
    await doc.send(new PutCommand({ TableName: process.env.BILLING_TABLE, Item: { pk: key, ...data } }));
  }
}
`,
      'services/billing/src/invoices.ts': `import { Repository } from "./repository";

const repo = new Repository();

export async function issue(invoice: { id: string; total: number }) {
  await repo.save(\`INVOICE#\${invoice.id}\`, { total: invoice.total });
}
`,
      'services/cache/package.json': '{ "name": "cache" }\n',
      'services/cache/src/repository.ts': `export class Repository {
  private readonly entries = new Map<string, unknown>();

  async save(key: string, data: unknown) {
    this.entries.set(key, data);
  }
}
`,
      'services/cache/src/warm.ts': `import { Repository } from "./repository";

const repo = new Repository();

export async function warm(config: unknown) {
  await repo.save("CACHE#global", config);
}
`,
    },
  },
  {
    name: 'FastAPI route with Depends() returning a dataclass repository; path ids only',
    files: {
      'requirements.txt': 'boto3\nfastapi\n',
      'svc/__init__.py': '',
      'svc/repository.py': `import os
from dataclasses import dataclass

import boto3
from boto3.dynamodb.conditions import Key


@dataclass
class DeviceRepository:
    table_name: str = os.environ.get("DEVICES_TABLE", "devices")

    @property
    def table(self):
        return boto3.resource("dynamodb").Table(self.table_name)

    def readings(self, device_id, limit=50):
        return self.table.query(
            KeyConditionExpression=Key("pk").eq(f"DEVICE#{device_id}"),
            ScanIndexForward=False,
            Limit=limit,
        )["Items"]


def get_repository():
    return DeviceRepository()
`,
      'svc/main.py': `from fastapi import Depends, FastAPI

from svc.repository import DeviceRepository, get_repository

app = FastAPI()


@app.get("/devices/{device_id}/readings")
def readings(device_id: str, repo: DeviceRepository = Depends(get_repository)):
    return repo.readings(device_id)
`,
    },
  },
  {
    name: 'sharded feed: writer and paginated scatter-gather reader share the shard count via config',
    files: {
      'package.json': '{ "name": "feed-sharded" }\n',
      'src/config.ts': `export const FEED_SHARDS = 10;
`,
      'src/feed-repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = "feed";

export async function putEntry(pk: string, sk: string, body: string) {
  await doc.send(new PutCommand({ TableName: TABLE, Item: { pk, sk, body } }));
}

export async function queryPage(pk: string, startKey?: Record<string, unknown>) {
  return doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": pk },
      ExclusiveStartKey: startKey,
    }),
  );
}
`,
      'src/feed-service.ts': `import { randomUUID } from "node:crypto";
import { FEED_SHARDS } from "./config";
import { putEntry, queryPage } from "./feed-repository";

export async function post(body: string) {
  const shard = Math.floor(Math.random() * FEED_SHARDS);
  await putEntry(\`FEED#global#\${shard}\`, randomUUID(), body);
}

export async function readAll() {
  const items: Record<string, unknown>[] = [];
  for (let shard = 0; shard < FEED_SHARDS; shard++) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await queryPage(\`FEED#global#\${shard}\`, startKey);
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return items;
}
`,
    },
  },
  {
    name: 'CDK-defined GSI written with the user email through a service',
    files: {
      'package.json': '{ "name": "accounts" }\n',
      'infra/accounts-stack.ts': `import { Stack, StackProps } from "aws-cdk-lib";
import { AttributeType, BillingMode, TableV2 } from "aws-cdk-lib/aws-dynamodb";
import { Construct } from "constructs";

export class AccountsStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const table = new TableV2(this, "Accounts", {
      tableName: "accounts",
      partitionKey: { name: "PK", type: AttributeType.STRING },
      sortKey: { name: "SK", type: AttributeType.STRING },
      billing: BillingMode.PAY_PER_REQUEST as never,
    });
    table.addGlobalSecondaryIndex({
      indexName: "GSI1",
      partitionKey: { name: "GSI1PK", type: AttributeType.STRING },
      sortKey: { name: "GSI1SK", type: AttributeType.STRING },
    });
  }
}
`,
      'src/account-repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function saveAccount(accountId: string, lookup: string, data: Record<string, unknown>) {
  await doc.send(
    new PutCommand({
      TableName: "accounts",
      Item: { PK: \`ACCOUNT#\${accountId}\`, SK: "META", GSI1PK: lookup, GSI1SK: "ACCOUNT", ...data },
    }),
  );
}
`,
      'src/account-service.ts': `import { saveAccount } from "./account-repository";

export async function register(account: { id: string; email: string; name: string }) {
  await saveAccount(account.id, \`EMAIL#\${account.email.toLowerCase()}\`, { name: account.name });
}
`,
    },
  },
  {
    name: 'Python partial binding a table; layered callers pass the tenant and a uuid',
    files: {
      'requirements.txt': 'boto3\n',
      'common/__init__.py': '',
      'common/dynamo.py': `import boto3

_ddb = boto3.resource("dynamodb")


def put(table_name, pk, sk, **attrs):
    _ddb.Table(table_name).put_item(Item={"pk": pk, "sk": sk, **attrs})
`,
      'notes/__init__.py': '',
      'notes/service.py': `import uuid
from functools import partial

from common.dynamo import put

save_note = partial(put, "notes")


def add_note(tenant_id, text):
    save_note(f"TENANT#{tenant_id}", str(uuid.uuid4()), text=text)
`,
      'notes/handler.py': `import json

from notes.service import add_note


def lambda_handler(event, context):
    tenant_id = event["requestContext"]["authorizer"]["tenant_id"]
    add_note(tenant_id, json.loads(event["body"])["text"])
    return {"statusCode": 201}
`,
    },
  },
];

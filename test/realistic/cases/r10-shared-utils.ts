import type { Case } from '../case';

/**
 * A shared data-access module that takes whole requests: `fetchAll(params)` pages a v2
 * DocumentClient query, `getItem(params)` returns one item. Callers build the request
 * themselves (often from a constants module) and import the helper through a barrel and
 * a tsconfig path alias. The key is chosen at the caller, so that is where it is judged.
 */
export const cases: Case[] = [
  {
    name: 'whole-request v2 helpers behind a barrel and a path alias, keys from a constants module (TS)',
    files: {
      'package.json': '{ "name": "listings-api" }\n',
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@utils/*": ["src/utils/*"] } } }\n',
      'src/utils/db/client.ts': `import { DocumentClient } from "aws-sdk/clients/dynamodb";

let client: DocumentClient | undefined;
export const sharedClient = () => (client ??= new DocumentClient({ convertEmptyValues: true }));
`,
      'src/utils/db/paging.ts': `import { DocumentClient } from "aws-sdk/clients/dynamodb";

const makeClient = () => new DocumentClient();

/** Every page of a query, in one array. */
export const fetchAll = async (params: DocumentClient.QueryInput) => {
  const docClient = makeClient();
  const items: DocumentClient.AttributeMap[] = [];
  let page;
  do {
    page = await docClient.query(params).promise();
    items.push(...(page.Items ?? []));
    params.ExclusiveStartKey = page.LastEvaluatedKey;
  } while (page.LastEvaluatedKey);
  return items;
};
`,
      'src/utils/db/items.ts': `import { DocumentClient } from "aws-sdk/clients/dynamodb";
import { sharedClient } from "./client";

export async function getOne(params: DocumentClient.GetItemInput) {
  const dynamo = sharedClient();
  const out = await dynamo.get(params).promise();
  return out.Item;
}
`,
      'src/utils/index.ts': `export * from "./db/items";
export * from "./db/paging";
`,
      'src/constants/prefixes.ts': `export const Prefix = {
  LISTING: "LISTING#",
  ACTIVE_LISTINGS: "ACTIVE#",
};

export const LISTINGS_TABLE = process.env.LISTINGS_TABLE || "listings";
`,
      'src/listings/listings.repository.ts': `import { fetchAll, getOne } from "@utils/index";
import { LISTINGS_TABLE, Prefix } from "../constants/prefixes";

export async function activeListings(limit?: number) {
  const params = {
    TableName: LISTINGS_TABLE,
    IndexName: "gsi1",
    KeyConditionExpression: "#pk = :pk",
    ExpressionAttributeNames: { "#pk": "gsi1pk" },
    ExpressionAttributeValues: { ":pk": Prefix.ACTIVE_LISTINGS }, // expect SL001:error
  };
  if (limit) params["Limit"] = limit;
  return fetchAll(params);
}

export async function listingsOf(sellerId: string) {
  return fetchAll({
    TableName: LISTINGS_TABLE,
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": \`SELLER#\${sellerId}\` },
  });
}

export async function listing(listingId: string) {
  return getOne({ TableName: LISTINGS_TABLE, Key: { pk: Prefix.LISTING + listingId, sk: "META" } });
}
`,
      'src/listings/listings.controller.ts': `import { activeListings, listing, listingsOf } from "./listings.repository";

export const handler = async (event: { path: string; id?: string; seller?: string }) => {
  if (event.id) return listing(event.id);
  if (event.seller) return listingsOf(event.seller);
  return activeListings(20);
};
`,
    },
  },
  {
    name: 'CommonJS whole-request helper on a low-level client made by a factory (JS)',
    files: {
      'package.json': '{ "name": "status-board" }\n',
      'lib/dynamo.js': `const AWS = require("aws-sdk");

function dynamoClient() {
  return new AWS.DynamoDB({ apiVersion: "2012-08-10" });
}

module.exports.queryAll = async (params) => {
  const db = dynamoClient();
  const res = await db.query(params).promise();
  return res.Items;
};
`,
      'handlers/board.js': `const { queryAll } = require("../lib/dynamo");

exports.handler = async () => {
  const items = await queryAll({
    TableName: process.env.BOARD_TABLE,
    KeyConditionExpression: "board = :b",
    ExpressionAttributeValues: { ":b": { S: "GLOBAL" } }, // expect SL001:error
  });
  return { statusCode: 200, body: JSON.stringify(items) };
};
`,
    },
  },
];

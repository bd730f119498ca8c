import { ruleTester } from './tester';

// SL021 tenant-shard-no-override: a tenant routed by a hash of its id, with no lookup first.
ruleTester('SL021', {
  valid: [
    {
      name: 'TypeScript: a map of dedicated tenants read before the hash',
      files: {
        'src/db/tenant-router.ts': `import { createHash } from 'node:crypto';
import type { Pool } from 'pg';

export class TenantRouter {
  constructor(
    private readonly shared: Pool[],
    private readonly dedicated: ReadonlyMap<string, Pool>,
  ) {}

  poolFor(tenantId: string): Pool {
    const own = this.dedicated.get(tenantId);
    if (own) return own;
    const digest = createHash('sha256').update(tenantId).digest();
    return this.shared[digest.readUInt32BE(0) % this.shared.length];
  }
}
`,
      },
    },
    {
      name: 'JavaScript: a set of pinned tenants, an equality check, and a nullish override',
      files: {
        'lib/placement.js': `'use strict';
const crc32 = require('crc-32');

const PINNED_TENANTS = new Set(['northwind', 'contoso']);
const CLUSTER_OVERRIDES = { globex: 'eu-2' };

function clusterFor(tenantId, clusters) {
  if (PINNED_TENANTS.has(tenantId)) return 'dedicated-' + tenantId;
  return clusters[Math.abs(crc32.str(tenantId)) % clusters.length];
}

function cellFor(orgId, cells) {
  if (orgId === 'initech') return 'cell-initech';
  return cells[Math.abs(crc32.str(orgId)) % cells.length];
}

const regionFor = (accountId, regions) =>
  CLUSTER_OVERRIDES[accountId] ?? regions[Math.abs(crc32.str(String(accountId))) % regions.length];

module.exports = { clusterFor, cellFor, regionFor };
`,
      },
    },
    {
      name: 'Python: a dict of dedicated tenants, and a lookup with `in`',
      files: {
        'app/sharding.py': `import hashlib

NUM_SHARDS = 32
DEDICATED = {"acme": 32, "megacorp": 33}


def shard_for_tenant(tenant_id: str) -> int:
    if tenant_id in DEDICATED:
        return DEDICATED[tenant_id]
    return int(hashlib.md5(tenant_id.encode()).hexdigest(), 16) % NUM_SHARDS


def shard_for_org(org_id):
    pinned = DEDICATED.get(org_id)
    if pinned is not None:
        return pinned
    return int(hashlib.md5(org_id.encode()).hexdigest(), 16) % NUM_SHARDS
`,
      },
    },
    {
      name: 'a user or order id hashed: high cardinality, no tenant',
      files: {
        'src/shards.ts': `import murmur from 'murmurhash';

const NUM_SHARDS = 64;

export function shardForUser(userId: string): number {
  return murmur.v3(userId) % NUM_SHARDS;
}

export function partitionForOrder(order: { id: string; tenantId: string }): number {
  return murmur.v3(order.id) % NUM_SHARDS;
}
`,
        'worker/queues.py': `import zlib

QUEUES = ["jobs-0", "jobs-1", "jobs-2", "jobs-3"]


def queue_for(job):
    return QUEUES[zlib.crc32(job.job_id.encode()) % len(QUEUES)]
`,
      },
    },
    {
      name: 'a checksum and a rollout bucket are not routes',
      files: {
        'src/flags.ts': `import { createHash } from 'node:crypto';

export function inRollout(tenantId: string, percent: number): boolean {
  return parseInt(createHash('md5').update(tenantId).digest('hex').slice(0, 8), 16) % 100 < percent;
}

export function etagOf(tenantId: string, body: string): string {
  const checksum = parseInt(createHash('md5').update(tenantId).digest('hex').slice(0, 8), 16) % 65536;
  return \`\${checksum}-\${body.length}\`;
}
`,
        'billing/sample.py': `import mmh3


def sampled(account_id, rate):
    bucket = mmh3.hash(account_id) % 1000
    return bucket < rate * 1000
`,
      },
    },
    {
      name: "a write shard: a helper's FNV hash of the org id, modulo the shard count, is the suffix of the key it writes",
      files: {
        'src/lib/fnv.ts': `/** 32-bit FNV-1a: a stable hash of a string, the same in every process. */
export function fnv1a32(input: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    hash ^= input.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
`,
        'src/activity/activity-feed.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { fnv1a32 } from '../lib/fnv';

/** Partition keys each org's activity is spread over: one org can post thousands of events a second. */
const FEED_PARTITIONS = 10;

const feedPartitionOf = (orgId: string) => fnv1a32(orgId) % FEED_PARTITIONS;

export async function appendActivity(doc: DynamoDBDocumentClient, orgId: string, eventId: string, body: object) {
  await doc.send(
    new PutCommand({
      TableName: process.env.ACTIVITY_TABLE,
      Item: { pk: \`ACTIVITY#\${orgId}#\${feedPartitionOf(orgId)}\`, sk: eventId, ...body },
    }),
  );
}

export async function appendAudit(doc: DynamoDBDocumentClient, orgId: string, auditId: string) {
  await doc.send(
    new PutCommand({
      TableName: process.env.ACTIVITY_TABLE,
      Item: { pk: \`AUDIT#\${fnv1a32(orgId) % FEED_PARTITIONS}\`, sk: \`\${orgId}#\${auditId}\` },
    }),
  );
}
`,
      },
    },
    {
      name: 'a write shard whose helper sits in a keys module of its own, imported by the repository',
      files: {
        'src/keys/partition.ts': `import { createHash } from 'node:crypto';

export const INVOICE_PARTITIONS = 16;

export function invoicePartition(accountId: string): number {
  return parseInt(createHash('md5').update(accountId).digest('hex').slice(0, 8), 16) % INVOICE_PARTITIONS;
}
`,
        'src/invoices/repository.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { invoicePartition } from '../keys/partition';

export async function saveInvoice(doc: DynamoDBDocumentClient, accountId: string, invoiceId: string, totalCents: number) {
  await doc.send(
    new PutCommand({
      TableName: 'invoices',
      Item: { pk: \`INVOICES#\${accountId}#\${invoicePartition(accountId)}\`, sk: invoiceId, totalCents },
    }),
  );
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'TypeScript: createHash digest read as a number, by a count named for shards',
      files: {
        'src/tenancy/shard.ts': `import { createHash } from 'node:crypto';

const NUM_SHARDS = Number(process.env.NUM_SHARDS ?? 16);

/** The shard a tenant's rows live in. */
export function shardFor(tenantId: string): number {
  const digest = createHash('md5').update(tenantId).digest();
  return digest.readUInt32BE(0) % NUM_SHARDS;
}
`,
      },
      errors: [{ line: 8, severity: 'info', messageId: 'noOverride' }],
    },
    {
      name: 'JavaScript: a pool picked by an fnv hash of tenant.id, and a hashed org slug indexing clusters',
      files: {
        'lib/router.js': `const fnv = require('fnv-plus');

class Router {
  constructor(pools, clusters) {
    this.pools = pools;
    this.clusters = clusters;
  }

  poolFor(tenant) {
    return this.pools[parseInt(fnv.hash(tenant.id, 32).hex(), 16) % this.pools.length];
  }

  clusterFor(req) {
    const idx = fnv.hash(\`\${req.params.orgSlug}\`).value % this.clusters.length;
    return this.clusters[idx];
  }
}

module.exports = { Router };
`,
      },
      errors: [
        { line: 10, severity: 'info' },
        { line: 14, severity: 'info' },
      ],
    },
    {
      name: 'Python: md5 hexdigest, zlib.crc32 and mmh3 on account and customer ids',
      files: {
        'svc/routing.py': `import hashlib
import zlib

import mmh3

NUM_PARTITIONS = 12
CLUSTERS = ["pg-a", "pg-b", "pg-c"]


def partition_for(account_id: str) -> int:
    return int(hashlib.md5(account_id.encode("utf-8")).hexdigest(), 16) % NUM_PARTITIONS


def cluster_for(customer):
    return CLUSTERS[zlib.crc32(customer.id.encode()) % len(CLUSTERS)]


class TableRouter:
    def __init__(self, tables):
        self.tables = tables

    def table_for(self, workspace_id):
        shard = mmh3.hash(str(workspace_id), signed=False) % len(self.tables)
        return self.tables[shard]
`,
      },
      errors: [
        { line: 11, severity: 'info' },
        { line: 15, severity: 'info' },
        { line: 23, severity: 'info' },
      ],
    },
    {
      name: 'TypeScript: a hash module function, and a private hash method over a map of shards',
      files: {
        'src/routing/shards.ts': `import murmurhash from 'murmurhash';
import type { Pool } from 'pg';

const NUM_SHARDS = 8;

export const shardOf = (workspaceId: string): number => murmurhash.v3(workspaceId) % NUM_SHARDS;

export class ShardDirectory {
  private readonly shards = new Map<string, Pool>();

  poolFor(customerId: string): Pool | undefined {
    const n = this.hashCode(customerId) % this.shards.size;
    return this.shards.get(\`shard-\${n}\`);
  }

  private hashCode(s: string): number {
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
    return Math.abs(h);
  }
}
`,
      },
      errors: [
        { line: 6, severity: 'info' },
        { line: 12, severity: 'info' },
      ],
    },
    {
      name: 'a hash written out as a loop over the tenant id, in JavaScript and Python',
      files: {
        'src/cells.js': `const CELLS = ['cell-a', 'cell-b', 'cell-c', 'cell-d'];

export function cellForTenant(tenantId) {
  let hash = 0;
  for (let i = 0; i < tenantId.length; i++) {
    hash = (hash << 5) - hash + tenantId.charCodeAt(i);
    hash |= 0;
  }
  return CELLS[Math.abs(hash) % CELLS.length];
}

export function cellForSession(sessionId) {
  let hash = 0;
  for (const c of sessionId) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return CELLS[hash % CELLS.length];
}
`,
        'svc/shards.py': `SHARD_COUNT = 16


def shard_for_org(org_id: str) -> int:
    h = 0
    for ch in org_id:
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    return h % SHARD_COUNT
`,
      },
      errors: [
        { line: 9, severity: 'info' },
        { file: 'svc/shards.py', line: 8, severity: 'info' },
      ],
    },
    {
      name: 'a lookup of another tenant before the hash is no override',
      files: {
        'src/db.ts': `import { hash } from './hash';

const DEDICATED = new Map<string, number>([['acme', 16]]);

export function shardIndex(tenantId: string, parentOrgId: string): number {
  if (DEDICATED.has(parentOrgId)) return DEDICATED.get(parentOrgId)!;
  return hash(tenantId) % 16;
}
`,
        'src/hash.ts': `export function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return Math.abs(h);
}
`,
      },
      errors: [{ line: 7, severity: 'info' }],
    },
    {
      name: 'a commerce platform: shops routed to database pools by a hash of the shop and of the merchant',
      files: {
        'src/platform/pools.ts': `import { Pool } from 'pg';
import { murmur3 } from 'murmurhash-js';

const SHOP_POOLS: Pool[] = (process.env.SHOP_DATABASE_URLS ?? '').split(',').map((url) => new Pool({ connectionString: url }));

/** \`shop\` is the store's myshopify domain, as the app's session carries it. */
export function poolForShop(shop: string): Pool {
  return SHOP_POOLS[murmur3(shop) % SHOP_POOLS.length];
}

export function ledgerShardOf(payout: { merchantUid: string; amountCents: number }): number {
  return murmur3(payout.merchantUid) % 16;
}
`,
      },
      errors: [
        { line: 8, severity: 'info' },
        { line: 12, severity: 'info' },
      ],
    },
    {
      name: 'the same FNV helper sending each tenant to its database cluster: a route',
      files: {
        'src/lib/fnv.ts': `/** 32-bit FNV-1a: a stable hash of a string, the same in every process. */
export function fnv1a32(input: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    hash ^= input.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
`,
        'src/db/cluster-for-tenant.ts': `import { fnv1a32 } from '../lib/fnv';

const CLUSTER_URLS = (process.env.TENANT_CLUSTER_URLS ?? '').split(',');

export function clusterUrlFor(tenantId: string): string {
  return CLUSTER_URLS[fnv1a32(tenantId) % CLUSTER_URLS.length];
}
`,
      },
      errors: [{ file: 'src/db/cluster-for-tenant.ts', line: 6, severity: 'info' }],
    },
    {
      name: 'in a test: still a note',
      files: {
        'test/shard.test.ts': `import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { xxh32 } from '@node-rs/xxhash';

const shardOf = (tenantId: string) => xxh32(tenantId) % 8;

test('tenants spread', () => {
  assert.ok(shardOf('a') < 8);
});
`,
      },
      errors: [{ line: 5, severity: 'info' }],
    },
  ],
});

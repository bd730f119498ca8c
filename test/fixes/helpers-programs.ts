// Programs run before and after a shard fix: each is a fixture folder, the table it
// needs, the hot write the fix is asked on and a driver that calls the fixture as an
// application would and prints what it read back. A fix must keep what the program
// stores (apart from the key) and what every read returns, in order.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  ScanCommand,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { initParsers } from '../../server/src/engine/syntax/parser';
import type { Finding } from '../../server/src/engine/model';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { startTestLab } from '../lab/helpers';
import {
  applyAction,
  cleanup,
  copyFixture,
  findingIds,
  pythonErrors,
  runDriverAt,
  startDynalite,
  typeErrors,
} from './helpers-write';

const SHARD_FIXES = ['add-random-shard', 'add-hash-shard'];

export interface Program {
  fixture: string;
  table: CreateTableCommandInput;
  /** The attribute whose stored values the fix spreads. */
  key: string;
  /** The hot write the fixes are asked on: its rule and operation. */
  writer: { rule: string; operation: string };
  /** The shard fixes offered on it; every other is not. */
  offered: string[];
  /** TypeScript (run by tsx, so it may require JavaScript) or Python, run in the fixture's folder. */
  language?: 'node' | 'python';
  /** Drives the program and prints what it read back as JSON. */
  drive: string;
  /** The server it runs against: dynalite, or the lab where dynalite lacks an operation (TransactWriteItems). */
  server?: 'dynalite' | 'lab';
}

/** A table with a partition key (a String unless its type is given) and an optional sort key. */
export function table(name: string, pk: string | KeyAttribute, sk: KeyAttribute | null): CreateTableCommandInput {
  const [hash, type] = typeof pk === 'string' ? [pk, 'S' as const] : pk;
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: hash, AttributeType: type },
      ...(sk ? [{ AttributeName: sk[0], AttributeType: sk[1] }] : []),
    ],
    KeySchema: [
      { AttributeName: hash, KeyType: 'HASH' },
      ...(sk ? [{ AttributeName: sk[0], KeyType: 'RANGE' as const }] : []),
    ],
  };
}

type KeyAttribute = [string, 'S' | 'N'];

/** `base` with one more global index, every attribute projected; key attributes are declared once. */
export function withIndex(
  base: CreateTableCommandInput,
  name: string,
  hash: KeyAttribute,
  range: KeyAttribute | null,
): CreateTableCommandInput {
  const declared = base.AttributeDefinitions ?? [];
  const added = [hash, ...(range ? [range] : [])].filter(([a]) => !declared.some((d) => d.AttributeName === a));
  return {
    ...base,
    AttributeDefinitions: [...declared, ...added.map(([a, t]) => ({ AttributeName: a, AttributeType: t }))],
    GlobalSecondaryIndexes: [
      ...(base.GlobalSecondaryIndexes ?? []),
      {
        IndexName: name,
        KeySchema: [
          { AttributeName: hash[0], KeyType: 'HASH' },
          ...(range ? [{ AttributeName: range[0], KeyType: 'RANGE' as const }] : []),
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
}

/** Tickets by id with status-index (status, openedAt), the shape several fixtures share. */
export const ticketsTable = (id: string) =>
  withIndex(table('tickets', id, null), 'status-index', ['status', 'S'], ['openedAt', 'S']);

/** The folder indexed as `shardlens check` would, with its templates read. */
export async function indexed(root: string) {
  await initParsers();
  const index = new WorkspaceIndex({ root });
  const files = fs.readdirSync(root).map((f) => path.join(root, f));
  index.readInfrastructure(files.filter((f) => f.endsWith('.yaml')));
  index.analyzeAll(files.filter((f) => /\.(ts|js|py)$/.test(f)));
  return { ctx: fixContextOf(index), findings: index.results().flatMap((r) => r.findings) };
}

export const hotWriter = (p: Program, findings: Finding[]) =>
  findings.find((f) => f.rule === p.writer.rule && f.access.operation === p.writer.operation);

/** What a program read or stored, without the attribute a fix changes (its value is all that may differ). */
export const withoutKey = (value: unknown, key: string): unknown => {
  if (Array.isArray(value)) return value.map((v) => withoutKey(v, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== key)
        .map(([k, v]) => [k, withoutKey(v, key)]),
    );
  return value;
};

export interface Run {
  read: unknown;
  /** The stored items without the key, as DynamoDB holds them (types included), sorted. */
  stored: string[];
  keys: string[];
}

/**
 * Runs a driver in `dir` against a fresh table of dynalite (or of the lab): Python with the folder on its
 * path, or TypeScript run by tsx from the repository (so it may import the SDK). Returns
 * what it printed and every stored item, as DynamoDB holds them.
 */
export async function runDriver(
  table: CreateTableCommandInput,
  language: 'node' | 'python',
  drive: string,
  dir: string,
  server: 'dynalite' | 'lab' = 'dynalite',
): Promise<{ stdout: string; items: NonNullable<ScanCommandOutput['Items']> }> {
  const db =
    server === 'lab'
      ? await startTestLab().then((l) => ({ endpoint: l.lab.url, client: l.ddb, close: () => l.close() }))
      : await startDynalite();
  try {
    await db.client.send(new CreateTableCommand(table));
    const stdout = await runDriverAt(db.endpoint, dir, language, drive, {
      TABLE_NAME: String(table.TableName),
      TICKETS_TABLE: 'tickets',
    });
    const items: NonNullable<ScanCommandOutput['Items']> = [];
    let start: ScanCommandOutput['LastEvaluatedKey'];
    do {
      const page = await db.client.send(new ScanCommand({ TableName: table.TableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return { stdout, items };
  } finally {
    await db.close();
  }
}

async function runProgram(p: Program, dir: string): Promise<Run> {
  const { stdout, items } = await runDriver(p.table, p.language ?? 'node', p.drive, dir, p.server);
  return {
    read: withoutKey(JSON.parse(stdout), p.key),
    stored: items.map((i) => JSON.stringify(withoutKey(i, p.key))).sort(),
    keys: items.map((i) => String(unmarshall(i)[p.key])),
  };
}

/**
 * Runs the program before and after each offered shard fix: the same items and reads, the
 * key spread. Returns the run before any fix.
 */
export async function checkProgram(p: Program, fixtures: string): Promise<Run> {
  const errors = (dir: string) => (p.language === 'python' ? pythonErrors(dir) : typeErrors(dir));
  const dir = copyFixture(p.fixture, fixtures);
  let before: Run;
  try {
    assert.deepEqual(errors(dir), [], 'the fixture type-checks or compiles');
    const { ctx, findings } = await indexed(dir);
    const writer = hotWriter(p, findings);
    assert.ok(writer, `${p.writer.rule} on the ${p.writer.operation}: ${findingIds(findings).join(', ')}`);
    const offered = allFixes(writer, ctx)
      .map((a) => a.id)
      .filter((id) => SHARD_FIXES.includes(id));
    assert.deepEqual(offered.sort(), [...p.offered].sort());
    before = await runProgram(p, dir);
    assert.ok(before.stored.length > 0, 'the program stored items');
    assert.ok(new Set(before.keys).size <= 2, 'one or two keys before');
  } finally {
    cleanup(dir);
  }
  for (const id of p.offered) {
    const copy = copyFixture(p.fixture, fixtures);
    try {
      const { ctx, findings } = await indexed(copy);
      const fix = allFixes(hotWriter(p, findings)!, ctx).find((a) => a.id === id)!;
      applyAction(ctx, fix);
      assert.deepEqual(errors(copy), [], `${id}: the fixed program type-checks or compiles`);
      const fixed = await indexed(copy);
      const was = new Set(findingIds(findings));
      assert.deepEqual(
        findingIds(fixed.findings).filter((f) => !was.has(f)),
        [],
        `${id}: no new finding`,
      );
      assert.equal(hotWriter(p, fixed.findings), undefined, `${id}: the hot write is fixed`);
      const after = await runProgram(p, copy);
      assert.deepEqual(after.stored, before.stored, `${id}: the same items, types included, apart from the key`);
      assert.deepEqual(after.read, before.read, `${id}: every read returns the same items in the same order`);
      assert.ok(
        new Set(after.keys).size > new Set(before.keys).size + 2,
        `${id}: the key is spread: ${[...new Set(after.keys)].join(', ')}`,
      );
      console.log(
        `# ${p.fixture} ${id}: ${after.stored.length} items on ${new Set(after.keys).size} keys (were ${new Set(before.keys).size})`,
      );
    } finally {
      cleanup(copy);
    }
  }
  return before;
}

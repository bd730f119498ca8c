// What the library front-end tests share: a fixture folder indexed as `shardlens check`
// indexes it, key templates as text, and the run of a fixture with the real library
// against dynalite, whose stored keys must be the templates the engine read.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { before } from 'node:test';
import {
  CreateTableCommand,
  ScanCommand,
  type AttributeValue,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  collectFiles,
  initParsers,
  WorkspaceIndex,
  type Access,
  type Finding,
  type KeyTemplate,
} from '../../server/src/engine';
import { table, withIndex } from '../fixes/helpers-programs';
import { startDynalite } from '../fixes/helpers-write';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'bin', 'shardlens.js');

export interface LibraryWorkspace {
  index: WorkspaceIndex;
  accesses: Access[];
  findings: Finding[];
}

/** Every file below `fixture` indexed as the CLI does. */
export async function readLibraryFixture(fixture: string): Promise<LibraryWorkspace> {
  await initParsers();
  const index = new WorkspaceIndex({ root: fixture });
  index.analyzeAll(collectFiles([fixture]).files);
  const results = index.results();
  return { index, accesses: results.flatMap((r) => r.accesses), findings: results.flatMap((r) => r.findings) };
}

/**
 * A library's fixture folder (test/fixtures/libraries/<name>) for the tests of one file:
 * its path, `rel` and `line` (`placesIn`), and its workspace read as the CLI reads it
 * (`readLibraryFixture`), filled in before the tests run.
 */
export function libraryFixture(name: string): LibraryWorkspace & { dir: string } & ReturnType<typeof placesIn> {
  const dir = path.join(ROOT, 'test', 'fixtures', 'libraries', name);
  const fixture = { dir, ...placesIn(dir) } as LibraryWorkspace & { dir: string } & ReturnType<typeof placesIn>;
  before(async () => {
    Object.assign(fixture, await readLibraryFixture(dir));
  });
  return fixture;
}

/** `rel` names a file below the fixture; `line` places a finding or an access as `dir/file.ts:12`. */
export function placesIn(fixture: string) {
  const rel = (f: string) => path.relative(fixture, f);
  const line = (f: Finding | Access) => `${rel(f.file)}:${f.span.startLine + 1}`;
  return { rel, line };
}

/** Literal text with each hole as `{}`. */
export function renderText(t: KeyTemplate): string {
  return t.parts.map((p) => ('literal' in p ? p.literal : '{}')).join('');
}

/** A stored key matches a template: its literal text in place, each hole some text. */
export function matchesTemplate(stored: string, t: KeyTemplate): boolean {
  const re = t.parts.map((p) => ('literal' in p ? p.literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '.+')).join('');
  return new RegExp(`^${re}$`).test(stored);
}

/** A table whose key attributes are all strings: its key, and each index as [name, hash, range]. */
export const stringKeyTable = (
  name: string,
  [pk, sk]: [string, string | null],
  indexes: Array<[string, string, string]>,
): CreateTableCommandInput =>
  indexes.reduce(
    (t, [index, hash, range]) => withIndex(t, index, [hash, 'S'], [range, 'S']),
    table(name, pk, sk ? [sk, 'S'] : null),
  );

export interface LibraryRun {
  /** Every item of the tables, unmarshalled, table by table. */
  stored: (...tables: string[]) => Promise<Record<string, unknown>[]>;
}

/**
 * Runs `fn` with dynalite up, its tables created and the process environment the
 * libraries read (endpoint, region, credentials, `env`); the environment is restored after.
 */
export async function withDynalite(
  tables: CreateTableCommandInput[],
  env: Record<string, string>,
  fn: (run: LibraryRun) => Promise<void>,
): Promise<void> {
  const db = await startDynalite();
  const saved = { ...process.env };
  try {
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: db.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      ...env,
    });
    for (const t of tables) await db.client.send(new CreateTableCommand(t));
    // Every page: a table of more than 1 MB comes back in several.
    const scan = async (table: string) => {
      const items: Record<string, unknown>[] = [];
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await db.client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
        items.push(...(page.Items ?? []).map((i) => unmarshall(i as Record<string, AttributeValue>)));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    };
    await fn({ stored: async (...names) => (await Promise.all(names.map(scan))).flat() });
  } finally {
    process.env = saved;
    await db.close();
  }
}

/** What `shardlens keys <dir> --match <key>` prints. */
export const keysMatch = (dir: string, key: string) =>
  execFileSync('node', [CLI, 'keys', dir, '--match', key], { encoding: 'utf8' });

/**
 * The stored value of a partition key attribute is the template of one of the writes
 * the engine read for it (a template without holes is the value itself), and
 * `shardlens keys --match` names the entity's logical key for it.
 */
export function assertStoredKey(
  item: Record<string, unknown>,
  field: string,
  entity: string,
  written: Access[],
  dir: string,
) {
  const value = item[field] as string;
  assert.ok(written.length > 0, `no write of ${entity}.${field}`);
  assert.ok(
    written.some((a) => matchesTemplate(value, a.partitionKey!.template)),
    `${entity}.${field} = ${value} matches none of ${written.map((a) => renderText(a.partitionKey!.template))}`,
  );
  for (const a of written) {
    const t = renderText(a.partitionKey!.template);
    if (!t.includes('{}') && matchesTemplate(value, a.partitionKey!.template)) assert.equal(t, value);
  }
  const out = keysMatch(dir, value);
  assert.match(out, new RegExp(`${entity} entity · `), `${value}:\n${out}`);
}

/** A request a library sent, as its SDK client saw it. */
export interface Sent {
  command: string;
  table: string;
  index: string | null;
  /** The key attributes and values the request keys on, or writes (every attribute of an item). */
  keys: Array<[string, string]>;
}

/** The operation each recorded command is. */
export const SENT_OPERATIONS: Record<string, string> = {
  PutItemCommand: 'PutItem',
  GetItemCommand: 'GetItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteItemCommand: 'DeleteItem',
  QueryCommand: 'Query',
};

/**
 * Records each command sent through `client`. At `build` (the default) a document client's
 * input is already marshalled; a library that marshals itself and sends on the plain
 * client (OneTable) is recorded at `initialize`, before the client touches the input.
 */
export function recordSent(client: DynamoDBClient, sent: Sent[], step: 'initialize' | 'build' = 'build') {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const plain = (o: unknown) => unmarshall((o ?? {}) as Record<string, AttributeValue>);
      const keys: Array<[string, string]> = [];
      if (input.Key) keys.push(...(Object.entries(plain(input.Key)) as Array<[string, string]>));
      if (input.Item) keys.push(...(Object.entries(plain(input.Item)) as Array<[string, string]>));
      if (typeof input.KeyConditionExpression === 'string') {
        const [, name, value] = /^\(?\s*(#\w+)\s*=\s*(:\w+)/.exec(input.KeyConditionExpression) ?? [];
        const names = input.ExpressionAttributeNames as Record<string, string>;
        keys.push([names[name], plain(input.ExpressionAttributeValues)[value] as string]);
      }
      sent.push({
        command: context.commandName as string,
        table: input.TableName as string,
        index: (input.IndexName as string) ?? null,
        keys,
      });
      return next(args);
    },
    { step, name: 'recordSent' },
  );
}

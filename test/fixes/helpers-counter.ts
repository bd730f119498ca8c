// What the counter fix tests share: the counter fixtures, the write fixes offered on a
// finding, a fresh table on dynalite and the items it holds after a run, a Node driver
// that calls an increment K times, and the checks every applied spread must pass.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { writeFixes } from '../../server/src/features/fixes/index';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';
import type { Finding } from '../../server/src/engine/model';
import { findingIds, fixtureCopier, pythonErrors, typeErrors, type Dynalite, type Workspace } from './helpers-write';

/** Fresh copies of test/fixes/fixtures/counter/<name>, removed after the file's tests. */
export const counterFixtures = () => fixtureCopier(path.join(__dirname, 'fixtures', 'counter'));

/** The write fixes' actions on one finding, in the order they are offered. */
export const actionsOn = (f: Finding, ctx: FixContext): FixAction[] => writeFixes.flatMap((p) => p(f, ctx));

/**
 * The table as `input` defines it, empty: an earlier one of the name is deleted first.
 * dynalite drops a deleted table's data in the background, so the name is free only once
 * DescribeTable no longer finds it; creating sooner fails with ResourceInUseException.
 */
export async function freshTable(db: Dynalite, input: CreateTableCommandInput): Promise<void> {
  await db.client.send(new DeleteTableCommand({ TableName: input.TableName })).catch(() => undefined);
  for (let tries = 0; tries < 200; tries++) {
    const gone = await db.client.send(new DescribeTableCommand({ TableName: input.TableName })).then(
      () => false,
      (e: Error) => e.name === 'ResourceNotFoundException',
    );
    if (gone) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await db.client.send(new CreateTableCommand(input));
}

/** Every item of a table, as plain objects. */
export async function itemsOf(db: Dynalite, table: string): Promise<Array<ReturnType<typeof unmarshall>>> {
  return ((await db.client.send(new ScanCommand({ TableName: table }))).Items ?? []).map((i) => unmarshall(i));
}

/** A Node driver's body: awaits `call` K times (K from the environment) and prints the results as JSON. */
export const nodeLoop = (call: string) => `(async () => {
  const out: number[] = [];
  for (let i = 0; i < Number(process.env.K); i++) out.push(${call});
  process.stdout.write(JSON.stringify(out));
})();`;

/**
 * A spread applied to `original`'s folder leaves every file parsing, no TypeScript error
 * that was not there before, Python that compiles, and none of the findings whose id
 * starts with one of `gone` nor any new one.
 */
export function assertSpreadClean(original: Workspace, fixed: Workspace, typeErrorsBefore: string[], gone: string[]) {
  for (const r of fixed.index.results()) assert.equal(r.syntaxErrors, false);
  assert.deepEqual(
    typeErrors(fixed.dir).filter((e) => !typeErrorsBefore.includes(e)),
    [],
  );
  assert.deepEqual(pythonErrors(fixed.dir), []);
  const known = new Set(findingIds(original.findings));
  assert.deepEqual(
    findingIds(fixed.findings).filter((f) => gone.some((g) => f.startsWith(g)) || !known.has(f)),
    [],
    `no ${gone.join(' or ')} finding left, nothing new`,
  );
}

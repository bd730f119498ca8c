/**
 * tRPC procedures are API entry points: a client calls each over HTTP, whichever adapter
 * serves the router. A mutation calling a data-layer function that bumps one counter item
 * makes that counter hot, named by the procedure's path in its file's routers; a
 * `.query(...)` that is no procedure (a database client's) is no entry point.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findingsOf } from './helpers';

const POLLS = [
  'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";',
  'import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";',
  '',
  'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
  '',
  'export async function countVote(pollId: string): Promise<void> {',
  '  await doc.send(',
  '    new UpdateCommand({',
  '      TableName: "polls",',
  '      Key: { pk: "VOTES_TOTAL" },',
  '      UpdateExpression: "ADD n :one",',
  '      ExpressionAttributeValues: { ":one": 1 },',
  '    }),',
  '  );',
  '}',
  '',
].join('\n');

const counterAt = 'src/server/polls.ts:10';

test('a mutation of a nested router reaches what it calls, named by its path', async () => {
  const router = [
    'import { z } from "zod";',
    'import { createTRPCRouter, publicProcedure } from "./trpc";',
    'import { countVote } from "./polls";',
    '',
    'export const appRouter = createTRPCRouter({',
    '  poll: createTRPCRouter({',
    '    vote: publicProcedure',
    '      .input(z.object({ pollId: z.string() }))',
    '      .mutation(async ({ input }) => {',
    '        await countVote(input.pollId);',
    '        return { ok: true };',
    '      }),',
    '  }),',
    '});',
    '',
  ].join('\n');
  const trpc = [
    'import { initTRPC } from "@trpc/server";',
    'const t = initTRPC.create();',
    'export const createTRPCRouter = t.router;',
    'export const publicProcedure = t.procedure;',
    '',
  ].join('\n');
  const found = await findingsOf({
    'src/server/polls.ts': POLLS,
    'src/server/root.ts': router,
    'src/server/trpc.ts': trpc,
  });
  const counter = found.find((f) => f.at === counterAt && f.rule === 'SL004');
  assert.ok(counter, found.map((f) => `${f.rule} ${f.at}`).join(', '));
  assert.match(counter.message, /Reached from tRPC mutation poll\.vote \(src\/server\/root\.ts:7\)/);
});

test('a procedure given a named function (`t.procedure.mutation(castVote)`) reaches it', async () => {
  const router = [
    'import { initTRPC } from "@trpc/server";',
    'import { countVote } from "./polls";',
    '',
    'const t = initTRPC.create();',
    '',
    'async function castVote({ input }: { input: { pollId: string } }) {',
    '  await countVote(input.pollId);',
    '}',
    '',
    'export const router = t.router({ cast: t.procedure.mutation(castVote) });',
    '',
  ].join('\n');
  const found = await findingsOf({ 'src/server/polls.ts': POLLS, 'src/server/router.ts': router });
  const counter = found.find((f) => f.at === counterAt && f.rule === 'SL004');
  assert.match(counter?.message ?? '', /Reached from tRPC mutation cast/);
});

test('a `.query(...)` of something that is no procedure is no entry point', async () => {
  const report = [
    'import { countVote } from "./polls";',
    'import { pool } from "./db";',
    '',
    'export async function nightly() {',
    '  await pool.query("select 1", async () => {',
    '    await countVote("x");',
    '  });',
    '}',
    '',
  ].join('\n');
  const found = await findingsOf({
    'src/server/polls.ts': POLLS,
    'src/server/report.ts': report,
    'src/server/db.ts': 'export const pool = { query: async (_: string, f: () => Promise<void>) => f() };\n',
  });
  const counter = found.find((f) => f.at === counterAt && f.rule === 'SL004');
  assert.ok(counter);
  assert.doesNotMatch(counter.message, /Reached from/);
});

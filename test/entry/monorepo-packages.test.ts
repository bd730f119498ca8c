/**
 * A monorepo whose handlers import the data layer from a package of the same repository by
 * its name (`@scores/core/votes`, `@acme/data`), as npm, yarn and pnpm workspaces link them:
 * no relative path, no tsconfig alias, and no `node_modules` in a fresh clone. The route
 * reaches the package's functions, and a constant the package exports names the table.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findingsOf } from './helpers';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** A data-layer module writing one counter item on every call. */
const votes = (table: string) =>
  [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';",
    '',
    'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
    '',
    'export async function countVote(): Promise<void> {',
    '  await doc.send(',
    '    new UpdateCommand({',
    `      TableName: ${table},`,
    "      Key: { pk: 'VOTES#total' },",
    "      UpdateExpression: 'ADD votes :one',",
    "      ExpressionAttributeValues: { ':one': 1 },",
    '    }),',
    '  );',
    '}',
    '',
  ].join('\n');

const handler = (source: string) =>
  [
    `import { countVote } from '${source}';`,
    '',
    'export const handler = async () => {',
    '  await countVote();',
    '  return { statusCode: 204, body: "" };',
    '};',
    '',
  ].join('\n');

/** npm workspaces, the core package exporting its sources by pattern, a Serverless service beside it. */
const NPM: Record<string, string> = {
  'package.json': json({ name: 'scores', private: true, workspaces: ['packages/*'] }),
  'packages/core/package.json': json({
    name: '@scores/core',
    type: 'module',
    exports: { './*': './src/*.ts' },
    dependencies: { '@aws-sdk/lib-dynamodb': '^3.600.0' },
  }),
  'packages/core/src/votes.ts': votes("'votes'"),
  'packages/functions/package.json': json({ name: '@scores/functions', dependencies: { '@scores/core': '*' } }),
  'packages/functions/serverless.yml': [
    'service: scores',
    'provider:',
    '  name: aws',
    '  runtime: nodejs20.x',
    'functions:',
    '  vote:',
    '    handler: src/vote.handler',
    '    events:',
    '      - httpApi: POST /vote',
    '',
  ].join('\n'),
  'packages/functions/src/vote.ts': handler('@scores/core/votes'),
};

const reachedFromRoute = (found: Awaited<ReturnType<typeof findingsOf>>, file: string, route: RegExp) => {
  const here = found.filter((f) => f.at.startsWith(`${file}:`));
  assert.ok(here.length > 0, `no finding in ${file}: ${found.map((f) => f.at).join(', ')}`);
  return here.every((f) => route.test(f.message));
};

test('npm workspaces: a handler importing `@scores/core/votes` reaches the package function its route calls', async () => {
  const found = await findingsOf(NPM);
  assert.ok(reachedFromRoute(found, 'packages/core/src/votes.ts', /Reached from POST \/vote/));
});

test('the same tree without a workspaces list: the name is some other package, nothing is reached through it', async () => {
  const found = await findingsOf({ ...NPM, 'package.json': json({ name: 'scores', private: true }) });
  assert.ok(!reachedFromRoute(found, 'packages/core/src/votes.ts', /Reached from POST \/vote/));
});

test("yarn's `{ packages }` form, and a subpath the package does not export is not followed", async () => {
  const yarn = { ...NPM, 'package.json': json({ name: 'scores', workspaces: { packages: ['packages/*'] } }) };
  assert.ok(reachedFromRoute(await findingsOf(yarn), 'packages/core/src/votes.ts', /Reached from POST \/vote/));
  const closed = {
    ...yarn,
    'packages/core/package.json': json({ name: '@scores/core', exports: { './ballots': './src/ballots.ts' } }),
  };
  assert.ok(!reachedFromRoute(await findingsOf(closed), 'packages/core/src/votes.ts', /Reached from POST \/vote/));
});

/**
 * pnpm: the package's `main` and `types` name its build (`dist/index.js`), which a fresh
 * clone does not have; its tsconfig says `dist` is built from `src`. An Express app in
 * `apps/` imports the package's barrel by the bare name.
 */
const PNPM: Record<string, string> = {
  'package.json': json({ name: 'acme', private: true }),
  'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - 'packages/*' # shared code\n",
  'packages/data/package.json': json({ name: '@acme/data', main: 'dist/index.js', types: 'dist/index.d.ts' }),
  'packages/data/tsconfig.json': json({ compilerOptions: { outDir: 'dist', rootDir: 'src', declaration: true } }),
  'packages/data/src/index.ts': "export * from './votes';\n",
  'packages/data/src/votes.ts': votes("'votes'"),
  'apps/api/package.json': json({ name: 'api', dependencies: { '@acme/data': 'workspace:*', express: '^4.19.2' } }),
  'apps/api/src/server.ts': [
    "import express from 'express';",
    "import { countVote } from '@acme/data';",
    '',
    'const app = express();',
    '',
    "app.post('/votes', async (_req, res) => {",
    '  await countVote();',
    '  res.sendStatus(204);',
    '});',
    '',
    'app.listen(3000);',
    '',
  ].join('\n'),
};

test('pnpm workspace: `@acme/data` (main and types in an unbuilt dist) leads to its sources through the barrel', async () => {
  const found = await findingsOf(PNPM);
  assert.ok(reachedFromRoute(found, 'packages/data/src/votes.ts', /Reached from POST \/votes/));
});

test('a table name exported by a conditional `exports` map names the table of a write in another package', async () => {
  const found = await findingsOf({
    ...PNPM,
    'packages/data/package.json': json({
      name: '@acme/data',
      exports: { '.': { types: './src/index.ts', import: './dist/index.mjs' }, './package.json': './package.json' },
    }),
    'packages/data/src/index.ts': "export const VOTES_TABLE = 'ballots';\n",
    'apps/api/src/votes.ts': votes('VOTES_TABLE').replace(
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { VOTES_TABLE } from '@acme/data';",
    ),
    'apps/api/src/server.ts': PNPM['apps/api/src/server.ts'].replace("'@acme/data'", "'./votes'"),
  });
  const here = found.filter((f) => f.at.startsWith('apps/api/src/votes.ts:'));
  assert.ok(here.length > 0, found.map((f) => f.at).join(', '));
  assert.ok(
    here.some((f) => /table "ballots"/.test(f.message)),
    here.map((f) => f.message).join('\n'),
  );
});

test("a package's own subpath imports (`#db/votes`) lead to its files", async () => {
  const found = await findingsOf({
    ...NPM,
    'packages/functions/package.json': json({ name: '@scores/functions', imports: { '#db/*': './src/db/*.ts' } }),
    'packages/functions/src/db/votes.ts': votes("'votes'"),
    'packages/functions/src/vote.ts': handler('#db/votes'),
  });
  assert.ok(reachedFromRoute(found, 'packages/functions/src/db/votes.ts', /Reached from POST \/vote/));
});

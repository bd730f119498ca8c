import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { assertSameText } from './same-text';

/**
 * A warm check must never report what an earlier run found if an input that decides the
 * findings changed since. Each case below changes one such input of a small SAM service
 * (the handler's own text, a module it imports, the project config, the template naming
 * its table, a command-line setting, a tsconfig alias, a package's exports, the files an
 * import may name) after a run that filled the cache,
 * and asserts that the warm check prints what a check without any cache prints, and that
 * the change did change that output (else the case could not fail).
 */
const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js'); // `npm run build` first

/** `threads`: the path of large workspaces (files stat'ed first, the analysis thread), taken from one file on. */
function check(
  workspace: string,
  extra: string[],
  cache?: string,
  threads = false,
): { stdout: string; stderr: string } {
  const args = [BIN, 'check', workspace, '--format', 'json', ...extra];
  if (cache) args.push('--cache-location', cache);
  const env = threads ? { ...process.env, SHARDLENS_PARALLEL_FROM: '1' } : process.env;
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return { stdout: r.stdout, stderr: r.stderr };
}

const TEMPLATE = (keyAttribute: string, envTable: string) => `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Description: Scores service

Resources:
  ScoresTable:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: ${keyAttribute}
          AttributeType: S
      KeySchema:
        - AttributeName: ${keyAttribute}
          KeyType: HASH

  AuditTable:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: board
          AttributeType: S
      KeySchema:
        - AttributeName: board
          KeyType: HASH

  SubmitScoreFunction:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: nodejs20.x
      Handler: src/handlers/submit.handler
      Environment:
        Variables:
          SCORES_TABLE: !Ref ${envTable}
      Events:
        Submit:
          Type: Api
          Properties:
            Path: /scores
            Method: post
`;

const KEYS_TS = (board: string) => `export const BOARD_KEY = '${board}';\n`;

const HANDLER_TS = (attribute: string) => `/**
 * POST /scores: records one submitted score on the board. The body is JSON with the
 * player's score; the board keeps how many scores were submitted and the best one, so
 * the leaderboard page can show both without scanning the table. Scores are validated
 * by the API's request model before they reach this handler, so nothing here checks them
 * again. The table's name comes from the template (SCORES_TABLE), never from the code.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BOARD_KEY } from '@lib/keys';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { body: string }) => {
  const { score } = JSON.parse(event.body) as { score: number };
  await db.send(
    new UpdateCommand({
      TableName: process.env.SCORES_TABLE,
      Key: { ${attribute}: BOARD_KEY },
      UpdateExpression: 'ADD submissions :one SET best = :score',
      ExpressionAttributeValues: { ':one': 1, ':score': score },
    }),
  );
  return { statusCode: 204 };
};
`;

const UTIL_TS = `export const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));\n`;

const TSCONFIG = (lib: string) =>
  JSON.stringify({ compilerOptions: { strict: true, baseUrl: '.', paths: { '@lib/*': [`${lib}/*`] } } }, null, 2);

const KEYS_PACKAGE = (board: string) =>
  JSON.stringify({ name: '@scores/keys', private: true, exports: { './board': board } }, null, 2);

function writeService(dir: string): void {
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  put('package.json', JSON.stringify({ name: 'scores', private: true, workspaces: ['packages/*'] }, null, 2));
  // A package of the monorepo a second handler imports by name, its exports naming the file.
  put('packages/keys/package.json', KEYS_PACKAGE('./src/team.ts'));
  put('packages/keys/src/team.ts', KEYS_TS('TEAM#global'));
  put('packages/keys/src/clan.ts', KEYS_TS('CLAN#global'));
  put('src/handlers/team.ts', HANDLER_TS('board').replace("'@lib/keys'", "'@scores/keys/board'"));
  // The aliases in a config of their own that tsconfig.json extends, as the aws-nodejs-typescript template keeps them.
  put(
    'tsconfig.json',
    JSON.stringify({ extends: './tsconfig.paths.json', compilerOptions: { strict: true } }, null, 2),
  );
  put('tsconfig.paths.json', TSCONFIG('src/lib'));
  put('template.yaml', TEMPLATE('board', 'ScoresTable'));
  put('src/lib/keys.ts', KEYS_TS('BOARD#global'));
  put('src/shared/keys.ts', KEYS_TS('LADDER#global'));
  put('src/handlers/submit.ts', HANDLER_TS('board'));
  put('src/lib/util.ts', UTIL_TS);
  // Imports of a folder's index (`../league` is `src/league/index.ts` until a `src/league.ts` is
  // added beside it) and of a module not there yet (`../season`): a file added moves them.
  put('src/league/index.ts', KEYS_TS('LEAGUE#global'));
  put('src/handlers/league.ts', HANDLER_TS('board').replace("'@lib/keys'", "'../league'"));
  put('src/handlers/season.ts', HANDLER_TS('board').replace("'@lib/keys'", "'../season'"));
}

const CASES: Array<{ name: string; change: (dir: string) => void; extra?: string[]; threads?: boolean }> = [
  {
    name: "the handler's own text",
    change: (dir) => fs.writeFileSync(path.join(dir, 'src/handlers/submit.ts'), HANDLER_TS('pk')),
  },
  {
    name: 'a constant of the module the handler imports',
    change: (dir) => fs.writeFileSync(path.join(dir, 'src/lib/keys.ts'), KEYS_TS('BOARD#weekly')),
  },
  {
    name: 'the project config (a rule turned off, a key declared)',
    change: (dir) =>
      fs.writeFileSync(
        path.join(dir, 'shardlens.config.json'),
        JSON.stringify({ rules: { SL004: 'off' }, keys: { 'BOARD#global': { peakWritesPerSecond: 5 } } }, null, 2),
      ),
  },
  {
    name: "the template's key schema of the table the handler writes",
    change: (dir) => fs.writeFileSync(path.join(dir, 'template.yaml'), TEMPLATE('pk', 'ScoresTable')),
  },
  {
    name: "the table the template's environment variable names",
    change: (dir) => fs.writeFileSync(path.join(dir, 'template.yaml'), TEMPLATE('board', 'AuditTable')),
  },
  {
    name: 'the size limit on the command line (the handler is over 1 KB)',
    change: () => undefined,
    extra: ['--max-file-size', '1'],
  },
  {
    name: 'the contexts on the command line',
    change: () => undefined,
    extra: ['--contexts', 'test'],
  },
  {
    name: 'a tsconfig path alias the handler imports through',
    change: (dir) => fs.writeFileSync(path.join(dir, 'tsconfig.json'), TSCONFIG('src/shared')),
  },
  {
    name: 'a path alias in the config tsconfig.json extends',
    change: (dir) => fs.writeFileSync(path.join(dir, 'tsconfig.paths.json'), TSCONFIG('src/shared')),
  },
  {
    name: 'a tsconfig added nearer to the handler, with other aliases',
    change: (dir) =>
      fs.writeFileSync(
        path.join(dir, 'src', 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['shared/*'] } } }, null, 2),
      ),
  },
  {
    name: 'the exports of a monorepo package a handler imports by name',
    change: (dir) => fs.writeFileSync(path.join(dir, 'packages/keys/package.json'), KEYS_PACKAGE('./src/clan.ts')),
  },
  {
    name: 'the files present: a module added beside the folder whose index an import named',
    change: (dir) => fs.writeFileSync(path.join(dir, 'src/league.ts'), KEYS_TS('LEAGUE#weekly')),
  },
  {
    name: 'the files present: the module an import could not find, created',
    change: (dir) => fs.writeFileSync(path.join(dir, 'src/season.ts'), KEYS_TS('SEASON#global')),
  },
  {
    name: 'the files present, on the two-thread path: a module added beside the folder an import named',
    change: (dir) => fs.writeFileSync(path.join(dir, 'src/league.ts'), KEYS_TS('LEAGUE#weekly')),
    threads: true,
  },
];

for (const c of CASES) {
  test(`a warm check after a change of ${c.name} prints what a check without a cache prints`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cache-inputs-'));
    const ws = path.join(dir, 'ws');
    const cache = path.join(dir, 'cache');
    writeService(ws);
    const threads = c.threads ?? false;
    const before = check(ws, []).stdout;
    // Two runs: the second records the stamps of files older than the first (stamp.ts).
    assertSameText(check(ws, [], cache, threads).stdout, before);
    assertSameText(check(ws, [], cache, threads).stdout, before);
    assert.match(before, /"SL00\d"/, 'the service has findings to change');
    c.change(ws);
    const extra = c.extra ?? [];
    const expected = check(ws, extra).stdout;
    assert.notEqual(expected, before, 'the change changes what a check reports');
    const warm = check(ws, extra, cache, threads);
    assertSameText(warm.stdout, expected);
    // And once more, from the cache that run wrote.
    assertSameText(check(ws, extra, cache, threads).stdout, expected);
  });
}

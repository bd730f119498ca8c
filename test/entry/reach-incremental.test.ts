/**
 * Reach kept edit by edit equals reach worked out afresh. A small service (a SAM template
 * declaring a handler and a scheduled job, a repository of DynamoDB calls, an Express
 * routes file) is edited at random, one file at a time, as the language server applies
 * edits: a source file analysed again with `update`, a template read again with
 * `readInfrastructure` + `rebindEnv`. After each edit every access's entry points, the
 * files reached and each finding (its severity and message carry the reach) must be what
 * a fresh index of the same texts says, and every file whose findings changed must be
 * among those the server republishes (`filesReachedOtherwise` and the touched families).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initParsers, languageForFile } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { seededRandom } from '../unit/seeded-random';

type Knobs = {
  voteCalls: boolean[];
  nightlyCalls: boolean[];
  nightlyLoop: boolean;
  voteEvent: 'api' | 'schedule' | 'sqs';
  nightlyRate: number;
  nightlyDeclared: boolean;
  routes: 'none' | 'app' | 'plain';
  renamed: boolean;
  blankLines: number;
  comment: number;
};

const REPO_FNS = ['saveVote', 'readBoard', 'bumpCounter'] as const;

function repoFile(k: Knobs): string {
  const read = k.renamed ? 'readBoardV2' : 'readBoard';
  return [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';",
    '',
    'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
    ...Array.from({ length: k.blankLines }, () => ''),
    'export async function saveVote(id: string) {',
    `  // note ${k.comment}`,
    "  await doc.send(new PutCommand({ TableName: 'votes', Item: { pk: 'VOTES', sk: id } }));",
    '}',
    '',
    `export async function ${read}() {`,
    "  return doc.send(new GetCommand({ TableName: 'votes', Key: { pk: 'BOARD', sk: 'global' } }));",
    '}',
    '',
    'export async function bumpCounter() {',
    '  await doc.send(',
    '    new UpdateCommand({',
    "      TableName: 'votes',",
    "      Key: { pk: 'COUNTER', sk: 'all' },",
    "      UpdateExpression: 'ADD n :one',",
    "      ExpressionAttributeValues: { ':one': 1 },",
    '    }),',
    '  );',
    '}',
    '',
    'async function purgeLegacy() {',
    "  await doc.send(new PutCommand({ TableName: 'votes', Item: { pk: 'LEGACY', sk: 'x' } }));",
    '}',
    '',
  ].join('\n');
}

function callsOf(on: boolean[], indent: string): string[] {
  return REPO_FNS.filter((_, i) => on[i]).map((f) => `${indent}await ${f}(${f === 'saveVote' ? "'v'" : ''});`);
}

function voteFile(k: Knobs): string {
  return [
    "import { saveVote, readBoard, bumpCounter } from '../lib/repo';",
    '',
    'export const handler = async (event: unknown, context: unknown) => {',
    ...callsOf(k.voteCalls, '  '),
    '  return { statusCode: 204 };',
    '};',
    '',
  ].join('\n');
}

function nightlyFile(k: Knobs): string {
  const calls = callsOf(k.nightlyCalls, k.nightlyLoop ? '    ' : '  ');
  return [
    "import { saveVote, readBoard, bumpCounter } from '../lib/repo';",
    '',
    'export const handler = async (event: unknown, context: unknown) => {',
    ...(k.nightlyLoop ? ['  for (const r of [1, 2, 3]) {', ...calls, '  }'] : calls),
    '};',
    '',
  ].join('\n');
}

function routesFile(k: Knobs): string {
  if (k.routes === 'none') return '// no routes yet\nexport {};\n';
  return [
    "import express from 'express';",
    "import * as repo from './lib/repo';",
    '',
    k.routes === 'app' ? 'const app = express();' : 'const app = makeApp();',
    "app.get('/board', async (req, res) => {",
    '  res.json(await repo.readBoard());',
    '});',
    '',
    'export default app;',
    '',
  ].join('\n');
}

function templateFile(k: Knobs): string {
  const voteEvent = {
    api: ['          Type: Api', '          Properties:', '            Path: /votes', '            Method: post'],
    schedule: ['          Type: Schedule', '          Properties:', '            Schedule: rate(5 minutes)'],
    sqs: [
      '          Type: SQS',
      '          Properties:',
      '            Queue: !GetAtt VoteQueue.Arn',
      '            BatchSize: 10',
    ],
  }[k.voteEvent];
  const nightly = [
    '  NightlyFunction:',
    '    Type: AWS::Serverless::Function',
    '    Properties:',
    '      Handler: src/jobs/nightly.handler',
    '      Runtime: nodejs20.x',
    '      Events:',
    '        Nightly:',
    '          Type: Schedule',
    '          Properties:',
    `            Schedule: rate(${k.nightlyRate} minutes)`,
  ];
  return [
    'AWSTemplateFormatVersion: "2010-09-09"',
    'Transform: AWS::Serverless-2016-10-31',
    'Resources:',
    '  VoteFunction:',
    '    Type: AWS::Serverless::Function',
    '    Properties:',
    '      Handler: src/handlers/vote.handler',
    '      Runtime: nodejs20.x',
    '      Events:',
    '        Vote:',
    ...voteEvent,
    ...(k.nightlyDeclared ? nightly : []),
    '',
  ].join('\n');
}

const FILES: Record<string, (k: Knobs) => string> = {
  'src/lib/repo.ts': repoFile,
  'src/handlers/vote.ts': voteFile,
  'src/jobs/nightly.ts': nightlyFile,
  'src/routes.ts': routesFile,
  'template.yaml': templateFile,
};
const TEMPLATE = 'template.yaml';

/** One knob changed at random: each is an edit an author makes to one of the files. */
function mutate(k: Knobs, next: () => number): Knobs {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const flip = (xs: boolean[]) => xs.map((x, i) => (i === Math.floor(next() * xs.length) ? !x : x));
  switch (Math.floor(next() * 10)) {
    case 0:
      return { ...k, voteCalls: flip(k.voteCalls) };
    case 1:
      return { ...k, nightlyCalls: flip(k.nightlyCalls) };
    case 2:
      return { ...k, nightlyLoop: !k.nightlyLoop };
    case 3:
      return { ...k, voteEvent: pick(['api', 'schedule', 'sqs'] as const) };
    case 4:
      return { ...k, nightlyRate: pick([1, 30, 120]) };
    case 5:
      return { ...k, nightlyDeclared: !k.nightlyDeclared };
    case 6:
      return { ...k, routes: pick(['none', 'app', 'plain'] as const) };
    case 7:
      return { ...k, renamed: !k.renamed };
    case 8:
      return { ...k, blankLines: (k.blankLines + 1) % 3 };
    default:
      return { ...k, comment: k.comment + 1 };
  }
}

const START: Knobs = {
  voteCalls: [true, true, false],
  nightlyCalls: [false, false, true],
  nightlyLoop: false,
  voteEvent: 'api',
  nightlyRate: 30,
  nightlyDeclared: true,
  routes: 'app',
  renamed: false,
  blankLines: 0,
  comment: 0,
};

/** The index of the files' current texts as the server builds it: templates first, then every file. */
function freshIndex(dir: string, texts: Map<string, string>): WorkspaceIndex {
  const index = new WorkspaceIndex({ root: dir, openText: (f) => texts.get(f) ?? null });
  index.readInfrastructure([path.join(dir, TEMPLATE)]);
  index.analyzeAll(
    Object.keys(FILES)
      .filter((f) => f !== TEMPLATE)
      .map((f) => path.join(dir, f)),
  );
  return index;
}

/** Every access's reach and every finding, file by file: what must not depend on the way the index got there. */
function view(index: WorkspaceIndex, dir: string): Record<string, { reach: string[]; findings: string[] }> {
  const out: Record<string, { reach: string[]; findings: string[] }> = {};
  for (const name of Object.keys(FILES)) {
    const file = path.join(dir, name);
    const accesses = index.analysisOf(file)?.accesses ?? [];
    out[name] = {
      reach: accesses.map((a) => `${a.span.startLine}:${a.operation} ${JSON.stringify(index.entryReachOf(a) ?? null)}`),
      findings: index.findingsFor(file).map((f) => `${f.span.startLine + 1} ${f.rule} ${f.severity} ${f.message}`),
    };
  }
  return out;
}

test('reach kept edit by edit is the reach of a fresh index, and the files it changes are republished', async () => {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-reach-inc-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "votes", "private": true }\n');
  const texts = new Map<string, string>();
  const write = (k: Knobs) => {
    for (const [name, render] of Object.entries(FILES)) {
      const file = path.join(dir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, render(k));
      texts.set(file, render(k));
    }
  };
  let reached = 0;
  let republished = 0;
  for (const seed of [1, 2, 3, 4]) {
    const next = seededRandom(seed);
    let knobs = START;
    write(knobs);
    const index = freshIndex(dir, texts);
    let before = view(index, dir);
    for (let step = 0; step < 20; step++) {
      const changed = mutate(knobs, next);
      const edited = Object.keys(FILES).filter((n) => FILES[n](changed) !== FILES[n](knobs));
      knobs = changed;
      write(knobs);
      // As the language server applies it: the edited file, then the files it may re-judge.
      const touched = new Set<string>();
      for (const name of edited) {
        const file = path.join(dir, name);
        if (name === TEMPLATE) {
          if (index.readInfrastructure([file])) for (const key of index.rebindEnv()) touched.add(key);
        } else {
          for (const key of index.update(file, texts.get(file)!, languageForFile(file)!)) touched.add(key);
          index.readEntryFile(file);
        }
      }
      const publish = new Set([
        ...edited.map((n) => path.join(dir, n)),
        ...index.filesOf(touched),
        ...index.filesReachedOtherwise(),
      ]);
      const now = view(index, dir);
      const where = `seed ${seed}, step ${step}, ${JSON.stringify(knobs)}`;
      assert.deepEqual(now, view(freshIndex(dir, texts), dir), `incremental and fresh reach differ: ${where}`);
      for (const name of Object.keys(FILES)) {
        if (JSON.stringify(now[name].findings) === JSON.stringify(before[name].findings)) continue;
        assert.ok(publish.has(path.join(dir, name)), `${name}'s findings changed but it is not republished: ${where}`);
        republished++;
      }
      reached += Object.values(now).reduce(
        (n, f) => n + f.reach.filter((r) => r.includes('"entryPoints":[{')).length,
        0,
      );
      before = now;
    }
  }
  // The edits did move reach: accesses were reached, and findings changed and were republished.
  assert.ok(reached > 100, `accesses reached over the runs: ${reached}`);
  assert.ok(republished > 10, `files republished for a changed finding: ${republished}`);
});

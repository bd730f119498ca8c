import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readInfrastructure } from '../../server/src/engine/frontends/infra';
import type { InfraDeclarations } from '../../server/src/engine/model/entry-point';
import { checkJson } from './check-json';

/**
 * Templates whose handlers name a build's output, not a source file: a SAM service built
 * by a webpack config that globs `src/<name>/index.ts` into `build/<name>/index.js`, a
 * `CodeUri: dist/` of a TypeScript service compiled from `src/`, a Serverless service
 * pointing at `dist/src/...`, a Python function staged into `build/` by a Makefile. The
 * handler is followed to the source the output was built from, when that source exports
 * the handler's function; the output itself, built on the developer's machine, is passed
 * over for it.
 */

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-built-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function read(dir: string, rel: string): InfraDeclarations {
  const file = path.join(dir, rel);
  const out = readInfrastructure(file, fs.readFileSync(file, 'utf8'));
  assert.ok(out, `${rel} is read as infrastructure`);
  return out;
}

const handlerOf = (d: InfraDeclarations, name: string, dir: string) => {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name}`);
  return f.handlerFile ? path.relative(dir, f.handlerFile).split(path.sep).join('/') : null;
};

const SAM_HEAD = "AWSTemplateFormatVersion: '2010-09-09'\nTransform: AWS::Serverless-2016-10-31\nResources:\n";

const samFunction = (id: string, codeUri: string, handler: string, extra = '') =>
  `  ${id}:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: ${codeUri}\n      Handler: ${handler}\n      Runtime: nodejs18.x\n${extra}`;

test('SAM: a webpack output folder per function leads to src/<name>/index.ts', () => {
  const dir = project('loyalty', {
    'template.yaml':
      SAM_HEAD +
      samFunction('Ingest', 'build/ingest', 'index.handler') +
      samFunction('Get', 'build/get', 'index.handler'),
    'src/ingest/index.ts': 'export async function handler(event: unknown) {\n  return event;\n}\n',
    'src/get/index.ts': 'export const handler = async () => ({ statusCode: 200 });\n',
    'webpack.config.js': "module.exports = { output: { filename: '[name]/index.js' } };\n",
  });
  const d = read(dir, 'template.yaml');
  assert.equal(handlerOf(d, 'Ingest', dir), 'src/ingest/index.ts');
  assert.equal(handlerOf(d, 'Get', dir), 'src/get/index.ts');
  assert.deepEqual(d.skipped, []);
});

test('SAM: CodeUri dist/ of a compiled service, with a stale build on disk, leads to the source', () => {
  const dir = project('orders', {
    'template.yaml': SAM_HEAD + samFunction('Api', 'dist/', 'handlers/api.handler'),
    'src/handlers/api.ts': 'export const handler = async () => ({ statusCode: 204 });\n',
    // What `tsc` left after the last build: the workspace does not read it.
    'dist/handlers/api.js': '"use strict";\nexports.handler = async () => ({ statusCode: 204 });\n',
  });
  assert.equal(handlerOf(read(dir, 'template.yaml'), 'Api', dir), 'src/handlers/api.ts');
});

test('Serverless: a handler under dist/src/ leads to the same path under the service', () => {
  const dir = project('votes', {
    'serverless.yml':
      'service: votes\nprovider:\n  name: aws\n  runtime: nodejs18.x\nfunctions:\n  vote:\n    handler: dist/src/functions/vote.main\n',
    'src/functions/vote.ts': 'export async function main() {\n  return 1;\n}\n',
  });
  assert.equal(handlerOf(read(dir, 'serverless.yml'), 'vote', dir), 'src/functions/vote.ts');
});

test('SAM: a Python function staged into build/ leads to src/<module>.py', () => {
  const dir = project('retweet', {
    'template.yaml': SAM_HEAD + samFunction('Retweet', 'build/', 'retweet.lambda_handler'),
    'src/retweet.py': 'def lambda_handler(event, context):\n    return event\n',
  });
  assert.equal(handlerOf(read(dir, 'template.yaml'), 'Retweet', dir), 'src/retweet.py');
});

test('an output folder with no source that exports the function is skipped, saying where the source was looked for', () => {
  const dir = project('nowhere', {
    'template.yaml':
      SAM_HEAD + samFunction('Gone', 'dist/', 'gone.handler') + samFunction('Other', 'dist/', 'other.run'),
    // A source of that name that exports another function is no source of this handler.
    'src/other.ts': 'export const handler = async () => 1;\n',
  });
  const d = read(dir, 'template.yaml');
  assert.equal(handlerOf(d, 'Gone', dir), null);
  assert.equal(handlerOf(d, 'Other', dir), null);
  const reasons = d.skipped.map((s) => s.reason).join('\n');
  assert.match(
    reasons,
    /Gone: handler "gone\.handler" leads to no source file \(looked for .*\/dist\/gone\.\{ts,js,mjs,cjs,py\}, or its source under .*\/nowhere\/src\)/,
  );
  assert.match(reasons, /Other: handler "other\.run" leads to no source file/);
});

test('a folder named like a build output above the template is not taken for one', () => {
  // The repository itself lives in a folder called `build`: the handler's file is where it says.
  const dir = project('build/app', {
    'template.yaml':
      SAM_HEAD + samFunction('Vote', 'src/', 'vote.handler') + samFunction('Lost', 'src/', 'lost.handler'),
    'src/vote.ts': 'export const handler = async () => 1;\n',
    '../src/lost.ts': 'export const handler = async () => 1;\n',
  });
  const d = read(dir, 'template.yaml');
  assert.equal(handlerOf(d, 'Vote', dir), 'src/vote.ts');
  assert.equal(handlerOf(d, 'Lost', dir), null, 'not found in build/src/ above the template');
  assert.doesNotMatch(d.skipped.map((s) => s.reason).join('\n'), /its source under/);
});

test('check: the template built by webpack names the table its source writes, from the variable it sets', () => {
  const dir = project('loyalty-check', {
    'package.json': '{ "name": "loyalty", "private": true }\n',
    'template.yaml':
      SAM_HEAD +
      samFunction(
        'Ingest',
        'build/ingest',
        'index.handler',
        '      Environment:\n        Variables:\n          TABLE_NAME: !Ref LoyaltyTable\n      Events:\n        Points:\n          Type: SNS\n          Properties:\n            Topic: !Ref PointsTopic\n',
      ) +
      '  PointsTopic:\n    Type: AWS::SNS::Topic\n' +
      '  LoyaltyTable:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: loyalty-points\n' +
      '      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions:\n        - AttributeName: customerId\n          AttributeType: S\n' +
      '      KeySchema:\n        - AttributeName: customerId\n          KeyType: HASH\n',
    'src/ingest/index.ts': [
      "import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';",
      '',
      'const client = new DynamoDBClient({});',
      '',
      'export async function handler(event: { Records: Array<{ Sns: { Message: string } }> }) {',
      '  for (const record of event.Records) {',
      '    const { customerId, points } = JSON.parse(record.Sns.Message);',
      '    await client.send(',
      '      new PutItemCommand({',
      '        TableName: process.env.TABLE_NAME,',
      '        Item: { customerId: { S: customerId }, points: { N: String(points) } },',
      '      }),',
      '    );',
      '  }',
      '}',
      '',
    ].join('\n'),
  });
  const report = checkJson(dir);
  const put = report.accesses.find((a) => a.file === 'src/ingest/index.ts');
  assert.ok(put, JSON.stringify(report.accesses));
  assert.equal(put.table, 'loyalty-points');
  assert.equal(put.tableFrom?.logicalId, 'LoyaltyTable');
  assert.equal(report.functions?.find((f) => f.name === 'Ingest')?.handlerFile, 'src/ingest/index.ts');
  assert.equal(report.coverage?.infrastructure?.skipped.length ?? 0, 0);
});

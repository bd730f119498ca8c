import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { collectFiles, walkListsPath } from '../../server/src/engine/workspace/files';
import { compiledOutputsOf, typeScriptSourcesOf } from '../../server/src/engine/workspace/compiled-output';
import { ensureBuilt, runCli, withService } from '../../fuzz/cli-runner';

/**
 * A SAM service written in TypeScript and built with plain `tsc` (no `outDir`): each
 * handler's `.js` sits beside its `.ts`, and both are committed, as in many Lambda repos.
 * Its CDK app was compiled the same way. A hand-written `.js` with a `.d.ts` is source.
 */
ensureBuilt();

const TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  ScoresTable:
    Type: AWS::Serverless::SimpleTable
  SubmitScore:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/handlers/
      Handler: submit-score.handler
      Runtime: nodejs20.x
      Environment:
        Variables:
          SCORES_TABLE: !Ref ScoresTable
      Events:
        Submit:
          Type: Api
          Properties: { Path: /scores, Method: post }
`;

const HANDLER_TS = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: APIGatewayProxyEvent) => {
  await doc.send(
    new UpdateCommand({
      TableName: process.env.SCORES_TABLE,
      Key: { pk: 'SCOREBOARD' },
      UpdateExpression: 'ADD submissions :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
  return { statusCode: 204, body: event.body ?? '' };
};
`;

// What tsc 5 writes for it with "module": "commonjs".
const HANDLER_JS = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handler = void 0;
const client_dynamodb_1 = require("@aws-sdk/client-dynamodb");
const lib_dynamodb_1 = require("@aws-sdk/lib-dynamodb");
const doc = lib_dynamodb_1.DynamoDBDocumentClient.from(new client_dynamodb_1.DynamoDBClient({}));
const handler = async (event) => {
    await doc.send(new lib_dynamodb_1.UpdateCommand({
        TableName: process.env.SCORES_TABLE,
        Key: { pk: 'SCOREBOARD' },
        UpdateExpression: 'ADD submissions :one',
        ExpressionAttributeValues: { ':one': 1 },
    }));
    return { statusCode: 204, body: event.body ?? '' };
};
exports.handler = handler;
//# sourceMappingURL=submit-score.js.map
`;

const TREE: Record<string, string> = {
  'template.yaml': TEMPLATE,
  'src/handlers/submit-score.ts': HANDLER_TS,
  'src/handlers/submit-score.js': HANDLER_JS,
  // Hand-written JavaScript with its declarations: the project's source.
  'src/lib/keys.js': 'exports.scoreKey = (id) => `SCORE#${id}`;\n',
  'src/lib/keys.d.ts': 'export declare const scoreKey: (id: string) => string;\n',
  'src/esm/index.mts': 'export const ok = true;\n',
  'src/esm/index.mjs': 'export const ok = true;\n',
  'infra/cdk.json': '{ "app": "node bin/app.js" }\n',
  'infra/bin/app.ts': "import { App } from 'aws-cdk-lib';\nnew App();\n",
  'infra/bin/app.js': '"use strict";\nconst aws_cdk_lib_1 = require("aws-cdk-lib");\nnew aws_cdk_lib_1.App();\n',
  // A CDK integration test's snapshot: the handler again, bundled by esbuild into the asset.
  'infra/test/integ.scores.js.snapshot/asset.4f1c9e/index.js': `"use strict";
var import_client_dynamodb = require("@aws-sdk/client-dynamodb");
var import_lib_dynamodb = require("@aws-sdk/lib-dynamodb");
var doc = import_lib_dynamodb.DynamoDBDocumentClient.from(new import_client_dynamodb.DynamoDBClient({}));
exports.handler = async () => doc.send(new import_lib_dynamodb.UpdateCommand({
  TableName: process.env.SCORES_TABLE,
  Key: { pk: "SCOREBOARD" },
  UpdateExpression: "ADD submissions :one",
  ExpressionAttributeValues: { ":one": 1 }
}));
`,
};

const rel = (dir: string, files: string[]) => files.map((f) => path.relative(dir, f).split(path.sep).join('/'));

function assertCompiledLeftOut(dir: string): void {
  const list = collectFiles([dir]);
  assert.deepEqual(rel(dir, list.files), [
    'infra/bin/app.ts',
    'src/esm/index.mts',
    'src/handlers/submit-score.ts',
    'src/lib/keys.js',
  ]);
  assert.ok(!rel(dir, list.infrastructure).includes('infra/bin/app.js'), list.infrastructure.join('\n'));
  assert.ok(rel(dir, list.infrastructure).includes('infra/bin/app.ts'), list.infrastructure.join('\n'));
  assert.equal(list.compiled, 3);
}

test('the folder walk leaves out the JavaScript tsc wrote beside its TypeScript', () => {
  withService(TREE, assertCompiledLeftOut);
});

test('so does the file list git gives', () => {
  withService(TREE, (dir) => {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', 'src', 'infra'], { cwd: dir });
    assertCompiledLeftOut(dir);
  });
});

test('walkListsPath says the same of one changed file (a tsc --watch rewriting its output)', () => {
  withService(TREE, (dir) => {
    const at = (p: string) => walkListsPath(dir, path.join(dir, ...p.split('/')));
    assert.equal(at('src/handlers/submit-score.js'), false);
    assert.equal(at('src/handlers/submit-score.ts'), true);
    assert.equal(at('src/lib/keys.js'), true);
    assert.equal(at('src/esm/index.mjs'), false);
    assert.equal(at('infra/test/integ.scores.js.snapshot/asset.4f1c9e/index.js'), false);
  });
});

test('which JavaScript names tsc writes for a TypeScript file', () => {
  assert.deepEqual(compiledOutputsOf('a.ts'), ['a.js']);
  assert.deepEqual(compiledOutputsOf('a.tsx'), ['a.js', 'a.jsx']);
  assert.deepEqual(compiledOutputsOf('a.mts'), ['a.mjs']);
  assert.deepEqual(compiledOutputsOf('a.cts'), ['a.cjs']);
  assert.deepEqual(compiledOutputsOf('a.d.ts'), []);
  assert.deepEqual(compiledOutputsOf('a.js'), []);
});

test('which TypeScript names a JavaScript file is compiled from', () => {
  assert.deepEqual(typeScriptSourcesOf('a.js'), ['a.ts', 'a.tsx']);
  assert.deepEqual(typeScriptSourcesOf('a.jsx'), ['a.tsx']);
  assert.deepEqual(typeScriptSourcesOf('a.mjs'), ['a.mts']);
  assert.deepEqual(typeScriptSourcesOf('a.cjs'), ['a.cts']);
  assert.deepEqual(typeScriptSourcesOf('a.ts'), []);
  assert.deepEqual(typeScriptSourcesOf('.js'), []);
});

test('check reports the counter once, in the TypeScript, reached from its route, and says what it left out', () => {
  withService(TREE, (dir) => {
    const r = runCli(['check', dir, '--format', 'json', '--fail-on', 'never']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { findings: Array<{ file: string; rule: string; message: string }> };
    const counter = out.findings.filter((f) => f.file.endsWith('submit-score.ts'));
    assert.ok(counter.length > 0, r.stdout);
    assert.deepEqual(
      out.findings.filter((f) => f.file.endsWith('.js')),
      [],
    );
    assert.ok(
      counter.some((f) => f.message.includes('POST /scores')),
      counter.map((f) => f.message).join('\n'),
    );
    assert.ok(
      r.stderr.includes('shardlens: left out 3 JavaScript files compiled from the TypeScript beside them'),
      r.stderr,
    );

    // Without its TypeScript the compiled handler is the code there is: it is read, namespace and all.
    const onlyJs = { ...TREE };
    delete onlyJs['src/handlers/submit-score.ts'];
    withService(onlyJs, (jsDir) => {
      const js = runCli(['check', jsDir, '--format', 'json', '--fail-on', 'never']);
      const files = (JSON.parse(js.stdout) as { findings: Array<{ file: string }> }).findings.map((f) => f.file);
      assert.ok(
        files.some((f) => f.endsWith('submit-score.js')),
        files.join('\n'),
      );
    });
  });
});

test('a route reaches a service through the handler’s compiled call of it, `await (0, service_1.submit)(event)`', () => {
  const service = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.submit = void 0;
const lib_dynamodb_1 = require("@aws-sdk/lib-dynamodb");
const client_dynamodb_1 = require("@aws-sdk/client-dynamodb");
const doc = lib_dynamodb_1.DynamoDBDocumentClient.from(new client_dynamodb_1.DynamoDBClient({}));
const submit = async (event) => {
    await doc.send(new lib_dynamodb_1.UpdateCommand({
        TableName: process.env.SCORES_TABLE,
        Key: { pk: 'TOTALS' },
        UpdateExpression: 'ADD submissions :one',
        ExpressionAttributeValues: { ':one': 1 },
    }));
};
exports.submit = submit;
`;
  const handler = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handler = void 0;
const service_1 = require("../service");
const handler = async (event) => {
    await (0, service_1.submit)(event);
    return { statusCode: 204 };
};
exports.handler = handler;
`;
  const tree = {
    'template.yaml': TEMPLATE.replace('CodeUri: src/handlers/', 'CodeUri: lambda/handlers/'),
    // Only the compiled JavaScript is committed, as some Lambda repositories do.
    'lambda/service.js': service,
    'lambda/handlers/submit-score.js': handler,
  };
  withService(tree, (dir) => {
    const r = runCli(['check', dir, '--format', 'json', '--fail-on', 'never']);
    const findings = (JSON.parse(r.stdout) as { findings: Array<{ file: string; message: string }> }).findings;
    const counter = findings.filter((f) => f.file.endsWith('service.js'));
    assert.ok(counter.length > 0, r.stdout);
    assert.ok(
      counter.every((f) => f.message.includes('Reached from POST /scores')),
      counter.map((f) => f.message).join('\n'),
    );
  });
});

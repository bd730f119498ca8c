/**
 * A Lambda handler a library's factory makes from options holding its callbacks
 * (`export const handler = AuthHandler({ async onSuccess(input) {…} })`, as SST's auth
 * handler is written): the callbacks run when the handler does, so what they call is
 * reached from the handler's trigger. Before, an unnamed callback's calls were the
 * handler's, but a named one (a method, or `onSuccess: async () => …`) was a function
 * nothing called.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findingsOf } from './helpers';

const USERS = [
  'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";',
  'import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";',
  '',
  'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
  '',
  'export async function nextUserNumber(): Promise<void> {',
  '  await doc.send(',
  '    new UpdateCommand({',
  '      TableName: "users",',
  '      Key: { pk: "USER_COUNTER" },',
  '      UpdateExpression: "ADD n :one",',
  '      ExpressionAttributeValues: { ":one": 1 },',
  '    }),',
  '  );',
  '}',
  '',
].join('\n');

const TEMPLATE = [
  'AWSTemplateFormatVersion: "2010-09-09"',
  'Transform: AWS::Serverless-2016-10-31',
  'Resources:',
  '  AuthFunction:',
  '    Type: AWS::Serverless::Function',
  '    Properties:',
  '      Handler: src/auth.handler',
  '      Runtime: nodejs20.x',
  '      Events:',
  '        Callback:',
  '          Type: HttpApi',
  '          Properties: { Path: /auth/callback, Method: GET }',
  '',
].join('\n');

const reach = async (auth: string) => {
  const found = await findingsOf({ 'template.yaml': TEMPLATE, 'src/users.ts': USERS, 'src/auth.ts': auth });
  const counter = found.find((f) => f.at === 'src/users.ts:10' && f.rule === 'SL004');
  assert.ok(counter, found.map((f) => `${f.rule} ${f.at}`).join(', '));
  return /Reached from GET \/auth\/callback/.test(counter.message);
};

test('a method written in the factory options is reached from the handler', async () => {
  const auth = [
    'import { AuthHandler } from "sst/node/future/auth";',
    'import { nextUserNumber } from "./users";',
    '',
    'export const handler = AuthHandler({',
    '  providers: {},',
    '  async onSuccess(input) {',
    '    await nextUserNumber();',
    '    return input;',
    '  },',
    '});',
    '',
  ].join('\n');
  assert.ok(await reach(auth));
});

test('an arrow function given by key in the factory options is reached from the handler', async () => {
  const auth = [
    'import { AuthHandler } from "sst/node/future/auth";',
    'import { nextUserNumber } from "./users";',
    '',
    'export const handler = AuthHandler({',
    '  onSuccess: async () => {',
    '    await nextUserNumber();',
    '  },',
    '});',
    '',
  ].join('\n');
  assert.ok(await reach(auth));
});

test('a method of an object no handler is given is not reached', async () => {
  const auth = [
    'import { AuthHandler } from "sst/node/future/auth";',
    'import { nextUserNumber } from "./users";',
    '',
    'const unused = {',
    '  async onSuccess() {',
    '    await nextUserNumber();',
    '  },',
    '};',
    '',
    'export const handler = AuthHandler({ providers: {} });',
    '',
  ].join('\n');
  assert.equal(await reach(auth), false);
});

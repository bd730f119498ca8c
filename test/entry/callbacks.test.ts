/**
 * A function given by name to a call that runs it for the caller — FastAPI's
 * `background_tasks.add_task(fn, ...)`, a thread pool's `submit`/`map`, `setImmediate(fn)`,
 * `promise.then(fn)`, `records.map(toItem)` — is reached from the caller's entry points; a
 * map runs it once per item.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf } from './helpers';

const FASTAPI = {
  'requirements.txt': 'fastapi\nboto3\n',
  'app/db.py': [
    'import os',
    '',
    'import boto3',
    '',
    'table = boto3.resource("dynamodb").Table(os.environ["LINKS_TABLE"])',
    '',
  ].join('\n'),
  'app/stats.py': [
    'from app.db import table',
    '',
    '',
    'def count_visit(slug: str) -> None:',
    '    table.update_item(',
    '        Key={"pk": "STATS#visits"},',
    '        UpdateExpression="ADD #n :one",',
    '        ExpressionAttributeNames={"#n": slug},',
    '        ExpressionAttributeValues={":one": 1},',
    '    )',
    '',
  ].join('\n'),
  'app/main.py': [
    'from fastapi import BackgroundTasks, FastAPI',
    'from fastapi.responses import RedirectResponse',
    '',
    'from app.db import table',
    'from app.stats import count_visit',
    '',
    'app = FastAPI()',
    '',
    '',
    '@app.get("/{slug}")',
    'def follow(slug: str, background_tasks: BackgroundTasks):',
    '    link = table.get_item(Key={"pk": f"LINK#{slug}"})["Item"]',
    '    background_tasks.add_task(count_visit, slug)',
    '    return RedirectResponse(link["url"])',
    '',
  ].join('\n'),
};

test('a background task FastAPI runs after the response is reached from the route', async () => {
  const fs = await findingsOf(FASTAPI);
  const hits = fs.filter((f) => f.at === 'app/stats.py:6');
  assert.ok(hits.length > 0, fs.map((f) => f.at).join(', '));
  assert.ok(
    hits.some((f) => /Reached from GET \/\{slug\} \(app\/main\.py:10\)/.test(f.message)),
    hits[0].message,
  );
});

test('the same function not given to add_task is reached by nothing', async () => {
  const files = {
    ...FASTAPI,
    'app/main.py': FASTAPI['app/main.py'].replace('    background_tasks.add_task(count_visit, slug)\n', ''),
  };
  const fs = await findingsOf(files);
  assert.ok(fs.filter((f) => f.at === 'app/stats.py:6').every((f) => !/Reached from/.test(f.message)));
});

test('a Lambda handler that maps a function over its records reaches it once per record, not once per batch', async () => {
  const files = {
    'template.yaml': [
      'Transform: AWS::Serverless-2016-10-31',
      'Resources:',
      '  Consumer:',
      '    Type: AWS::Serverless::Function',
      '    Properties:',
      '      Handler: consumer.handler',
      '      Runtime: python3.12',
      '      CodeUri: src/',
      '      Events:',
      '        Queue:',
      '          Type: SQS',
      '          Properties:',
      '            Queue: !GetAtt Jobs.Arn',
      '            BatchSize: 10',
      '  Jobs:',
      '    Type: AWS::SQS::Queue',
      '',
    ].join('\n'),
    'src/consumer.py': [
      'import json',
      'from concurrent.futures import ThreadPoolExecutor',
      '',
      'import boto3',
      '',
      'table = boto3.resource("dynamodb").Table("jobs")',
      '',
      '',
      'def settings():',
      '    return table.get_item(Key={"pk": "CONFIG", "sk": "limits"}).get("Item", {})',
      '',
      '',
      'def handler(event, context):',
      '    with ThreadPoolExecutor(max_workers=4) as pool:',
      '        list(pool.map(settings_for, event["Records"]))',
      '',
      '',
      'def settings_for(record):',
      '    return settings(), json.loads(record["body"])',
      '',
    ].join('\n'),
  };
  const read = at(await findingsOf(files), 'src/consumer.py:10');
  assert.match(read.message, /Reached from the queue consumer handler \(template\.yaml:11\)/);
  assert.doesNotMatch(read.message, /Once per batch/);
  // Called once by the handler itself: once per batch.
  files['src/consumer.py'] = files['src/consumer.py'].replace(
    '        list(pool.map(settings_for, event["Records"]))',
    '        list(pool.map(json.loads, [r["body"] for r in event["Records"]]))\n    return settings()',
  );
  assert.match(at(await findingsOf(files), 'src/consumer.py:10').message, /Once per batch/);
});

test('JavaScript: a function given to setImmediate and to .then is reached from the route', async () => {
  const files = {
    'package.json':
      '{ "name": "links", "dependencies": { "express": "^4.19.2", "@aws-sdk/lib-dynamodb": "^3.600.0" } }',
    'src/stats.js': [
      "const { UpdateCommand } = require('@aws-sdk/lib-dynamodb');",
      "const { doc } = require('./db');",
      '',
      'async function countVisit() {',
      '  await doc.send(',
      "    new UpdateCommand({ TableName: 'links', Key: { pk: 'STATS#visits' }, UpdateExpression: 'ADD visits :one', ExpressionAttributeValues: { ':one': 1 } }),",
      '  );',
      '}',
      '',
      'module.exports = { countVisit };',
      '',
    ].join('\n'),
    'src/db.js': [
      "const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');",
      "const { DynamoDBDocumentClient } = require('@aws-sdk/lib-dynamodb');",
      '',
      'exports.doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
      '',
    ].join('\n'),
    'src/app.js': [
      "const express = require('express');",
      "const { countVisit } = require('./stats');",
      '',
      'const app = express();',
      '',
      "app.get('/:slug', (req, res) => {",
      '  setImmediate(countVisit);',
      "  res.redirect('/');",
      '});',
      '',
      'app.listen(3000);',
      '',
    ].join('\n'),
  };
  const fs = await findingsOf(files);
  const hits = fs.filter((f) => f.at === 'src/stats.js:6');
  assert.ok(
    hits.some((f) => /Reached from GET \/:slug/.test(f.message)),
    hits.map((f) => f.message).join('\n'),
  );
  files['src/app.js'] = files['src/app.js'].replace('setImmediate(countVisit);', 'Promise.resolve().then(countVisit);');
  const then = (await findingsOf(files)).filter((f) => f.at === 'src/stats.js:6');
  assert.ok(then.some((f) => /Reached from GET \/:slug/.test(f.message)));
});

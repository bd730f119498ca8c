// Requests no SDK would send, aimed at the lab's own code: operation names
// that are properties of every JavaScript object, form field names that walk
// into Object.prototype, and values nested thousands of levels deep. Each
// must get the service's 400 error, and the lab must keep serving.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BatchWriteItemCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { decodeCbor, encodeCbor } from '../../lab/cloudwatch/cbor';
import { boardTable, createTable, DDB_HEADERS, rawPost, startTestLab, type TestLab } from './helpers';

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const NESTING =
  'Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit';
const json = (b: Buffer) => JSON.parse(b.toString()) as Record<string, unknown>;

/** A value `wraps` lists deep around a string: `wraps + 1` levels, the top-level attribute being level 1. */
const nestedText = (wraps: number) => '{"L":['.repeat(wraps) + '{"S":"x"}' + ']}'.repeat(wraps);
function nested(wraps: number): AttributeValue {
  let v: AttributeValue = { S: 'x' };
  for (let i = 0; i < wraps; i++) v = i % 2 ? { L: [v] } : { M: { m: v } };
  return v;
}

describe('hostile requests', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab();
    await createTable(t.ddb, boardTable('hostile'));
  });
  after(() => t.close());

  const stillServing = async () => {
    await t.ddb.send(new PutItemCommand({ TableName: 'hostile', Item: { PK: { S: 'ok' }, SK: { S: 'ok' } } }));
    const r = await t.ddb.send(new GetItemCommand({ TableName: 'hostile', Key: { PK: { S: 'ok' }, SK: { S: 'ok' } } }));
    assert.equal(r.Item?.PK.S, 'ok');
  };

  test('operation names that are Object.prototype members are unknown operations, not 500s', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const ddb = await rawPost(t.lab.url, DDB_HEADERS(name), '{}');
      assert.equal(ddb.status, 400, `DynamoDB ${name}: ${ddb.body}`);
      assert.equal(json(ddb.body).__type, 'com.amazon.coral.service#UnknownOperationException', name);

      const cwJson = await rawPost(
        t.lab.url,
        { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `GraniteServiceVersion20100801.${name}` },
        '{}',
      );
      assert.equal(cwJson.status, 400, `CloudWatch JSON ${name}`);
      assert.equal(json(cwJson.body).__type, 'com.amazonaws.cloudwatch#UnknownOperationException', name);

      const cwCbor = await rawPost(
        `${t.lab.url}/service/GraniteServiceVersion20100801/operation/${name}`,
        { 'content-type': 'application/cbor', 'smithy-protocol': 'rpc-v2-cbor' },
        encodeCbor({}),
      );
      assert.equal(cwCbor.status, 400, `CloudWatch CBOR ${name}`);
      if (cwCbor.headers['content-type'] === 'application/cbor') {
        assert.match((decodeCbor(cwCbor.body) as { __type: string }).__type, /#UnknownOperationException$/);
      } else {
        // "__proto__" is not a CBOR operation path at all: the lab names the request it could not route.
        assert.match(String(json(cwCbor.body).__type), /#UnknownOperationException$/);
      }

      const cwQuery = await rawPost(
        t.lab.url,
        { 'content-type': 'application/x-www-form-urlencoded' },
        `Action=${encodeURIComponent(name)}&Version=2010-08-01`,
      );
      assert.equal(cwQuery.status, 400, `CloudWatch query ${name}`);
      assert.match(cwQuery.body.toString(), /<Code>InvalidAction<\/Code>/);
    }
    await stillServing();
  });

  test('awsQuery field names cannot set properties on every object in the lab process', async () => {
    const r = await rawPost(
      t.lab.url,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'Action=GetMetricStatistics&__proto__.labPolluted=yes&Namespace=AWS%2FDynamoDB',
    );
    assert.equal(r.status, 400); // missing parameters, answered normally
    assert.equal(({} as Record<string, unknown>).labPolluted, undefined, 'Object.prototype was modified');
    await stillServing();
  });

  test('an attribute nested 5,000 levels deep is a ValidationException, before anything recurses', async () => {
    for (const wraps of [5_000, 200_000]) {
      const body = `{"TableName":"hostile","Item":{"PK":{"S":"d"},"SK":{"S":"d"},"deep":${nestedText(wraps)}}}`;
      const r = await rawPost(t.lab.url, DDB_HEADERS('PutItem'), body);
      assert.equal(r.status, 400, `${wraps} levels: ${r.body.toString().slice(0, 200)}`);
      assert.deepEqual(json(r.body), { __type: 'com.amazon.coral.validate#ValidationException', message: NESTING });
    }
    // A body that is nothing but brackets, megabytes of them, is refused unparsed.
    const brackets = await rawPost(t.lab.url, DDB_HEADERS('GetItem'), '['.repeat(4_000_000));
    assert.equal(brackets.status, 400);
    await stillServing();
  });

  test('32 levels are accepted and 33 refused, wherever a value appears', async () => {
    const key = { PK: { S: 'n' }, SK: { S: 'n' } };
    await t.ddb.send(new PutItemCommand({ TableName: 'hostile', Item: { ...key, v: nested(31) } }));
    const back = await t.ddb.send(new GetItemCommand({ TableName: 'hostile', Key: key }));
    assert.ok(back.Item?.v, '32 levels stored');
    const refusals = [
      new PutItemCommand({ TableName: 'hostile', Item: { ...key, v: nested(32) } }),
      new UpdateItemCommand({
        TableName: 'hostile',
        Key: key,
        UpdateExpression: 'SET v = :v',
        ExpressionAttributeValues: { ':v': nested(40) },
      }),
      new BatchWriteItemCommand({
        RequestItems: { hostile: [{ PutRequest: { Item: { ...key, v: nested(32) } } }] },
      }),
      new TransactWriteItemsCommand({
        TransactItems: [{ Put: { TableName: 'hostile', Item: { ...key, v: nested(32) } } }],
      }),
      new GetItemCommand({ TableName: 'hostile', Key: { PK: nested(33), SK: { S: 'n' } } }),
    ];
    for (const cmd of refusals) {
      await assert.rejects(t.ddb.send(cmd as never), (e: Error) => {
        assert.equal(e.name, 'ValidationException', `${cmd.constructor.name}: ${e.message}`);
        assert.equal(e.message, NESTING);
        return true;
      });
    }
    await stillServing();
  });

  // Found by fuzz/lab.ts: each answered 500 with a JavaScript TypeError.
  test('nulls where values belong, values where structures belong: 400s', async () => {
    for (const [op, body] of [
      ['GetItem', { TableName: 'hostile', Key: { PK: null, SK: { S: 'x' } } }],
      ['PutItem', { TableName: 'hostile', Item: { PK: { S: 'a' }, SK: { S: 'b' }, l: { L: [null] } } }],
      ['PutItem', { TableName: 'hostile', Item: { PK: { S: 'a' }, SK: { S: 'b' }, s: { SS: [null] } } }],
      ['BatchGetItem', { RequestItems: { hostile: null } }],
      ['BatchWriteItem', { RequestItems: { hostile: [null] } }],
    ] as const) {
      const r = await rawPost(t.lab.url, DDB_HEADERS(op), JSON.stringify(body));
      assert.equal(r.status, 400, `${op} ${JSON.stringify(body)}: ${r.body}`);
      assert.equal(json(r.body).__type, 'com.amazon.coral.service#SerializationException');
    }
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const body of [
      'Action=GetMetricData&Version=2010-08-01&MetricDataQueries=x&MetricDataQueries.member.1.Id=a',
      'Action.x=GetMetricData&Version=2010-08-01',
    ]) {
      const r = await rawPost(t.lab.url, form, body);
      assert.equal(r.status, 400, `${body}: ${r.body}`);
    }
    const cbor = await rawPost(
      `${t.lab.url}/service/GraniteServiceVersion20100801/operation/GetMetricStatistics`,
      { 'content-type': 'application/cbor', 'smithy-protocol': 'rpc-v2-cbor' },
      encodeCbor({
        Namespace: 'AWS/DynamoDB',
        MetricName: 'X',
        StartTime: 0,
        EndTime: 60,
        Period: 60,
        Statistics: [{}],
      }),
    );
    assert.equal(cbor.status, 400);
    assert.equal(cbor.headers['x-amzn-query-error'], 'InvalidParameterValue;Sender');
    await stillServing();
  });
});

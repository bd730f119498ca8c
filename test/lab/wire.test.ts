// The wire: bad input gets the service's error shapes and the lab keeps
// serving; CloudWatch answers in all three protocols its clients use (AWS
// JSON 1.0 from the JS SDK, RPC v2 CBOR from current botocore, awsQuery from
// older botocore); unsupported operations are named in the error.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DescribeLimitsCommand,
  ExecuteStatementCommand,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { GetMetricStatisticsCommand, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { decodeCbor, encodeCbor } from '../../lab/cloudwatch/cbor';
import { boardTable, createTable, DDB_HEADERS, rawPost, startTestLab, type TestLab } from './helpers';

const CW_JSON = (op: string) => ({
  'content-type': 'application/x-amz-json-1.0',
  'x-amz-target': `GraniteServiceVersion20100801.${op}`,
});
const json = (b: Buffer) => JSON.parse(b.toString()) as Record<string, unknown>;

describe('wire protocol and bad input', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab();
    await createTable(t.ddb, boardTable('wire'));
    await t.ddb.send(
      new PutItemCommand({ TableName: 'wire', Item: { PK: { S: 'k' }, SK: { S: 's' }, n: { N: '1' } } }),
    );
  });
  after(() => t.close());

  const stillServing = async () => {
    const r = await t.ddb.send(new GetItemCommand({ TableName: 'wire', Key: { PK: { S: 'k' }, SK: { S: 's' } } }));
    assert.equal(r.Item?.n.N, '1');
  };

  test('binds to loopback unless told otherwise', () => {
    assert.equal(t.lab.host, '127.0.0.1');
    assert.match(t.lab.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('malformed JSON and non-object bodies get SerializationException', async () => {
    for (const body of ['{"TableName": ', '[1,2]', '"text"', '']) {
      const r = await rawPost(t.lab.url, DDB_HEADERS('GetItem'), body);
      assert.equal(r.status, 400, body);
      assert.equal(json(r.body).__type, 'com.amazon.coral.service#SerializationException', body);
      assert.ok(r.headers['x-amz-crc32'], 'DynamoDB replies carry x-amz-crc32 (boto3 checks it)');
    }
    await stillServing();
  });

  test('wrong member types get SerializationException, bad values ValidationException', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['PutItem', { TableName: 123, Item: {} }, 'SerializationException'],
      ['PutItem', { TableName: 'wire', Item: 'not a map' }, 'SerializationException'],
      ['GetItem', { TableName: 'wire', Key: { PK: { S: 'k' } } }, 'ValidationException'],
      ['Query', { TableName: 'wire', KeyConditionExpression: 'PK = :v' }, 'ValidationException'],
      ['UpdateContributorInsights', { TableName: 5, ContributorInsightsAction: 'ENABLE' }, 'SerializationException'],
      ['UpdateContributorInsights', { TableName: 'wire', ContributorInsightsAction: 'MAYBE' }, 'ValidationException'],
      ['TransactWriteItems', { TransactItems: 'x' }, 'SerializationException'],
      ['TransactWriteItems', { TransactItems: [] }, 'ValidationException'],
      [
        'BatchWriteItem',
        {
          RequestItems: {
            wire: Array.from({ length: 26 }, (_, i) => ({
              DeleteRequest: { Key: { PK: { S: `${i}` }, SK: { S: 'x' } } },
            })),
          },
        },
        'ValidationException',
      ],
    ];
    for (const [op, body, type] of cases) {
      const r = await rawPost(t.lab.url, DDB_HEADERS(op), JSON.stringify(body));
      assert.equal(r.status, 400, `${op} ${JSON.stringify(body).slice(0, 60)}`);
      assert.match(String(json(r.body).__type), new RegExp(`#${type}$`), `${op}: ${r.body.toString().slice(0, 200)}`);
    }
    await stillServing();
  });

  test('unknown targets and unsupported operations are named in the error', async () => {
    const unknown = await rawPost(
      t.lab.url,
      { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'Kinesis_20131202.PutRecord' },
      '{}',
    );
    assert.equal(unknown.status, 400);
    assert.equal(json(unknown.body).__type, 'com.amazon.coral.service#UnknownOperationException');
    assert.match(String(json(unknown.body).message), /Kinesis_20131202\.PutRecord/);
    for (const cmd of [
      new ExecuteStatementCommand({ Statement: 'SELECT * FROM wire' }),
      new DescribeLimitsCommand({}),
    ]) {
      await assert.rejects(t.ddb.send(cmd as never), (e: Error) => {
        assert.equal(e.name, 'UnknownOperationException');
        assert.match(e.message, new RegExp(`DynamoDB operation ${cmd.constructor.name.replace(/Command$/, '')}`));
        return true;
      });
    }
    await assert.rejects(
      t.cw.send(new PutMetricDataCommand({ Namespace: 'x', MetricData: [{ MetricName: 'm', Value: 1 }] })),
      (e: Error) => {
        assert.match(e.message, /CloudWatch operation PutMetricData/);
        return true;
      },
    );
    await stillServing();
  });

  test("bodies over the services' request limits get 413 and the lab keeps serving", async () => {
    const big = Buffer.alloc(16 * 1024 * 1024 + 10, 0x20);
    const r = await rawPost(t.lab.url, DDB_HEADERS('PutItem'), big);
    assert.equal(r.status, 413);
    assert.match(String(json(r.body).message), /16777216/);
    const cw = await rawPost(t.lab.url, CW_JSON('GetMetricData'), Buffer.alloc(1024 * 1024 + 1, 0x20));
    assert.equal(cw.status, 413);
    // An item over 400 KB is the item-size limit, a ValidationException.
    await assert.rejects(
      t.ddb.send(
        new PutItemCommand({
          TableName: 'wire',
          Item: { PK: { S: 'big' }, SK: { S: 'x' }, d: { S: 'x'.repeat(401 * 1024) } },
        }),
      ),
      { name: 'ValidationException' },
    );
    await stillServing();
    assert.ok((await t.ddb.send(new ListTablesCommand({}))).TableNames?.includes('wire'));
  });

  test('CloudWatch JSON errors carry the query error code the SDK maps', async () => {
    const bad = await rawPost(t.lab.url, CW_JSON('GetMetricStatistics'), '{not json');
    assert.equal(bad.status, 400);
    assert.ok(bad.headers['x-amzn-query-error']);
    const missing = await rawPost(
      t.lab.url,
      CW_JSON('GetMetricStatistics'),
      JSON.stringify({ Namespace: 'AWS/DynamoDB', MetricName: 'X', Period: 1, Statistics: ['Sum'] }),
    );
    assert.equal(missing.status, 400);
    assert.equal(missing.headers['x-amzn-query-error'], 'MissingParameter;Sender');
    assert.equal(json(missing.body).__type, 'com.amazonaws.cloudwatch#MissingRequiredParameterException');
    await assert.rejects(
      t.cw.send(
        new GetMetricStatisticsCommand({
          Namespace: 'AWS/DynamoDB',
          MetricName: 'X',
          StartTime: new Date(),
          EndTime: new Date(Date.now() + 1000),
          Period: 0,
          Statistics: ['Sum'],
        }),
      ),
      { name: 'InvalidParameterValueException' },
    );
  });

  test('CloudWatch over RPC v2 CBOR (current botocore)', async () => {
    const now = Date.now();
    const body = encodeCbor({
      Namespace: 'AWS/DynamoDB',
      MetricName: 'ConsumedWriteCapacityUnits',
      Dimensions: [{ Name: 'TableName', Value: 'wire' }],
      StartTime: new Date(now - 60_000),
      EndTime: new Date(now + 1000),
      Period: 60,
      Statistics: ['Sum'],
    });
    const headers = {
      'content-type': 'application/cbor',
      accept: 'application/cbor',
      'smithy-protocol': 'rpc-v2-cbor',
    };
    const r = await rawPost(
      `${t.lab.url}/service/GraniteServiceVersion20100801/operation/GetMetricStatistics`,
      headers,
      body,
    );
    assert.equal(r.status, 200);
    assert.equal(r.headers['smithy-protocol'], 'rpc-v2-cbor');
    const out = decodeCbor(r.body) as { Datapoints: Array<{ Sum: number; Timestamp: Date }> };
    assert.equal(
      out.Datapoints.reduce((s, d) => s + d.Sum, 0),
      1,
    );
    assert.ok(out.Datapoints[0].Timestamp instanceof Date, 'timestamps travel as CBOR tag 1');
    const err = await rawPost(
      `${t.lab.url}/service/GraniteServiceVersion20100801/operation/GetInsightRuleReport`,
      headers,
      encodeCbor({ RuleName: 'nope', StartTime: new Date(now - 1000), EndTime: new Date(now), Period: 1 }),
    );
    assert.equal(err.status, 404);
    assert.equal(
      (decodeCbor(err.body) as { __type: string }).__type,
      'com.amazonaws.cloudwatch#ResourceNotFoundException',
    );
    const garbage = await rawPost(
      `${t.lab.url}/service/GraniteServiceVersion20100801/operation/GetMetricData`,
      headers,
      Buffer.from([0xbf, 0x61]),
    );
    assert.equal(garbage.status, 400);
  });

  test('CloudWatch over awsQuery (older botocore)', async () => {
    const now = new Date();
    const form = new URLSearchParams({
      Action: 'GetMetricStatistics',
      Version: '2010-08-01',
      Namespace: 'AWS/DynamoDB',
      MetricName: 'ConsumedWriteCapacityUnits',
      'Dimensions.member.1.Name': 'TableName',
      'Dimensions.member.1.Value': 'wire',
      StartTime: new Date(now.getTime() - 60_000).toISOString(),
      EndTime: new Date(now.getTime() + 1000).toISOString(),
      Period: '60',
      'Statistics.member.1': 'Sum',
    }).toString();
    const r = await rawPost(t.lab.url, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, form);
    assert.equal(r.status, 200);
    const xml = r.body.toString();
    assert.match(xml, /^<GetMetricStatisticsResponse xmlns="http:\/\/monitoring\.amazonaws\.com\/doc\/2010-08-01\/">/);
    assert.match(
      xml,
      /<Datapoints><member><Timestamp>[^<]+Z<\/Timestamp><Unit>Count<\/Unit><Sum>1<\/Sum><\/member><\/Datapoints>/,
    );
    const bad = await rawPost(
      t.lab.url,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'Action=GetMetricStatistics&Period=abc',
    );
    assert.equal(bad.status, 400);
    assert.match(bad.body.toString(), /<Code>(MissingParameter|InvalidParameterValue)<\/Code>/);
  });

  test('requests need no valid signature (as with DynamoDB Local)', async () => {
    const r = await rawPost(
      t.lab.url,
      DDB_HEADERS('GetItem'),
      JSON.stringify({ TableName: 'wire', Key: { PK: { S: 'k' }, SK: { S: 's' } } }),
    );
    assert.equal(r.status, 200);
    assert.equal((json(r.body).Item as { n: { N: string } }).n.N, '1');
  });
});

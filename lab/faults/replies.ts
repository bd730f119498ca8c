// What AWS answers for each fault, in the shapes the services use: DynamoDB's
// AWS JSON 1.0 errors (`__type` with the coral namespace) and CloudWatch's
// errors through the lab's own protocol writer (JSON, CBOR or awsQuery, with
// the awsQuery code the SDKs read from `x-amzn-query-error`).

import { CloudWatchError } from '../cloudwatch/errors';
import type { Fault } from './switch';

/** The account and principal the denial names: fixed, like everything in the lab. */
const PRINCIPAL = 'arn:aws:sts::000000000000:assumed-role/ShardLensLab/lab-user';

export interface DynamoReply {
  status: number;
  body: Record<string, unknown>;
}

export function dynamoFault(f: Fault, op: string, input: Record<string, unknown>): DynamoReply | null {
  const table = typeof input.TableName === 'string' ? input.TableName : '*';
  switch (f.kind) {
    case 'access-denied':
      return {
        status: 400,
        body: {
          __type: 'com.amazon.coral.service#AccessDeniedException',
          Message:
            `User: ${PRINCIPAL} is not authorized to perform: dynamodb:${op} on resource: ` +
            `arn:aws:dynamodb:us-east-1:000000000000:table/${table} because no identity-based policy allows the dynamodb:${op} action`,
        },
      };
    case 'expired-token':
      return {
        status: 400,
        body: {
          __type: 'com.amazon.coral.service#ExpiredTokenException',
          message: 'The security token included in the request is expired',
        },
      };
    case 'throttle':
      return {
        status: 400,
        body: {
          __type: 'com.amazon.coral.availability#ThrottlingException',
          message: 'Rate of requests exceeds the allowed throughput.',
        },
      };
    case 'insights-disabled':
      if (op !== 'DescribeContributorInsights') return null;
      return {
        status: 200,
        body: {
          TableName: table,
          ...(typeof input.IndexName === 'string' ? { IndexName: input.IndexName } : {}),
          ContributorInsightsRuleList: [],
          ContributorInsightsStatus: 'DISABLED',
        },
      };
    default:
      return null;
  }
}

export function cloudWatchFault(f: Fault, op: string): CloudWatchError | null {
  switch (f.kind) {
    case 'access-denied':
      return new CloudWatchError(
        'AccessDeniedException',
        'AccessDenied',
        403,
        `User: ${PRINCIPAL} is not authorized to perform: cloudwatch:${op} because no identity-based policy allows the cloudwatch:${op} action`,
        'Message',
      );
    case 'expired-token':
      return new CloudWatchError(
        'ExpiredTokenException',
        'ExpiredToken',
        403,
        'The security token included in the request is expired',
        'Message',
      );
    case 'throttle':
      return new CloudWatchError('ThrottlingException', 'Throttling', 400, 'Rate exceeded', 'Message');
    default:
      return null;
  }
}

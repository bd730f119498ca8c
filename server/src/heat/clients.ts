import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isLoopback } from './loopback';
import type { HeatConnection } from './types';

/**
 * The two SDK clients one heat fetch uses. Credentials come only from the SDK's
 * default provider chain (environment, shared config and credentials files, SSO,
 * credential_process, container and instance roles): ShardLens never reads, keeps or
 * logs them. The one exception is the local lab, which checks no signature: when the
 * chain has nothing and the endpoint is on this machine, placeholder credentials sign
 * the requests (see `withLabCredentials`).
 */
export interface HeatClients {
  ddb: DynamoDBClient;
  cw: CloudWatchClient;
  /** What the clients were made from, for messages (never credentials). */
  connection: HeatConnection;
  /** Whether the placeholder lab credentials sign the requests. */
  labCredentials: boolean;
  destroy(): void;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** A region the lab is signed for when none is configured: the lab ignores it. */
const LAB_REGION = 'us-east-1';

export function makeClients(connection: HeatConnection, labCredentials = false): HeatClients {
  const region = connection.region ?? (isLoopback(connection.endpoint) ? (regionFromEnv() ?? LAB_REGION) : undefined);
  const config = {
    ...(region ? { region } : {}),
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.profile ? { profile: connection.profile } : {}),
    ...(labCredentials ? { credentials: { accessKeyId: 'shardlens-lab', secretAccessKey: 'shardlens-lab' } } : {}),
    // Retries are ours (backoff.ts): jittered, and reported when they run out.
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: Math.min(3000, connection.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      requestTimeout: connection.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      throwOnRequestTimeout: true,
    },
  };
  const ddb = new DynamoDBClient(config);
  const cw = new CloudWatchClient(config);
  return {
    ddb,
    cw,
    connection,
    labCredentials,
    destroy() {
      ddb.destroy();
      cw.destroy();
    },
  };
}

function regionFromEnv(): string | undefined {
  return process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || undefined;
}

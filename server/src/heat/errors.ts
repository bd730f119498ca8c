import type { HeatConnection, HeatProblem } from './types';

/**
 * Turns whatever an AWS call threw into a message a user can act on. The SDK's
 * errors are told apart by `name` (the service's error code, or the SDK's own class
 * name for local failures) and, for network failures, the Node `code`. Nothing here
 * prints credentials: the messages quote only the profile, region and endpoint the
 * user chose.
 */

export interface CallContext {
  /** The IAM action of the call that failed: `dynamodb:DescribeTable`, `cloudwatch:GetInsightRuleReport`. */
  action: string;
  connection: HeatConnection;
  /** `table "leaderboard"` or `index "byStatus" of table "events"`. */
  resource: string;
}

const ACCESS_DENIED = new Set([
  'AccessDeniedException',
  'AccessDenied',
  'UnauthorizedOperation',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'IncompleteSignatureException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
]);
const EXPIRED = new Set(['ExpiredTokenException', 'ExpiredToken', 'RequestExpired', 'TokenRefreshRequired']);
/** What DynamoDB and CloudWatch answer when the caller (not the table) is going too fast. */
const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ProvisionedThroughputExceededException',
  'LimitExceededException',
]);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EPROTO']);
const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN']);

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

const errorOf = (e: unknown): ErrorLike => (e && typeof e === 'object' ? (e as ErrorLike) : { message: String(e) });

/** The Node network error code anywhere in the cause chain (the SDK wraps them). */
function networkCode(e: ErrorLike): string | undefined {
  for (let x: ErrorLike | undefined = e, i = 0; x && i < 5; x = x.cause ? errorOf(x.cause) : undefined, i++) {
    if (x.code && (UNREACHABLE.has(x.code) || DNS.has(x.code) || x.code === 'ETIMEDOUT')) return x.code;
  }
  return undefined;
}

export function isThrottling(e: unknown): boolean {
  return THROTTLING.has(errorOf(e).name ?? '');
}

/** Worth another try after a pause: throttling, a 5xx, a dropped connection. */
export function isTransient(e: unknown): boolean {
  const x = errorOf(e);
  const status = x.$metadata?.httpStatusCode ?? 0;
  return isThrottling(e) || status >= 500 || x.code === 'ECONNRESET';
}

const profileFlag = (c: HeatConnection) => (c.profile ? ` --profile ${c.profile}` : '');

/** The problem for an error thrown by a call (or by the credential chain before it). */
export function classify(e: unknown, ctx: CallContext): HeatProblem {
  const x = errorOf(e);
  const name = x.name ?? '';
  const message = (x.message ?? '').trim();
  const c = ctx.connection;
  const where = c.endpoint ? `endpoint ${c.endpoint}` : `region ${c.region ?? '(default)'}`;

  if (name === 'CredentialsProviderError' || name === 'TokenProviderError') {
    if (/sso/i.test(message) && /expired|invalid|refresh/i.test(message)) {
      const cmd = `aws sso login${profileFlag(c)}`;
      return {
        code: 'expired-token',
        message: `The SSO session has expired: run \`${cmd}\` and try again.`,
        command: cmd,
      };
    }
    if (/Could not load credentials/i.test(message)) {
      return {
        code: 'no-credentials',
        message:
          'No AWS credentials found. Set AWS_PROFILE or pass --profile, run `aws configure` or `aws sso login`, ' +
          'or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (ShardLens uses the SDK’s default credential chain and stores nothing).',
        command: 'aws configure',
      };
    }
    return { code: 'no-credentials', message: `AWS credentials could not be loaded: ${message}`, command: null };
  }
  if (EXPIRED.has(name)) {
    const cmd = `aws sso login${profileFlag(c)}`;
    return {
      code: 'expired-token',
      message: `The AWS security token has expired (${name}). Refresh your credentials: for an SSO profile run \`${cmd}\`; otherwise get new temporary credentials.`,
      command: cmd,
    };
  }
  if (ACCESS_DENIED.has(name)) {
    const signing = name !== 'AccessDeniedException' && name !== 'AccessDenied' && name !== 'UnauthorizedOperation';
    return {
      code: 'access-denied',
      message: signing
        ? `AWS rejected the credentials (${name}) calling ${ctx.action}: check the profile${c.profile ? ` "${c.profile}"` : ''} and region.`
        : `Access denied: the credentials may not call ${ctx.action} on ${ctx.resource}. Add "${ctx.action}" to the IAM policy of the role or user.`,
      command: null,
    };
  }
  if (name === 'Region is missing' || /region is missing/i.test(message)) {
    return {
      code: 'no-region',
      message: 'No AWS region is set: pass --region, set AWS_REGION, or give the profile a region.',
      command: null,
    };
  }
  if (name === 'ResourceNotFoundException' && ctx.action === 'dynamodb:DescribeTable') {
    return {
      code: 'table-not-found',
      message: `There is no ${ctx.resource} in ${where}${c.profile ? ` (profile ${c.profile})` : ''}: check the table name, region and account.`,
      command: null,
    };
  }
  if (isThrottling(e)) {
    return {
      code: 'throttled',
      message: `AWS kept throttling ${ctx.action} (${name}) after several tries with back-off; try again in a minute or refresh less often.`,
      command: null,
    };
  }
  const code = networkCode(x);
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    return {
      code: 'timeout',
      message: `${where} did not answer ${ctx.action} in time; check the network (a VPN or proxy) and try again.`,
      command: null,
    };
  }
  if (code && DNS.has(code)) {
    return c.endpoint
      ? {
          code: 'endpoint-unreachable',
          message: `Cannot resolve the host of ${c.endpoint}: check the URL.`,
          command: null,
        }
      : {
          code: 'unknown-region',
          message: `Cannot reach DynamoDB in region "${c.region ?? '(default)'}": check that the region exists (e.g. us-east-1, eu-west-1) and that this machine is online.`,
          command: null,
        };
  }
  if (code && UNREACHABLE.has(code)) {
    const lab = c.endpoint ? ' Is the lab running (`shardlens lab`)?' : '';
    return {
      code: 'endpoint-unreachable',
      message: `Cannot connect to ${where} (${code}).${lab}`,
      command: null,
    };
  }
  return {
    code: 'failed',
    message: `${ctx.action} failed on ${ctx.resource}: ${name ? `${name}: ` : ''}${message}`,
    command: null,
  };
}

/** A region name in the shape AWS uses (`us-east-1`, `us-gov-west-1`, `cn-north-1`): anything else cannot exist. */
export function regionLooksValid(region: string): boolean {
  return /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(region);
}

export function unknownRegion(region: string): HeatProblem {
  return {
    code: 'unknown-region',
    message: `"${region}" is not an AWS region name (they look like us-east-1 or eu-west-2): pass --region with one.`,
    command: null,
  };
}

/**
 * An entry point, and how one access is reached from entry points: the leaf of the model's
 * entry-point types, which the access itself names (`Access.reach`), so it imports nothing
 * but positions. `entry-point.ts` holds the rest (what infrastructure code declares, what
 * the reachability pass reads of a file) and re-exports these.
 */
import type { SourceRange } from './range';

/**
 * How a function is reached. `api`: an HTTP route (API Gateway, a web framework);
 * `schedule`: a cron or rate rule; `queue`: SQS batches; `stream`: DynamoDB or Kinesis
 * stream batches; `event`: EventBridge, SNS, S3 notifications; `websocket`: API Gateway
 * WebSocket routes; `script`: a `__main__` block or a CLI bin; `test`: a test file;
 * `unknown`: a Lambda handler no infrastructure code names.
 */
export type EntryKind = 'api' | 'schedule' | 'queue' | 'stream' | 'event' | 'websocket' | 'script' | 'test' | 'unknown';

/** Entry points run once by hand or by a test runner (scripts, tests): they bring no steady traffic. */
export const isOneOffEntry = (kind: EntryKind): boolean => kind === 'test' || kind === 'script';

export interface EntryPoint {
  kind: EntryKind;
  /** The route (`GET /votes`), the rule or the function's logical name. */
  name: string;
  /** The source file of the handler function the entry point invokes. */
  file: string;
  /** The handler function's name in that file (`handler`, `main`), or null for module code. */
  functionName: string | null;
  /** Zero-based line of the handler in `file`, when known. */
  line: number | null;
  /** The trigger as the declaration writes it: "rate(5 minutes)", "GET /votes", "batchSize 10". */
  trigger: string;
  /** Invocations per hour a schedule states (rate(30 minutes) → 2); null when not stated. */
  ratePerHour: number | null;
  /** Records per invocation for queue and stream consumers, when stated. */
  batchSize?: number | null;
  /** Where the entry point is declared (the template, serverless.yml or decorator). */
  source: SourceRange;
  /**
   * The Step Functions state machine the function is a step of: `trigger` then names it and
   * what starts it (`Step Functions Flow, started by cron(...)`), and `kind` is the start's.
   */
  stateMachine?: string;
  /**
   * Read from a Lambda handler's signature alone (`(event: APIGatewayProxyEvent) => …`): what
   * infrastructure code says of the same function replaces it, as for kind `unknown`.
   */
  fromSignature?: true;
}

/**
 * How one access is reached, attached to it by the reachability pass: the entry points
 * that reach it, whether a queue or stream consumer makes it once per batch (outside
 * the loop over the records on every path), and whether no entry point reaches it in a
 * project whose entry points are all known.
 */
export interface AccessReach {
  entryPoints: EntryPoint[];
  oncePerBatch?: true;
  unreached?: true;
}

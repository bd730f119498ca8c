/**
 * Where code runs: the entry points that reach a DynamoDB call, and the functions,
 * tables and triggers that infrastructure code (SAM/CloudFormation, Serverless
 * Framework, CDK, Terraform) and web frameworks declare. Plain data: readers of
 * templates and of framework code produce it, the reachability pass attaches it to
 * accesses, rules read it to decide how hot a path is.
 */
import type { EnvTableSource, SourceRange } from './index';
import type { TableHint } from './call-site';

/**
 * How a function is reached. `api`: an HTTP route (API Gateway, a web framework);
 * `schedule`: a cron or rate rule; `queue`: SQS batches; `stream`: DynamoDB or Kinesis
 * stream batches; `event`: EventBridge, SNS, S3 notifications; `websocket`: API Gateway
 * WebSocket routes; `script`: a `__main__` block or a CLI bin; `test`: a test file;
 * `unknown`: a Lambda handler no infrastructure code names.
 */
export type EntryKind = 'api' | 'schedule' | 'queue' | 'stream' | 'event' | 'websocket' | 'script' | 'test' | 'unknown';

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
}

/** One key attribute of a table or index definition. */
export interface KeyAttribute {
  name: string;
  /** `S`, `N` or `B` when the definition says. */
  type: string | null;
}

export interface IndexDefinition {
  name: string;
  kind: 'global' | 'local';
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute | null;
}

/** A table declared in infrastructure code. */
export interface InfraTable {
  /** The logical id or resource name the template uses (`VotesTable`, `aws_dynamodb_table.votes`). */
  logicalId: string;
  /** The physical table name when the template states one (`TableName`), holes as `{…}`; else null. */
  tableName: string | null;
  partitionKey: KeyAttribute | null;
  sortKey: KeyAttribute | null;
  indexes: IndexDefinition[];
  billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED' | null;
  capacity: { read: number | null; write: number | null } | null;
  /** Contributor Insights as declared: true, false, or null when the template says nothing. */
  contributorInsights: boolean | null;
  source: SourceRange;
}

/** A value in a function's environment: text, or a reference to a table the template declares. */
export type EnvValue =
  | { kind: 'text'; text: string }
  /** `!Ref VotesTable`, `table.tableName`, `aws_dynamodb_table.votes.name`. */
  | { kind: 'table'; logicalId: string }
  /** Text fixed at deploy time, holes as `{$X}` (`votes-${sls:stage}` → `votes-{$sls:stage}`), as `TableRef` kind `template` names it. */
  | { kind: 'template'; text: string }
  /** Anything else (`${self:custom.x}`, `!GetAtt X.Arn`): kept as written. */
  | { kind: 'opaque'; text: string };

/** A function declared in infrastructure code. */
export interface InfraFunction {
  /** Logical id or function key (`VoteFunction`, `vote`). */
  name: string;
  runtime: string | null;
  /** The handler as written (`src/handlers/vote.handler`). */
  handler: string;
  /** The source file the handler leads to, relative to the workspace root, or null when it leads nowhere. */
  handlerFile: string | null;
  /** The exported function the handler names (`handler`). */
  handlerFunction: string | null;
  triggers: EntryPoint[];
  environment: Record<string, EnvValue>;
  source: SourceRange;
}

/** What one infrastructure file declares. */
export interface InfraDeclarations {
  file: string;
  format: 'sam' | 'cloudformation' | 'serverless' | 'cdk' | 'terraform';
  functions: InfraFunction[];
  tables: InfraTable[];
  /** Parts that could not be read, with why (a malformed document, a handler that leads nowhere). */
  skipped: { reason: string; source: SourceRange }[];
  /** The whole file could not be read (malformed, computed): why; absent when it was read. */
  unread?: string;
}

/** What one variable names in one file. */
export type EnvBinding =
  | {
      /** The physical name: literal text, a name with deploy-time holes (`{$Stage}-votes`), or null when not stated. */
      name: string | null;
      template: boolean;
      source: EnvTableSource;
      /** The table's key names from its definition, when the template declares it. */
      keys: TableHint | null;
    }
  | { candidates: string[] };

/** Variable → binding, for one file. */
export type FileEnv = Record<string, EnvBinding>;

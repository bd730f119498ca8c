import type {
  Access,
  AccessSubject,
  Classification,
  Finding,
  FixDescriptor,
  FixKind,
  LogicalKey,
  RelatedLocation,
  Severity,
  ShardCount,
  SourceRange,
  Span,
} from '../model';
import type { InfraDeclarations, InfraTable } from '../model/entry-point';
import type { KeyGroup } from './group';

/**
 * One rule shape for every rule. A rule declares what it is (code, category,
 * severity, which rules it replaces) and returns reports; the runner turns each
 * report into a `Finding`, filling what the rule leaves out:
 *
 * - `span`: the partition key expression at its use site (`GLOBAL_BOARD` in
 *   `PK: GLOBAL_BOARD`), not the whole call;
 * - `related`: the declarations of the constants the key came through.
 *
 * Rules differ only in what they look at: one access (`scope: 'access'`) or every
 * access of one logical key across the workspace (`scope: 'key'`).
 */
export interface RuleInfo {
  code: string;
  category: string;
  defaultSeverity: Severity;
  /** One line for rule tables and SARIF. */
  summary: string;
  /**
   * Rules whose findings on the same access this rule's finding replaces: a read that
   * misses the shards of a sharded key (SL006) is not also a constant key (SL001),
   * because the fix is to read every shard, not to shard again.
   */
  supersedes?: readonly string[];
  /**
   * The kinds of fix descriptor its findings may carry: the features pick a fix by the
   * descriptor a finding carries, never by its rule's code. Empty: nothing mechanical.
   */
  fixKinds: readonly FixKind[];
  /** Each message it reports, by id, in a few words (as ESLint's `meta.messages`); a report names one. */
  messages: Readonly<Record<string, string>>;
  /**
   * The default severity of each message whose default differs from `defaultSeverity`
   * (SL009: a throttled key is a warning, one only near its ceiling is info). Then
   * `defaultSeverity` is the most severe of them: what SARIF and the docs advertise.
   * A user's severity for the rule replaces them all.
   */
  messageSeverities?: Readonly<Record<string, Severity>>;
  /**
   * What the rule judges: DynamoDB requests (absent), a Kafka producer's records
   * (`kafka`, SL020), or tenants routed by a hash (`tenant-route`, SL021). A rule sees
   * only accesses of its own kind.
   */
  subject?: AccessSubject;
  /**
   * Left out in code that runs once (a test, an example, a script) rather than noted
   * there: a design note (SL022) that only traffic over time makes true says nothing of it.
   */
  oneOffDropped?: true;
}

/** A message's default severity: its own where the rule names one, else the rule's. */
export function defaultSeverityOf(rule: RuleInfo, messageId: string): Severity {
  return rule.messageSeverities?.[messageId] ?? rule.defaultSeverity;
}

/** What a rule reports about one access. */
export interface Report {
  access: Access;
  /** One of the rule's `messages`. */
  messageId: string;
  message: string;
  /** The finding's range in `access.file`; default: the partition key expression. */
  span?: Span;
  /** Places that explain it; added after the key's own declarations. */
  related?: RelatedLocation[];
  fixes?: FixDescriptor[];
}

/** What a single-access rule sees of one access. */
export interface AccessInput {
  access: Access;
  key: LogicalKey;
  classification: Classification;
  /** `BOARD#global#{shard 0..9}`. */
  keyTemplate: string;
  /** `table "leaderboard"`, for messages. */
  tableName: string;
  /** The shard count that sharded writers of this logical key in the same file use, if any. */
  shardCount: ShardCount | null;
  /** The separator before the shard part those writers use (`_` in `BOARD#global_{shard}`), if any. */
  shardSeparator: string | null;
}

export interface AccessRule extends RuleInfo {
  scope: 'access';
  check(input: AccessInput): Report | null;
}

export interface KeyRule extends RuleInfo {
  scope: 'key';
  check(group: KeyGroup): Report[];
}

/**
 * A table infrastructure code declares (a template's `AWS::DynamoDB::Table`, a CDK
 * `Table`, a Terraform `aws_dynamodb_table`), with the file that declares it and its format.
 */
export interface DeclaredTable {
  table: InfraTable;
  file: string;
  format: InfraDeclarations['format'];
  /** Index names stated in infrastructure files that could not be read: any may be this table's. */
  indexesNamedUnread?: ReadonlySet<string>;
}

/**
 * What a table rule sees of one declared table: every access known for certain to be on
 * it (its name or environment variable resolves to this definition and no other), and
 * the hot-key findings already reported on those accesses (after each is placed in its
 * file's context and reach).
 */
export interface TableInput {
  declared: DeclaredTable;
  accesses: readonly Access[];
  hot: readonly Finding[];
  /** `template.yaml:12`: a place as messages name it, relative to the workspace folder. */
  where: (at: SourceRange) => string;
}

/**
 * A table rule's report: on an access (in the code, as other rules report), or on the
 * table's definition in its infrastructure file (`at`), carrying `access` only to name
 * the key that makes the table hot.
 */
export interface TableReport extends Report {
  at?: SourceRange;
}

/**
 * A rule over a table infrastructure code declares: the code's requests checked against
 * the definition (key schema, indexes, settings). Run once per declared table; `phase`
 * says whether it needs the other rules' findings (`hot`) first.
 */
export interface TableRule extends RuleInfo {
  scope: 'table';
  phase: 'accesses' | 'findings';
  check(input: TableInput): TableReport[];
}

export type Rule = AccessRule | KeyRule | TableRule;

export const DOCS_BASE = 'https://github.com/shardlens/shardlens/blob/main/docs/rules/';

export function docsUrl(code: string): string {
  return `${DOCS_BASE}${code}.md`;
}

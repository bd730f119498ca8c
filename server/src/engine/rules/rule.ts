import type { Access, Classification, Severity } from '../model';

/** What a rule sees of one access: the access and its partition key's classification. */
export interface RuleInput {
  access: Access;
  classification: Classification;
  /** `BOARD#global#{shard 0..9}`. */
  keyTemplate: string;
  tableName: string;
}

export interface Rule {
  code: string;
  category: string;
  defaultSeverity: Severity;
  /** One line for rule tables and SARIF. */
  summary: string;
  /** The message for this access, or null when the rule does not apply. */
  check(input: RuleInput): string | null;
}

export const DOCS_BASE = 'https://github.com/shardlens/shardlens/blob/main/docs/rules/';

export function docsUrl(code: string): string {
  return `${DOCS_BASE}${code}.md`;
}

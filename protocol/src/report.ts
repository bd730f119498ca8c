/**
 * The `shardlens check --format json` contract, version 1. Other tools read it:
 * change it only by adding a new version.
 */
export type Classification =
  'constant' | 'time-bucket' | 'low-cardinality' | 'counter' | 'sharded' | 'high-cardinality' | 'unknown';

export interface JsonFinding {
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  /** 1-based, exclusive. */
  endColumn: number;
  rule: string;
  category: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  table: string | null;
  keyTemplate: string;
}

export interface JsonAccess {
  file: string;
  line: number;
  column: number;
  operation: string;
  table: string | null;
  partitionKey: {
    attribute: string | null;
    template: string | null;
    classification: Classification;
    shards: number | null;
  };
}

export interface JsonReport {
  version: 1;
  findings: JsonFinding[];
  accesses: JsonAccess[];
}

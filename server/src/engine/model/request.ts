/** How a DynamoDB call is written: its operation, SDK style, the request's fields and the call's form. */
import type { Span } from './range';

export type Operation =
  | 'PutItem'
  | 'GetItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  | 'BatchWriteItem'
  | 'BatchGetItem'
  | 'TransactWriteItems'
  | 'TransactGetItems'
  | 'ExecuteStatement';

export type SdkStyle =
  'aws-sdk-v3' | 'lib-dynamodb' | 'aws-sdk-v2' | 'aws-sdk-v2-document-client' | 'boto3-resource' | 'boto3-client';

/** What a read asks for beyond its key. */
export interface ReadShape {
  /** `Limit`: its value when literal, `dynamic` when computed, null when absent. */
  limit: number | 'dynamic' | null;
  /** `ScanIndexForward` when written as a literal, else null. */
  scanIndexForward: boolean | null;
  projection: string | null;
  /**
   * Fields that change which items or attributes come back (`FilterExpression`,
   * `AttributesToGet`, `Select`...), which a generated reader does not carry over.
   */
  shaping: string[];
  /** `ExpressionAttributeNames` with literal values (`#pk` → `pk`). */
  names: Record<string, string>;
  /** Passes `ExclusiveStartKey` (a loop over `LastEvaluatedKey`). */
  exclusiveStartKey: boolean;
  /** Reads through a paginator (`paginateQuery`, `get_paginator('query')`). */
  paginator: boolean;
  /** `ConsistentRead: true`. */
  consistent: boolean;
  /**
   * The request's other fields as the code writes them, for a reader of every shard that
   * sends them on unchanged; absent when the request is not an object the code spells out.
   */
  written?: WrittenRequest;
}

/** A request field as written: where its value is, and its text when it is a literal. */
export interface WrittenField {
  span: Span;
  literal: string | null;
  /** `condition` for a boto3 `Key(...)` / `Attr(...)` condition object, else what the value is. */
  kind: 'object' | 'array' | 'scalar' | 'condition';
}

/** An entry of `ExpressionAttributeNames` / `ExpressionAttributeValues` as written (`':p': priority`). */
export interface WrittenEntry {
  alias: string;
  /** The whole `alias: value` pair; null when the entry is not written as one (a computed key). */
  pair: Span | null;
}

export interface WrittenRequest {
  /** Every top-level field by name (`FilterExpression`, `Select`, `KeyConditionExpression`...). */
  fields: Record<string, WrittenField>;
  /** The two alias maps' entries; null when the map is not an object literal (built elsewhere). */
  names: WrittenEntry[] | null;
  values: WrittenEntry[] | null;
}

/**
 * How a call is written, for code that must look like the code around it: the
 * client receiver, the call's form, whether the enclosing function is async, and the
 * statement it stands in.
 */
export interface CallStyle {
  /** `ddb`, `docClient`, `table`, `self.table`; null when there is none (`paginateQuery`). */
  receiver: string | null;
  form:
    | 'send-command'
    | 'paginator'
    | 'v2-promise'
    | 'v2-callback'
    | 'v2-call'
    | 'boto3-table'
    | 'boto3-client'
    | 'boto3-batch-writer'
    | 'boto3-paginator';
  /** The command class (`QueryCommand`) or method name (`query`, `put_item`). */
  callee: string;
  async: boolean;
  /** The statement holding the call, and its indentation. */
  statement: Span;
  indent: string;
  /** Whether the call runs when its module loads (no function or class around it): once, not per request. */
  atLoad: boolean;
}

/**
 * AWS CDK code as the infrastructure reader sees it: what a file's statements make and
 * call, read by the language's front-end (`FrontEnd.cdk`) into one vocabulary, so the
 * language-neutral reader (`infra/cdk/`) never looks at syntax. Python's keyword, method
 * and attribute names come camelCased (`partition_key` → `partitionKey`, `from_asset` →
 * `fromAsset`, `table_name` → `tableName`); dictionary keys stay as written.
 * Names bound in the file (`const table = new Table(...)`, `self.table = ...`) are
 * replaced by what they are bound to, so one construct is the same `new` value (same
 * `at`) wherever the file names it.
 */
import type { Span } from './range';

export type CdkValue =
  | { kind: 'text'; text: string; span: Span }
  | { kind: 'number'; value: number; span: Span }
  | { kind: 'bool'; value: boolean; span: Span }
  /** An object literal, a Python dict, or a Python call's keyword arguments. */
  | { kind: 'object'; entries: Array<{ key: string; value: CdkValue }>; span: Span }
  | { kind: 'array'; items: CdkValue[]; span: Span }
  /** A template literal, an f-string or a `+` of texts: literal parts and the other parts as written. */
  | { kind: 'template'; parts: Array<{ text: string } | { hole: CdkValue }>; span: Span }
  /**
   * `new lambda.Function(this, 'Id', {...})`, Python `_lambda.Function(self, "Id", ...)`
   * (a call of a capitalised name): `className` is the last name (`Function`),
   * `qualified` as written (`lambda.Function`). `at`: the offset of the expression,
   * the construct's identity in the file. `props`: the last object argument, or a
   * Python call's keyword arguments.
   */
  | {
      kind: 'new';
      className: string;
      qualified: string;
      args: CdkValue[];
      props: CdkValue | null;
      at: number;
      span: Span;
    }
  /** `a.b(...)` (receiver `a`) or `f(...)` (receiver null). */
  | { kind: 'call'; receiver: CdkValue | null; name: string; args: CdkValue[]; props: CdkValue | null; span: Span }
  /** `a.b`. */
  | { kind: 'member'; object: CdkValue; name: string; span: Span }
  /** A name the file does not bind to a value: a module (`lambda`), a parameter (`props`), `__dirname`. */
  | { kind: 'name'; name: string; span: Span }
  /** Anything else, as written. */
  | { kind: 'opaque'; text: string; span: Span };

/** What a CDK file's code does, statement by statement, in text order. */
export interface CdkFile {
  file: string;
  /**
   * Each statement's expression: an expression statement (`new events.Rule(...)`,
   * `table.grantReadWriteData(fn)`), and the value a declaration or assignment binds
   * (`const table = new TableV2(...)`, `this.fn = new NodejsFunction(...)`).
   */
  statements: CdkValue[];
}

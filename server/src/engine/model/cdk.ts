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
  /**
   * A construct made in another file of the app, reached through a construct's props
   * (`props.table` where `bin/app.ts` passes another stack's `this.table`). Never made
   * by a front-end: the reader (`infra/cdk/links.ts`) puts it where the props were
   * written (`span`), so a construct of this file and one of another never share an `at`.
   */
  | { kind: 'ref'; file: string; construct: Extract<CdkValue, { kind: 'new' }>; span: Span }
  /** Anything else, as written. */
  | { kind: 'opaque'; text: string; span: Span };

/**
 * A parameter of a construct class's constructor after `scope` and `id`: `props` of
 * `(scope, id, props: ApiStackProps)`, each name of a destructured `{ table, queue }`,
 * Python's `table` of `def __init__(self, scope, id, *, table: ITable, **kwargs)`.
 */
export interface CdkParam {
  /** The name the class's code reads it by (`props`, `expenses_table`). */
  name: string;
  /** Its index among a construction's arguments (scope and id count); null for one only passed by keyword (after Python's `*`). */
  position: number | null;
  /** The props key a construction passes it by: a Python keyword (`expensesTable`, camelCased as props are), else null. */
  keyword: string | null;
  /** A name destructured from the parameter at `position` (`{ table }`): the member `table` of that argument. */
  member?: string;
}

/** A class of the file (a stack or a construct of the project's own), as other files construct it. */
export interface CdkClass {
  name: string;
  /** Other files may import it (`export class`; any Python top-level class). */
  exported: boolean;
  params: CdkParam[];
  /** Fields assigned in the class (`this.table = new TableV2(...)`, `self.table = ...`, `table = new Table(...)`), camelCased as members are. */
  fields: Array<{ name: string; value: CdkValue }>;
  /** What the class makes of the construct class it extends, when its constructor calls `super(...)` with arguments. */
  base?: CdkBase;
  span: Span;
}

/**
 * `class AppTable extends dynamodb.Table { constructor(scope, id, props) { super(scope, id, { ...props, partitionKey }) } }`:
 * each construction of `AppTable` makes a `Table` with the props the `super` call gives,
 * its parameters being what that construction passes.
 */
export interface CdkBase {
  /** The class extended, as written (`dynamodb.Table`, `NodejsFunction`). */
  qualified: string;
  /** The names of the constructor's scope and id parameters, and of Python's `**kwargs` (null when absent). */
  scope: string | null;
  id: string | null;
  kwargs: string | null;
  /**
   * The arguments of `super(...)` (Python `super().__init__(...)`), and its props (the last
   * object argument, or the keyword arguments). A spread (`...props`, `**kwargs`) is an
   * entry keyed `...`; `a ?? b` and `a || b` are a call named `??` of `[a, b]`.
   */
  args: CdkValue[];
  props: CdkValue | null;
}

/** One imported name: `local` in this file is `name` of `module` as written (`*` for the whole module, `default`). */
export interface CdkImport {
  local: string;
  module: string;
  name: string;
}

/** What a CDK file's code does, statement by statement, in text order. */
export interface CdkFile {
  file: string;
  /**
   * Each statement's expression: an expression statement (`new events.Rule(...)`,
   * `table.grantReadWriteData(fn)`), and the value a declaration or assignment binds
   * (`const table = new TableV2(...)`, `this.fn = new NodejsFunction(...)`).
   */
  statements: CdkValue[];
  /** The class each statement is in (an index into `classes`), or null for top-level code. */
  classOf: Array<number | null>;
  classes: CdkClass[];
  imports: CdkImport[];
}

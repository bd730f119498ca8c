/**
 * Where code runs: the entry points that reach a DynamoDB call, and the functions,
 * tables and triggers that infrastructure code (SAM/CloudFormation, Serverless
 * Framework, CDK, Terraform) and web frameworks declare. Plain data: readers of
 * templates and of framework code produce it, the reachability pass attaches it to
 * accesses, rules read it to decide how hot a path is.
 */
import type { EnvTableSource, SourceRange } from './index';
import type { TableHint } from './call-site';
import type { EntryKind, EntryPoint } from './entry';
import type { Node } from 'web-tree-sitter';
import type { Span } from './range';

export type { AccessReach, EntryKind, EntryPoint } from './entry';
export { isOneOffEntry } from './entry';

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
  /**
   * Index definitions the reader could not read (a computed name or key): `indexes` is then
   * not every index the table has, and a query naming another index is not known to be wrong.
   */
  unreadIndexes?: number;
  /** Where each index is defined (its list item, block or `add…Index` call), by name, for findings to point at. */
  indexSources?: Record<string, SourceRange>;
  billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED' | null;
  capacity: { read: number | null; write: number | null } | null;
  /** Contributor Insights as declared: true, false, or null when the template says nothing. */
  contributorInsights: boolean | null;
  source: SourceRange;
  /**
   * The definition's first line (`Type: AWS::DynamoDB::Table`, `resource "aws_dynamodb_table" "votes" {`,
   * `new dynamodb.Table(this, 'Votes', {`), in `source.file`: where a finding on the whole
   * table is shown, rather than under every line of the definition.
   */
  header?: Span;
}

/** A value in a function's environment: text, or a reference to a table the template declares. */
export type EnvValue =
  | { kind: 'text'; text: string }
  /**
   * `!Ref VotesTable`, `table.tableName`, `aws_dynamodb_table.votes.name`. `file`: the file
   * declaring the table when it is not the one setting the variable (a CDK stack given
   * another stack's table: `props.table.tableName`).
   */
  | { kind: 'table'; logicalId: string; file?: string }
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
  format: 'sam' | 'cloudformation' | 'serverless' | 'cdk' | 'sst' | 'terraform';
  functions: InfraFunction[];
  tables: InfraTable[];
  /** Parts that could not be read, with why (a malformed document, a handler that leads nowhere). */
  skipped: { reason: string; source: SourceRange }[];
  /** The whole file could not be read (malformed, computed): why; absent when it was read. */
  unread?: string;
  /** When the file was unread: the index names its text states, any of which it may define. */
  indexNamesStated?: string[];
  /**
   * The local module folders the file calls (Terraform `module "x" { source = "./modules/x" }`),
   * absolute: what they declare is declared by the call, with the call's arguments as their
   * variables, so their own files, read alone, declare nothing more (infra.ts).
   */
  modulesCalled?: string[];
  /** DynamoDB requests the file's state machines and APIs make without code (`direct-accesses.ts`). */
  directAccesses?: DirectAccess[];
  /**
   * Triggers this file gives functions another file of its CDK app makes (an API class
   * routing to the functions a lambdas module made), each with the place of that function's
   * construction; the entry points' handler places are filled in where the function is
   * declared (`workspace/infra.ts`).
   */
  triggersOfOthers?: Array<{ function: SourceRange; triggers: EntryPoint[] }>;
}

/**
 * A DynamoDB request written in infrastructure code, not in a program: a Step Functions
 * task (`arn:aws:states:::dynamodb:updateItem`) or an API Gateway integration
 * (`dynamodb:action/GetItem` with a mapping template). No front-end reads it as a call, and
 * no fix can rewrite it: a key it names must not be sharded by a fix of the code alone.
 */
export interface DirectAccess {
  via: 'state-machine' | 'api-gateway';
  /** The state machine's or API's logical id. */
  owner: string;
  /** A state machine's state that makes the request (`Mark escalated`), when the definition names it. */
  step?: string;
  /** `GetItem`, `UpdateItem`, `Query`…: the DynamoDB action, in the API's spelling. */
  operation: string;
  /** The table's physical name when the definition states or substitutes one, else null. */
  table: string | null;
  /** The secondary index a Query names, else null. */
  index: string | null;
  /** The attributes its key, item or key condition names, each with its value when literal text (else null: a path or a variable). */
  attributes: { name: string; value: string | null }[];
  source: SourceRange;
  /**
   * A state machine's request: the kinds of what starts the machine (`api` for a route or an
   * API event, `schedule`, `event`…), as the template says; empty when nothing there starts it
   * (code or a person does: how often is not known).
   */
  startedBy?: EntryKind[];
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

/**
 * A call written inside a function, as the reachability pass follows it: by the name
 * called (`saveVote`, the `save` of `repo.save()`), whether a receiver was written
 * before it, and whether the call sits in a loop of the function (over a batch's records).
 */
export interface CallRef {
  name: string;
  member: boolean;
  inLoop: boolean;
  /**
   * The declared type of the field the method is called on (`this.orders.open()` with
   * `private orders: OrdersService`): the call reaches that type's method, not every one of its name.
   */
  type?: string;
  /**
   * The imported name the receiver starts from (`os.environ.get()`: `os`): when it names a
   * Python module outside the workspace, the call runs that module's code, none of the workspace's.
   */
  via?: string;
}

/**
 * A function of a file as the reachability pass sees it: a named function, a method
 * (`Repo.save`, named `save`), or the inline handler an entry point names (`<GET /votes>`).
 * `loops`: the spans of its loops, so an access can tell whether it runs per record.
 */
export interface FunctionNode {
  /** `save`, `Repo.save` is `save`; `<module>` for a file's top-level code; `<GET /votes>` for an inline handler. */
  name: string;
  span: Span;
  calls: CallRef[];
  loops: Span[];
  /** Importers can reach it (`export`, `module.exports`, any Python top-level function or class method). */
  exported: boolean;
  /**
   * Something in its own file names it besides its definition (a call, a callback, an
   * export list, a handler map), or a decorator registers it: it is not dead code even
   * when no entry point is seen to reach it.
   */
  named?: true;
  /** The class (or object type) whose method it is, by name: a call through a base type reaches the overrides. */
  owner?: string;
}

/**
 * A class or interface a file declares, with the types it extends or implements as
 * written (the last name of a dotted one: `abc.ABC` is `ABC`).
 */
export interface DeclaredType {
  name: string;
  bases: string[];
}

/** One import binding of a file: `local` in this file is `name` of `module` (`*` for the whole module). */
export interface ImportBinding {
  local: string;
  module: string;
  name: string;
  /** A re-export (`export * from './feed'`, `export { a as b } from './stats'`): what importers of this file get. */
  reexport?: true;
}

/**
 * What one file tells the reachability pass: its functions, its imports, the entry
 * points it declares in code (routes, decorators, handler signatures) and whether it
 * holds an application object that declares its routes (`app = Flask(...)`, `express()`).
 */
export interface FileReach {
  file: string;
  functions: FunctionNode[];
  imports: ImportBinding[];
  /** Each entry point with the function of this file it starts at (`root`, a `FunctionNode` name). */
  entries: Array<{ entry: EntryPoint; root: string }>;
  /** A framework application object (Express, Fastify, Koa, Hono, Flask, FastAPI, Chalice, NestJS, Django urls). */
  declaresApp: boolean;
  /** The classes and interfaces it declares: a method called through a base type reaches its overrides. */
  classes: DeclaredType[];
  /** The sha-1 of the text it was read from: a file analysed again with the same text keeps it (`AnalyzeOptions.priorReach`). */
  textHash?: string;
}

/** A function a front-end sees while reading a file for reach. */
export interface SeenFunction {
  name: string;
  span: Span;
  exported: boolean;
  /** A decorator registers it (`@app.task`, `@receiver(...)`, `@OnEvent(...)`): something calls it by that. */
  decorated?: boolean;
}

/** An entry point as read: its handler written inline (`span`) or named (`calls`: `vote`, `views.vote`). */
export interface SeenEntry {
  entry: EntryPoint;
  span: Span | null;
  calls?: Array<{ name: string; member: boolean }>;
}

/** A class or interface as read, with its span: the functions inside it are its methods. */
export interface SeenClass extends DeclaredType {
  span: Span;
  /** The types its fields are declared with (`constructor(private orders: OrdersService)`, `self.store: OrderStore`). */
  fields?: Record<string, string>;
}

export interface SeenCall {
  name: string;
  member: boolean;
  span: Span;
  /** The field of `this`/`self` the method is called on (`this.orders.open()`: `orders`). */
  field?: string;
  /** The variable the method is called on (`repo.get(key)`: `repo`), whose type a `SeenBinding` may say. */
  receiver?: string;
  /** The name the receiver starts from (`os.environ.get()`, `repo.get()`: `os`, `repo`). */
  root?: string;
}

/**
 * The type of a variable holding plain data (a literal, a DynamoDB response, what is read
 * from one: `resp = table.get_item(...)`, `item = resp["Item"]`): `resp.get("Item")` is a
 * dict's method, none of the workspace's.
 */
export const PLAIN_DATA = '<data>';

/**
 * A variable given a value where the reachability pass can say what it is: a parameter, an
 * assignment, a declaration (`repo: VideoRepository = Depends(...)`, `repo = FeatureRepository(db)`,
 * `const repo = new OrdersRepo()`, `resp = table.get_item(...)`). It belongs to the function
 * it is written in (the module for top-level code): a method called on it there, or in a
 * function nested there, runs that type's method.
 */
export interface SeenBinding {
  name: string;
  span: Span;
  /** The class as written, or `PLAIN_DATA`; absent when it is given anything else (its type is then not known). */
  type?: string;
  /** It is given what is read from another variable (`item = resp["Item"]`): data when that one holds data. */
  readFrom?: string;
}

/** What reading one syntax node for reach gives: the functions, entry points, calls, loops and imports it declares. */
export interface ReachPart {
  functions: SeenFunction[];
  entries: SeenEntry[];
  calls: SeenCall[];
  loops: Span[];
  imports: ImportBinding[];
  classes: SeenClass[];
  bindings: SeenBinding[];
}

/**
 * A file read for reach node by node (`FrontEnd.reachReading`): what the whole text
 * decides, and how one node of the types it reads is read. A node's reading may look at the
 * node and the types of its ancestors, and at nothing outside its statement (the outermost
 * ancestor inside one of `containers`) and the gap before it, so an edit leaves the reading
 * of every node whose statement it does not meet as it was: the language server reads only
 * those nodes again (`incremental/reach-cache.ts`).
 */
export interface ReachReading {
  /** What the whole text decides for every node's reading (which nodes are read, marks written anywhere). */
  mode: string;
  /** Entry points of the whole file (a test file, a script run by hand), before any node's. */
  entries: SeenEntry[];
  declaresApp: boolean;
  /** The node types read; every other node is passed over. */
  types: ReadonlySet<string>;
  read(node: Node): ReachPart;
  /** The node types that hold a list of statements (a block, a class body, the program). */
  containers: ReadonlySet<string>;
}

/**
 * AWS CDK apps (TypeScript, JavaScript, Python): the functions, tables and triggers one
 * file's constructs declare, from the language-neutral `CdkFile` its front-end reads
 * (`FrontEnd.cdk`). A construct the app's other files give this file's classes
 * (`props.table` of a stack `bin/app.ts` gives another stack's table) is followed
 * there (links.ts) and named by its file, but declared only by the file that makes it.
 * Never throws.
 */
import * as path from 'node:path';
import { directAccessesOfCdk } from './direct-accesses';
import type { CdkFile, CdkValue } from '../../../model/cdk';
import type { EntryKind, EntryPoint, EnvValue, InfraDeclarations, InfraFunction } from '../../../model/entry-point';
import { entryPoint } from '../events';
import type { InfraFiles } from '../handlers';
import { appFolder, functionOf } from './functions';
import { tableOf } from './tables';
import { FUNCTION_CLASSES, triggersOf, type TriggerOfOther, type Triggers } from './triggers';
import { kindsOf } from '../state-machines';
import { definitionConstructs } from './state-machines';
import { loadApp, type ReadCdk } from './app';
import { linkStatements } from './links';
import { constructId, constructOf, TABLE_CLASSES, type CallValue, type NewValue } from './values';

export { entryOf, type ReadCdk } from './app';

/** Whether a file's text imports the CDK (v2 `aws-cdk-lib`, v1 `@aws-cdk/*`, Python `aws_cdk`): the cheap check before parsing. */
export function importsCdk(text: string): boolean {
  // Every form names `aws-cdk` or `aws_cdk`: looked for first, the line-anchored pattern runs only then.
  return (
    (text.includes('aws-cdk') || text.includes('aws_cdk')) &&
    /['"](?:aws-cdk-lib|@aws-cdk\/)|^\s*(?:from|import)\s+aws_cdk\b/m.test(text)
  );
}

/**
 * What `cdk` declares; `read` reads the app's other files, when their constructions are to be
 * followed. `othersOwn`: constructions another reader declares (SST's, in a stack importing both).
 */
export function declarationsOfCdk(
  cdk: CdkFile,
  files: InfraFiles,
  read?: ReadCdk,
  othersOwn?: (n: NewValue) => boolean,
): InfraDeclarations {
  const file = cdk.file;
  const out: InfraDeclarations = { file, format: 'cdk', functions: [], tables: [], skipped: [] };
  const app = read ? loadApp(cdk, files, read) : { files: new Map([[file, cdk]]), resolve: () => null };
  const { constructs, calls } = collect(linkStatements(cdk, app));
  const folder = appFolder(file, files);
  const byAt = new Map<number, InfraFunction>();
  for (const n of constructs) {
    if (constructId(n) === null || othersOwn?.(n)) continue;
    if (TABLE_CLASSES.has(n.className)) out.tables.push(tableOf(n, calls, file));
    else if (FUNCTION_CLASSES.has(n.className) && !/cloudfront/i.test(n.qualified)) {
      const fn = functionOf(n, calls, file, folder, files, out.skipped);
      byAt.set(n.at, fn);
      out.functions.push(fn);
    }
  }
  const own = { dir: path.dirname(file), files };
  const triggers = triggersOf(constructs, calls, own);
  for (const [at, fnTriggers] of triggers.functions) {
    const fn = byAt.get(at);
    if (!fn) continue;
    const place = { file: fn.handlerFile ?? '', functionName: fn.handlerFunction, line: null };
    fn.triggers.push(...fnTriggers.map((t) => entryPoint(t, place, file)));
  }
  const others = triggersOfOthers(triggers.others, file);
  if (others.length > 0) out.triggersOfOthers = others;
  bindGrantedTables(byAt, calls);
  const direct = directAccessesOfCdk(
    constructs.filter((n) => !othersOwn?.(n)),
    file,
    own,
    machineStartsOf(constructs, triggers.machines),
  );
  if (direct.length > 0) out.directAccesses = direct;
  return out;
}

/** The triggers `file` gives other files' functions, grouped by function; handler places left for their declarer. */
function triggersOfOthers(
  list: readonly TriggerOfOther[],
  file: string,
): NonNullable<InfraDeclarations['triggersOfOthers']> {
  const byPlace = new Map<string, { function: { file: string; span: CdkValue['span'] }; triggers: EntryPoint[] }>();
  const nowhere = { file: '', functionName: null, line: null };
  for (const o of list) {
    const key = `${o.file}\0${o.construct.at}`;
    let entry = byPlace.get(key);
    if (!entry) byPlace.set(key, (entry = { function: { file: o.file, span: o.construct.span }, triggers: [] }));
    entry.triggers.push(entryPoint(o.trigger, nowhere, file));
  }
  return [...byPlace.values()];
}

/**
 * What starts the machine a construct belongs to, by the construct's `at`: the machine's own
 * (its ASL file's tasks) and each task its definition holds. A construct of no machine: absent.
 */
function machineStartsOf(constructs: readonly NewValue[], machines: Triggers): Map<number, EntryKind[]> {
  const out = new Map<number, EntryKind[]>();
  for (const n of constructs) {
    if (n.className !== 'StateMachine') continue;
    const kinds = kindsOf(machines.get(n.at) ?? []);
    out.set(n.at, kinds);
    for (const task of definitionConstructs(n)) out.set(task.at, kinds);
  }
  return out;
}

/**
 * `table.grantReadWriteData(fn)`: the function may use that table. A variable of the
 * function named for a table (`TABLE_NAME`) set to something not read here names the one
 * table the function is granted, when it is granted exactly one table (of this file, or
 * one the app gives it: `props.table.grantReadData(fn)`).
 */
function bindGrantedTables(functions: ReadonlyMap<number, InfraFunction>, calls: readonly CallValue[]): void {
  const granted = new Map<number, Map<string, EnvValue>>();
  for (const c of calls) {
    const table = constructOf(c.receiver);
    const fn = c.args[0];
    if (!/^grant\w*$/.test(c.name) || !table || !TABLE_CLASSES.has(table.construct.className) || fn?.kind !== 'new')
      continue;
    const id = constructId(table.construct);
    if (!id) continue;
    const value: EnvValue = table.file
      ? { kind: 'table', logicalId: id, file: table.file }
      : { kind: 'table', logicalId: id };
    const set = granted.get(fn.at) ?? new Map<string, EnvValue>();
    set.set(`${table.file ?? ''}\0${id}`, value);
    granted.set(fn.at, set);
  }
  for (const [at, fn] of functions) {
    const tables = granted.get(at);
    if (!tables || tables.size !== 1) continue;
    const [only] = tables.values();
    for (const [variable, value] of Object.entries(fn.environment))
      if (value.kind === 'opaque' && /TABLE/i.test(variable)) fn.environment[variable] = only;
  }
}

/** Every construct made and every method called in the statements, each once, in text order. */
export function collect(statements: readonly CdkValue[]): { constructs: NewValue[]; calls: CallValue[] } {
  const constructs = new Map<number, NewValue>();
  const calls = new Map<string, CallValue>();
  const seen = new Set<CdkValue>();
  const visit = (v: CdkValue | null | undefined, depth: number) => {
    if (!v || depth > 60 || seen.has(v)) return;
    seen.add(v);
    switch (v.kind) {
      case 'new':
        if (!constructs.has(v.at)) constructs.set(v.at, v);
        v.args.forEach((a) => visit(a, depth + 1));
        visit(v.props, depth + 1);
        return;
      case 'call': {
        const key = `${v.span.startLine}:${v.span.startColumn}:${v.span.endLine}:${v.span.endColumn}`;
        if (!calls.has(key)) calls.set(key, v);
        visit(v.receiver, depth + 1);
        v.args.forEach((a) => visit(a, depth + 1));
        visit(v.props, depth + 1);
        return;
      }
      case 'member':
        return visit(v.object, depth + 1);
      case 'object':
        return v.entries.forEach((e) => visit(e.value, depth + 1));
      case 'array':
        return v.items.forEach((i) => visit(i, depth + 1));
      case 'template':
        return v.parts.forEach((p) => ('hole' in p ? visit(p.hole, depth + 1) : undefined));
      default:
        return;
    }
  };
  for (const s of statements) visit(s, 0);
  const order = (a: { span: CdkValue['span'] }, b: { span: CdkValue['span'] }) =>
    a.span.startLine - b.span.startLine || a.span.startColumn - b.span.startColumn;
  return { constructs: [...constructs.values()].sort(order), calls: [...calls.values()].sort(order) };
}

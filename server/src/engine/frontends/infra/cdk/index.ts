/**
 * AWS CDK apps (TypeScript, JavaScript, Python): the functions, tables and triggers one
 * file's constructs declare, from the language-neutral `CdkFile` its front-end reads
 * (`FrontEnd.cdk`). Only constructs made in the file are followed: a table passed in
 * from another stack (`props.table.tableName`) is kept as written. Never throws.
 */
import type { CdkFile, CdkValue } from '../../../model/cdk';
import type { EnvValue, InfraDeclarations, InfraFunction } from '../../../model/entry-point';
import { entryPoint } from '../events';
import type { InfraFiles } from '../handlers';
import { appFolder, functionOf } from './functions';
import { tableOf } from './tables';
import { FUNCTION_CLASSES, triggersOf } from './triggers';
import { constructId, TABLE_CLASSES, type CallValue, type NewValue } from './values';

/** Whether a file's text imports the CDK (v2 `aws-cdk-lib`, v1 `@aws-cdk/*`, Python `aws_cdk`): the cheap check before parsing. */
export function importsCdk(text: string): boolean {
  return /['"](?:aws-cdk-lib|@aws-cdk\/)|^\s*(?:from|import)\s+aws_cdk\b/m.test(text);
}

export function declarationsOfCdk(cdk: CdkFile, files: InfraFiles): InfraDeclarations {
  const file = cdk.file;
  const out: InfraDeclarations = { file, format: 'cdk', functions: [], tables: [], skipped: [] };
  const { constructs, calls } = collect(cdk.statements);
  const app = appFolder(file, files);
  const byAt = new Map<number, InfraFunction>();
  for (const n of constructs) {
    if (constructId(n) === null) continue;
    if (TABLE_CLASSES.has(n.className)) out.tables.push(tableOf(n, calls, file));
    else if (FUNCTION_CLASSES.has(n.className) && !/cloudfront/i.test(n.qualified)) {
      const fn = functionOf(n, calls, file, app, files, out.skipped);
      byAt.set(n.at, fn);
      out.functions.push(fn);
    }
  }
  for (const [at, triggers] of triggersOf(constructs, calls)) {
    const fn = byAt.get(at);
    if (!fn) continue;
    const place = { file: fn.handlerFile ?? '', functionName: fn.handlerFunction, line: null };
    fn.triggers.push(...triggers.map((t) => entryPoint(t, place, file)));
  }
  bindGrantedTables(byAt, constructs, calls);
  return out;
}

/**
 * `table.grantReadWriteData(fn)`: the function may use that table. A variable of the
 * function named for a table (`TABLE_NAME`) set to something not read here names the one
 * table the function is granted, when it is granted exactly one of this file's tables.
 */
function bindGrantedTables(
  functions: ReadonlyMap<number, InfraFunction>,
  constructs: readonly NewValue[],
  calls: readonly CallValue[],
): void {
  const granted = new Map<number, Set<string>>();
  const tables = new Map(constructs.filter((n) => TABLE_CLASSES.has(n.className)).map((n) => [n.at, n]));
  for (const c of calls) {
    if (!/^grant\w*$/.test(c.name) || c.receiver?.kind !== 'new') continue;
    const table = tables.get(c.receiver.at);
    const fn = c.args[0];
    const id = table ? constructId(table) : null;
    if (!id || fn?.kind !== 'new') continue;
    const set = granted.get(fn.at) ?? new Set<string>();
    set.add(id);
    granted.set(fn.at, set);
  }
  for (const [at, fn] of functions) {
    const ids = granted.get(at);
    if (!ids || ids.size !== 1) continue;
    const [only] = ids;
    for (const [variable, value] of Object.entries(fn.environment))
      if (value.kind === 'opaque' && /TABLE/i.test(variable))
        fn.environment[variable] = { kind: 'table', logicalId: only } satisfies EnvValue;
  }
}

/** Every construct made and every method called in the statements, each once, in text order. */
function collect(statements: readonly CdkValue[]): { constructs: NewValue[]; calls: CallValue[] } {
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

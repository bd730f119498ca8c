/**
 * SST apps (v3 components, v2 constructs) read as infrastructure code: the tables they
 * declare and the functions SST makes for each handler, with what invokes them. The file's
 * statements come from its front-end as for the CDK (`CdkFile`); nothing is run. Never
 * throws.
 */
import type { CdkFile } from '../../../model/cdk';
import type { NewValue } from '../cdk/values';
import type { InfraDeclarations, InfraFunction } from '../../../model/entry-point';
import { entryPoint } from '../events';
import type { InfraFiles } from '../handlers';
import { collect } from '../cdk';
import { sstAppOf } from './app';
import { madeFunctions, sstFunctionOf } from './functions';
import { sstTableOf } from './tables';

export { importsSst, mayUseSst, SST_CONFIGS } from './app';
export { sstVariablesOf } from '../../../requests/env';

/** Whether a construction of `cdk` is an SST component (for the CDK reader of the same file to leave). */
export function isSstConstruct(cdk: CdkFile, files: InfraFiles): (n: NewValue) => boolean {
  const app = sstAppOf(cdk, files);
  return (n) => app.kindOf(n) !== null;
}

/** What one SST file declares; null when it declares nothing (a file that only looked as if it might). */
export function declarationsOfSst(cdk: CdkFile, files: InfraFiles): InfraDeclarations | null {
  const out: InfraDeclarations = { file: cdk.file, format: 'sst', functions: [], tables: [], skipped: [] };
  const app = sstAppOf(cdk, files);
  const { constructs, calls } = collect(cdk.statements);
  for (const n of constructs) {
    const id = app.tableId(n);
    if (id) out.tables.push(sstTableOf(n, id, n.qualified.startsWith('sst.aws.'), cdk.file));
  }
  for (const made of madeFunctions(constructs, calls, app)) {
    const fn: InfraFunction = sstFunctionOf(made, app, files, out.skipped);
    if (made.trigger) {
      const place = { file: fn.handlerFile ?? '', functionName: fn.handlerFunction, line: null };
      fn.triggers.push(entryPoint(made.trigger, place, cdk.file));
    }
    out.functions.push(fn);
  }
  return out.tables.length || out.functions.length || out.skipped.length ? out : null;
}

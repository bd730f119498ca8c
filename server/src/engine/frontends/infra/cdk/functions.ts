/**
 * Lambda functions as the CDK declares them, and the source file each runs:
 * - `lambda.Function`: `handler: 'index.handler'` under `code: Code.fromAsset('lambda')`;
 * - `NodejsFunction`: its `entry` file (by default `<stack file>.<id>.ts` beside the file
 *   that makes it) and `handler` (default `handler`);
 * - `PythonFunction`: `entry` folder, `index` (default `index.py`), `handler` (default `handler`).
 * A relative path is relative to the CDK app's folder (the one holding `cdk.json`, where
 * `cdk` runs the app); `path.join(__dirname, ...)` to the stack file's folder.
 */
import * as path from 'node:path';
import type { InfraDeclarations, InfraFunction } from '../../../model/entry-point';
import { folderHolding } from '../app-folder';
import { resolveHandler, type HandlerTarget, type InfraFiles } from '../handlers';
import { environmentOf } from './environment';
import {
  argumentOf,
  constructId,
  staticCall,
  lastName,
  pathOf,
  prop,
  textOf,
  written,
  type CallValue,
  type NewValue,
} from './values';

type Skip = InfraDeclarations['skipped'][number];

const NODE_EXTENSIONS = ['.ts', '.js', '.mjs', '.mts', '.cts', '.cjs'];

/** `NODEJS_20_X` → `nodejs20.x`, `PYTHON_3_12` → `python3.12`, `PROVIDED_AL2` → `provided.al2`. */
export function runtimeName(constant: string): string {
  return constant
    .toLowerCase()
    .replace(/^([a-z]+)_(?=\d)/, '$1')
    .replace(/_/g, '.');
}

/** The folder `cdk` runs the app in: the nearest one above the file holding `cdk.json`, else null. */
export function appFolder(file: string, files: InfraFiles): string | null {
  return folderHolding(path.dirname(file), ['cdk.json'], files);
}

export function functionOf(
  n: NewValue,
  calls: readonly CallValue[],
  file: string,
  app: string | null,
  files: InfraFiles,
  skipped: Skip[],
): InfraFunction {
  const id = constructId(n) ?? n.qualified;
  const source = { file, span: n.span };
  const runtime = lastName(prop(n.props, 'runtime'));
  const handlerText = textOf(prop(n.props, 'handler'));
  const target = targetOf(n, id, file, app, files);
  let handlerFile: string | null = null;
  let handlerFunction: string | null = null;
  if ('reason' in target) skipped.push({ reason: `${id}: ${target.reason}`, source });
  else ({ file: handlerFile, fn: handlerFunction } = target);
  return {
    name: id,
    runtime: runtime ? runtimeName(runtime) : null,
    handler: handlerText ?? (n.className === 'Function' ? '' : 'handler'),
    handlerFile,
    handlerFunction,
    triggers: [],
    environment: environmentOf(n, calls),
    source,
  };
}

/** Where a path the code writes is: relative to the app folder, or already placed by `__dirname`. */
function placed(p: { path: string; relative: boolean }, file: string, app: string | null): string {
  if (!p.relative || path.isAbsolute(p.path)) return p.path;
  return path.join(app ?? path.dirname(file), p.path);
}

function targetOf(n: NewValue, id: string, file: string, app: string | null, files: InfraFiles): HandlerTarget {
  const fileDir = path.dirname(file);
  const handler = textOf(prop(n.props, 'handler'));
  if (n.className === 'NodejsFunction') {
    const fn = (handler ?? 'handler').split('.').pop()!;
    const entryValue = prop(n.props, 'entry');
    let entry: string | null;
    if (entryValue) {
      const p = pathOf(entryValue, fileDir);
      if (!p) return { reason: `entry ${written(entryValue)} is not a path written in the code` };
      entry = placed(p, file, app);
    } else {
      // The CDK's convention: `<defining file>.<id>.ts` beside the file that makes it.
      const base = file.replace(/\.[cm]?[jt]s$/, '');
      const tried = NODE_EXTENSIONS.map((e) => `${base}.${id}${e}`);
      entry = tried.find((f) => files.exists(f)) ?? null;
      if (!entry) return { reason: `no entry, and no ${path.basename(base)}.${id}.ts beside the stack` };
    }
    return resolveHandler(`${path.basename(entry)}.${fn}`, path.dirname(entry), files, { entry: path.basename(entry) });
  }
  if (n.className === 'PythonFunction') {
    const entryValue = prop(n.props, 'entry');
    const p = pathOf(entryValue, fileDir);
    if (!p) return { reason: `entry ${written(entryValue)} is not a folder written in the code` };
    const index = textOf(prop(n.props, 'index')) ?? 'index.py';
    return resolveHandler(`${index}.${handler ?? 'handler'}`, placed(p, file, app), files, { entry: index });
  }
  if (!handler) return { reason: 'no handler written as text' };
  const code = prop(n.props, 'code');
  if (staticCall(code, 'Code', 'fromInline')) return { reason: 'inline code, no source file' };
  // `Code.asset` is the CDK v1 name of `Code.fromAsset`, still in older apps.
  const asset = staticCall(code, 'Code', 'fromAsset') ?? staticCall(code, 'Code', 'asset');
  if (!asset) return { reason: `code ${written(code)} is not an asset folder of this workspace` };
  const where = argumentOf(asset, 0, 'path');
  const p = pathOf(where, fileDir);
  if (!p) return { reason: `asset ${written(where)} is not a path written in the code` };
  return resolveHandler(handler, placed(p, file, app), files, { declaredIn: app ?? fileDir });
}

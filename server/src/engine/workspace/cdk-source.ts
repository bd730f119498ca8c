/**
 * An AWS CDK or SST app's source file read as infrastructure code: a file that imports the
 * CDK or makes SST components (a text check, before any parsing) is parsed, its language's
 * front-end reads its statements (`FrontEnd.cdk`), and `infra/cdk/` or `infra/sst/` makes
 * the declarations. Never throws: a file it cannot read comes back with why.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import {
  declarationsOfCdk,
  declarationsOfSst,
  importsCdk,
  isSstConstruct,
  mayUseSst,
  SST_CONFIGS,
  type InfraFiles,
} from '../frontends/infra';
import type { CdkFile } from '../model/cdk';
import type { InfraDeclarations } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';
import { folderHolding } from '../frontends/infra/app-folder';
import { languageForFile, parse } from '../syntax/parser';

/** What a CDK or SST source file declares; null when the file neither imports the CDK nor makes SST components. */
export function readCdkSource(file: string, text: string, files: InfraFiles): InfraDeclarations | null {
  const cdkApp = importsCdk(text);
  const sstApp = mayUseSst(text);
  if (!cdkApp && !sstApp) return null;
  try {
    const read = cdkFileOf(file, text);
    if (!read) return null;
    const sst = sstApp ? declarationsOfSst(read, files) : null;
    if (!cdkApp) return sst;
    // The app's other files are read for the constructs they give this file's classes; one
    // that cannot be read gives none.
    const other = (f: string, t: string) => {
      try {
        return cdkFileOf(f, t);
      } catch {
        return null;
      }
    };
    // An SST v2 stack importing the CDK too (for a construct SST has none of): SST's
    // constructs are SST's (a `Function` of `sst/constructs` has no `code` asset), the rest the CDK's.
    const cdk = declarationsOfCdk(read, files, other, sst ? isSstConstruct(read, files) : undefined);
    return sst ? mergedDeclarations(sst, cdk) : cdk;
  } catch (e) {
    // A parse timeout or a reader bug loses this file only.
    const reason = `reading failed: ${e instanceof Error ? e.message : String(e)}`;
    const span = { startLine: 0, startColumn: 0, endLine: text.split('\n').length - 1, endColumn: 0 };
    return {
      file,
      format: cdkApp ? 'cdk' : 'sst',
      functions: [],
      tables: [],
      skipped: [{ reason, source: { file, span } }],
      unread: reason,
    };
  }
}

/** Both readers' declarations of one file, as SST's (its tables are named by id in code: `sstBindings`). */
function mergedDeclarations(sst: InfraDeclarations, cdk: InfraDeclarations): InfraDeclarations {
  return {
    ...sst,
    functions: [...sst.functions, ...cdk.functions],
    tables: [...sst.tables, ...cdk.tables],
    skipped: [...sst.skipped, ...cdk.skipped],
  };
}

/**
 * A file read as CDK code (it imports the CDK or `constructs`), or null. Kept per text:
 * reading each stack of an app reads the app's other files too.
 */
function cdkFileOf(file: string, text: string): CdkFile | null {
  const language = languageForFile(file);
  const read = language && frontEndFor(language).cdk;
  if (!language || !read || !isCdkText(file, text)) return null;
  const key = `${file}\0${createHash('sha1').update(text).digest('base64')}`;
  const known = readFiles.get(key);
  if (known) return known;
  const tree = parse(language, text);
  try {
    const cdk = read(tree, file);
    if (readFiles.size >= MAX_KEPT) readFiles.clear();
    readFiles.set(key, cdk);
    return cdk;
  } finally {
    tree.delete();
  }
}

const CONSTRUCTS = /['"]constructs['"]|^\s*from\s+constructs\s+import\b/m;

/** Whether a source file's text may be CDK or SST code (it imports the CDK or `constructs`, or makes SST components): the text check, no parsing. */
export function isCdkText(file: string, text: string): boolean {
  return languageForFile(file) !== null && (importsCdk(text) || CONSTRUCTS.test(text) || mayUseSst(text));
}
const MAX_KEPT = 256;
const readFiles = new Map<string, CdkFile>();

/** The files that make a folder an app whose source files may declare infrastructure: a CDK app, an SST app. */
export const APP_CONFIGS = ['cdk.json', ...SST_CONFIGS];

/** Whether a source file lies in a CDK or SST app: a folder above it holds `cdk.json` or `sst.config.ts`. */
export function inCdkApp(file: string, files: InfraFiles): boolean {
  return languageForFile(file) !== null && inCdkFolder(path.dirname(file), files);
}

/** Whether a folder is a CDK or SST app's or lies in one: it or a folder above it holds one of APP_CONFIGS. */
export function inCdkFolder(folder: string, files: InfraFiles): boolean {
  return folderHolding(path.resolve(folder), APP_CONFIGS, files) !== null;
}

/**
 * An AWS CDK app's source file read as infrastructure code: a file that imports the CDK
 * (a text check, before any parsing) is parsed, its language's front-end reads its
 * statements (`FrontEnd.cdk`), and `infra/cdk/` makes the declarations. Never throws: a
 * file it cannot read comes back with why.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { declarationsOfCdk, importsCdk, type InfraFiles } from '../frontends/infra';
import type { CdkFile } from '../model/cdk';
import type { InfraDeclarations } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';
import { languageForFile, parse } from '../syntax/parser';

/** What a CDK source file declares; null when the file does not import the CDK. */
export function readCdkSource(file: string, text: string, files: InfraFiles): InfraDeclarations | null {
  if (!importsCdk(text)) return null;
  try {
    const cdk = cdkFileOf(file, text);
    // The app's other files are read for the constructs they give this file's classes; one
    // that cannot be read gives none.
    const other = (f: string, t: string) => {
      try {
        return cdkFileOf(f, t);
      } catch {
        return null;
      }
    };
    return cdk && declarationsOfCdk(cdk, files, other);
  } catch (e) {
    // A parse timeout or a reader bug loses this file only.
    const reason = `reading failed: ${e instanceof Error ? e.message : String(e)}`;
    const span = { startLine: 0, startColumn: 0, endLine: text.split('\n').length - 1, endColumn: 0 };
    return {
      file,
      format: 'cdk',
      functions: [],
      tables: [],
      skipped: [{ reason, source: { file, span } }],
      unread: reason,
    };
  }
}

/**
 * A file read as CDK code (it imports the CDK or `constructs`), or null. Kept per text:
 * reading each stack of an app reads the app's other files too.
 */
function cdkFileOf(file: string, text: string): CdkFile | null {
  const language = languageForFile(file);
  const read = language && frontEndFor(language).cdk;
  if (!language || !read || !(importsCdk(text) || CONSTRUCTS.test(text))) return null;
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

/** Whether a source file's text may be CDK code (it imports the CDK or `constructs`): the text check, no parsing. */
export function isCdkText(file: string, text: string): boolean {
  return languageForFile(file) !== null && (importsCdk(text) || CONSTRUCTS.test(text));
}
const MAX_KEPT = 256;
const readFiles = new Map<string, CdkFile>();

/** Whether a source file lies in a CDK app: a folder above it holds `cdk.json`. */
export function inCdkApp(file: string, files: InfraFiles): boolean {
  return languageForFile(file) !== null && inCdkFolder(path.dirname(file), files);
}

/** Whether a folder is a CDK app's or lies in one: it or a folder above it holds `cdk.json`. */
export function inCdkFolder(folder: string, files: InfraFiles): boolean {
  let dir = path.resolve(folder);
  for (let i = 0; i < 12; i++) {
    if (files.exists(path.join(dir, 'cdk.json'))) return true;
    const up = path.dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
  return false;
}

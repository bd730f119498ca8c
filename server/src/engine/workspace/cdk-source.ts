/**
 * An AWS CDK app's source file read as infrastructure code: a file that imports the CDK
 * (a text check, before any parsing) is parsed, its language's front-end reads its
 * statements (`FrontEnd.cdk`), and `infra/cdk/` makes the declarations. Never throws: a
 * file it cannot read comes back with why.
 */
import * as path from 'node:path';
import { declarationsOfCdk, importsCdk, type InfraFiles } from '../frontends/infra';
import type { InfraDeclarations } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';
import { languageForFile, parse } from '../syntax/parser';

/** What a CDK source file declares; null when the file does not import the CDK. */
export function readCdkSource(file: string, text: string, files: InfraFiles): InfraDeclarations | null {
  const language = languageForFile(file);
  if (!language || !importsCdk(text)) return null;
  const read = frontEndFor(language).cdk;
  if (!read) return null;
  try {
    const tree = parse(language, text);
    try {
      return declarationsOfCdk(read(tree, file), files);
    } finally {
      tree.delete();
    }
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

/**
 * The infrastructure front-end: what a SAM/CloudFormation template or a Serverless
 * Framework service declares (functions, their triggers and environment, tables), read
 * from the file's text. `readInfrastructure` never throws: a file that is not a template
 * gives null, a template it cannot read gives its reason in `skipped`.
 */
import * as path from 'node:path';
import type { InfraDeclarations } from '../../model/entry-point';
import { isTemplate, readTemplate } from './cloudformation';
import { diskFiles, type InfraFiles } from './handlers';
import { languageForFile } from '../../syntax/parser';
import { isServerless, readServerless } from './serverless';
import { readServerlessModules } from './serverless-modules';
import { readTerraform } from './terraform';
import { parseTree } from './tree';
import { indexNamesStated } from './unread-indexes';

export type { InfraFiles } from './handlers';
export { diskFiles } from './handlers';
export { ratePerHour } from './schedule';
export { declarationsOfCdk, importsCdk } from './cdk';
export { declarationsOfSst, importsSst, isSstConstruct, mayUseSst, SST_CONFIGS, sstVariablesOf } from './sst';
export { ignoreComments } from './comments';

const SERVERLESS_NAME = /^serverless\.(ya?ml|json|ts|js|cjs|mjs)$/;
const TEMPLATE_EXTENSION = /\.(ya?ml|json|template)$/;
const TERRAFORM = /\.tf(\.json)?$/;

/** Files never a template, however much `AWS::` text they hold. */
const NEVER =
  /^(package(-lock)?\.json|tsconfig.*\.json|jsconfig\.json|composer\.(json|lock)|\.?eslintrc.*|\.prettierrc.*|renovate\.json|cdk\.json|cdk\.context\.json|pnpm-lock\.yaml|\.pre-commit-.*)$/;

/** Whether a file may be infrastructure by its name alone (the content decides: `looksLikeInfrastructure`). */
export function isInfrastructureCandidate(file: string): boolean {
  const name = path.basename(file);
  if (NEVER.test(name)) return false;
  return SERVERLESS_NAME.test(name) || TEMPLATE_EXTENSION.test(name) || TERRAFORM.test(name);
}

/** A Serverless service file by its name: `serverless.ts` is one though it is a source file too. */
export function isServerlessFile(file: string): boolean {
  return SERVERLESS_NAME.test(path.basename(file));
}

/** Whether reading `file` needs the tree-sitter grammars loaded (`initParsers`) first: Terraform, and a CDK app's source files. */
export function infrastructureNeedsParsers(file: string): boolean {
  return TERRAFORM.test(file) || languageForFile(file) !== null;
}

/** Whether a file's first bytes look like a template: cheap, so every YAML and JSON file of a project can be asked. */
export function looksLikeInfrastructure(file: string, head: string): boolean {
  if (SERVERLESS_NAME.test(path.basename(file)) || TERRAFORM.test(file)) return true;
  return /AWSTemplateFormatVersion|AWS::(Serverless|DynamoDB|Lambda)::/.test(head);
}

const whole = (text: string) => ({ startLine: 0, startColumn: 0, endLine: text.split('\n').length - 1, endColumn: 0 });

/** What `file` declares, or null when it is not infrastructure code. */
export function readInfrastructure(
  file: string,
  text: string,
  files: InfraFiles = diskFiles,
): InfraDeclarations | null {
  const name = path.basename(file);
  if (TERRAFORM.test(name)) return readTerraformSafely(file, text, files);
  const serverlessName = SERVERLESS_NAME.test(name);
  if (!serverlessName && !looksLikeInfrastructure(file, text)) return null;
  const empty = (reason: string): InfraDeclarations => ({
    file,
    format: serverlessName
      ? 'serverless'
      : /Transform:\s*AWS::Serverless|AWS::Serverless::/.test(text)
        ? 'sam'
        : 'cloudformation',
    functions: [],
    tables: [],
    skipped: [{ reason, source: { file, span: whole(text) } }],
    unread: reason,
    indexNamesStated: indexNamesStated(text),
  });
  try {
    let yamlText = text;
    if (/\.(ts|js|cjs|mjs)$/.test(name)) {
      const literal = plainObjectLiteral(text);
      if ('reason' in literal) return readServiceModules(file, text, files) ?? empty(literal.reason);
      yamlText = literal.text;
    }
    const { root, error } = parseTree(yamlText);
    if (error !== null || !root) return empty(error ?? 'empty document');
    if (isServerless(root)) return readServerless(file, text, root, files);
    if (isTemplate(root)) return readTemplate(file, text, root, files);
    return serverlessName ? empty('not a Serverless service: no `service` with `functions` or `provider`') : null;
  } catch (e) {
    // A reader bug loses this file only.
    return empty(`reading failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * A `serverless.ts` / `.js` that is not one plain literal, read across the modules it
 * imports (`serverless-modules.ts`); null when that finds no service either.
 */
function readServiceModules(file: string, text: string, files: InfraFiles): InfraDeclarations | null {
  let read: ReturnType<typeof readServerlessModules>;
  try {
    read = readServerlessModules(file, text, files);
  } catch {
    // Not parsed (the grammars not loaded, out of time): the literal reader's reason stands.
    return null;
  }
  if ('reason' in read || !isServerless(read.root)) return null;
  return readServerless(file, text, read.root, files, read.texts);
}

function readTerraformSafely(file: string, text: string, files: InfraFiles): InfraDeclarations {
  try {
    return readTerraform(file, text, files);
  } catch (e) {
    // A reader bug loses this file only.
    const reason = `reading failed: ${e instanceof Error ? e.message : String(e)}`;
    return {
      file,
      format: 'terraform',
      functions: [],
      tables: [],
      skipped: [{ reason, source: { file, span: whole(text) } }],
      unread: reason,
      indexNamesStated: indexNamesStated(text),
    };
  }
}

/**
 * A `serverless.ts`/`.js` whose configuration is one object literal of plain values
 * (`module.exports = {...}`, `export default {...}`, `const config: AWS = {...}`): its
 * text with everything else blanked (positions stay those of the file), which YAML reads
 * as a flow mapping. Anything computed (an imported name, a template literal, a spread,
 * a call) is a reason to skip: the file is not run.
 */
const TOKENS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;
const isComment = (m: string) => m.startsWith('//') || m.startsWith('/*');

function plainObjectLiteral(text: string): { text: string } | { reason: string } {
  const start = /(?:module\.exports\s*=|export\s+default|(?:const|let|var)\s+\w+(?:\s*:\s*[\w.<>]+)?\s*=)\s*\{/.exec(
    text,
  );
  if (!start)
    return { reason: 'not read: no object literal configuration (module.exports = {...}, export default {...})' };
  const open = start.index + start[0].length - 1;
  // Strings and comments blanked (same length), so braces and names are found in code only.
  const code = text.replace(TOKENS, (m) =>
    isComment(m) ? m.replace(/[^\n]/g, ' ') : m[0] + m.slice(1, -1).replace(/[^\n]/g, '_') + m[m.length - 1],
  );
  let depth = 0;
  let end = -1;
  for (let i = open; i < code.length; i++) {
    if (code[i] === '{' || code[i] === '[') depth++;
    else if (code[i] === '}' || code[i] === ']') depth--;
    if (depth === 0) {
      end = i + 1;
      break;
    }
  }
  if (end < 0) return { reason: 'not read: the configuration object does not close' };
  const body = code.slice(open, end);
  if (body.includes('`'))
    return { reason: 'not read: the configuration uses template literals (computed when it runs)' };
  if (/\.\.\./.test(body))
    return { reason: 'not read: the configuration spreads other values (computed when it runs)' };
  // A bare name as a value or shorthand property (`handler: handlerPath`, `{ hello }`) or a call.
  const bare = /(?:[:,[]\s*|\{\s*)([A-Za-z_$][\w$.]*)\s*(?=[,}\]()])/g;
  for (let m = bare.exec(body); m; m = bare.exec(body))
    if (!/^(true|false|null)$/.test(m[1]))
      return { reason: `not read: the configuration names \`${m[1]}\` (computed when it runs)` };
  if (/\w\s*\(/.test(body.replace(/'[^']*'|"[^"]*"/g, '')))
    return { reason: 'not read: the configuration calls functions (computed when it runs)' };
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  const original = text.slice(open, end).replace(TOKENS, (m) => (isComment(m) ? blank(m) : m));
  return { text: blank(text.slice(0, open)) + original };
}

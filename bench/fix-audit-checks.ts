// What bench/fix-audit.ts checks of one applied fix: the compilers' complaints about the
// changed files (only those the unfixed file did not have already) and the engine's view
// of the fixed tree against its view of the original one.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import type { Access, FileAnalysis, Finding } from '../server/src/engine';
import { logicalKeysOf } from '../server/src/engine';

const ROOT = path.resolve(__dirname, '..');
const NODE_MODULES = path.join(ROOT, 'node_modules');

/**
 * Public trees come without node_modules: the DynamoDB SDKs and libraries a fix may call
 * resolve from ours, so a fix that misuses them is a type error and not an unresolved import.
 */
const OURS = ['@aws-sdk/*', 'aws-sdk', 'aws-sdk/*', 'electrodb', 'dynamodb-toolbox', 'dynamodb-toolbox/*', 'dynamoose'];
const PATHS: Record<string, string[]> = {
  ...Object.fromEntries(OURS.map((m) => [m, [path.join(NODE_MODULES, m)]])),
  'dynamodb-onetable': [path.join(NODE_MODULES, 'dynamodb-onetable')],
  '@typedorm/*': [path.join(NODE_MODULES, '@typedorm', '*')],
};

/** The nearest tsconfig.json from a file up to the tree's root, read with its `extends`. */
function repoOptions(file: string, root: string): ts.CompilerOptions {
  for (let dir = path.dirname(file); dir.startsWith(root); dir = path.dirname(dir)) {
    const config = path.join(dir, 'tsconfig.json');
    if (!fs.existsSync(config)) continue;
    const read = ts.readConfigFile(config, ts.sys.readFile);
    if (read.error) return {};
    return ts.parseJsonConfigFileContent(read.config, ts.sys, dir).options;
  }
  return {};
}

/** A diagnostic without its position, so the same complaint moved by an edit is the same. */
const said = (d: ts.Diagnostic) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;

let lastProgram: ts.Program | undefined;

/** The type checker's complaints about `files` (TypeScript, and JavaScript with checkJs). */
export function typeComplaints(files: string[], root: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (files.length === 0) return out;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    ...repoOptions(files[0], root),
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
    composite: false,
    incremental: false,
    declaration: false,
    paths: PATHS,
    typeRoots: [path.join(NODE_MODULES, '@types')],
    types: ['node'],
  };
  // The last program's unchanged files (the lib and SDK declarations) are reused: most of the time otherwise.
  const program = ts.createProgram(files, options, undefined, lastProgram);
  lastProgram = program;
  for (const f of files) {
    const sf = program.getSourceFile(f);
    if (!sf) continue;
    out.set(f, [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map(said));
  }
  return out;
}

/** What `after` says that `before` did not (as multisets). */
export function added(before: string[], after: string[]): string[] {
  const left = new Map<string, number>();
  for (const b of before) left.set(b, (left.get(b) ?? 0) + 1);
  return after.filter((a) => {
    const n = left.get(a) ?? 0;
    if (n === 0) return true;
    left.set(a, n - 1);
    return false;
  });
}

const PY_ENV = {
  ...process.env,
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 't',
  AWS_SECRET_ACCESS_KEY: 't',
  // Nothing listens there: a module that calls DynamoDB when imported fails fast.
  AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
  PYTHONDONTWRITEBYTECODE: '1',
};

function pyRun(args: string[], cwd: string): string | null {
  try {
    execFileSync('python3', args, { cwd, env: PY_ENV, stdio: 'pipe', timeout: 30_000 });
    return null;
  } catch (e) {
    const err = String((e as { stderr?: Buffer }).stderr ?? e).trim();
    return err.split('\n').pop() ?? err;
  }
}

/** `python3 -m py_compile` of a file: null when it compiles, else the last line of the complaint. */
export function pyCompile(file: string): string | null {
  return pyRun(
    ['-c', 'import sys, py_compile; py_compile.compile(sys.argv[1], doraise=True)', file],
    path.dirname(file),
  );
}

const STDLIB = new Set(['os', 'sys', 're', 'json', 'time', 'datetime', 'random', 'hashlib', 'math', 'uuid', 'decimal']);
const SELF_CONTAINED = new Set([...STDLIB, 'boto3', 'botocore', 'functools', 'typing', 'logging', 'collections']);
const SELF_CONTAINED_MORE = ['concurrent', 'threading', 'itertools', 'dataclasses', 'base64', 'zlib', 'heapq', 'enum'];
for (const m of SELF_CONTAINED_MORE) SELF_CONTAINED.add(m);

/** Imports only the standard library and boto3: importing it runs nothing of the tree's own. */
export function selfContained(text: string): boolean {
  const roots = [...text.matchAll(/^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))/gm)].flatMap((m) =>
    (m[1] ?? m[2]).split(',').map((s) => s.trim().split(/[.\s]/)[0]),
  );
  return roots.every((r) => r === '' || SELF_CONTAINED.has(r) || r === '__future__');
}

/** Imports a module from its folder: null when it imports, else the last line of the error. */
export function pyImport(file: string): string | null {
  const name = path.basename(file, '.py');
  return pyRun(['-c', `import ${name}`], path.dirname(file));
}

/** `rule file key` of a finding: what stays the same when a fix moves text around. */
export function findingId(f: Finding, root: string): string {
  // A finding on a table's definition (SL013) names the table's first hot finding as its
  // access: which one that is changes when a fix removes another, the finding does not.
  if (f.file !== f.access.file) return `${f.rule} ${path.relative(root, f.file)}`;
  return `${f.rule} ${path.relative(root, f.access.file)} ${keyIdOf(f.access)}`;
}

/** The access's logical key without its shard part (the same before and after a shard fix). */
export function keyIdOf(a: Access): string {
  return logicalKeysOf(a)[0]?.id ?? `{no key} ${a.partitionKey?.attribute ?? ''}`;
}

/**
 * `file operation kind` of each access of a logical key across the tree. A library schema's
 * own site (OneTable: one per Table built from a schema whose template alone fixes the key)
 * stands for no call: it is there only while the key is a constant, so a shard fix removes it.
 */
export function accessesOfKey(results: FileAnalysis[], keyId: string, root: string): string[] {
  return results.flatMap((r) =>
    r.accesses
      .filter((a) => !a.library?.schema && logicalKeysOf(a).some((k) => k.id === keyId))
      .map((a) => `${path.relative(root, a.file)} ${a.operation} ${a.kind}`),
  );
}

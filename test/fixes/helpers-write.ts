// Shared set-up for the write-side fix tests: copy a fixture workspace into
// test-output/ (inside the repository, so the fixed code resolves the real SDKs in
// node_modules), index it with the engine, apply a fix as an editor would, and check
// the result with the real tools: the engine's parser, the TypeScript compiler,
// python3 -m py_compile, and the SDKs against dynalite.

import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after } from 'node:test';
import { promisify } from 'node:util';
import ts from 'typescript';
import dynalite from 'dynalite';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import type { Finding } from '../../server/src/engine/model';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { fixContextOf } from '../../server/src/features/fixes/context';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';

export const ROOT = path.resolve(__dirname, '..', '..');
export const FIXTURES = path.join(__dirname, 'fixtures', 'write');
const OUT = path.join(ROOT, 'test-output', 'fixes');

let copies = 0;
/** A fresh copy of a fixture folder; removed by `cleanup`. */
export function copyFixture(name: string, from = FIXTURES): string {
  const dir = path.join(OUT, `${name}-${process.pid}-${copies++}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(path.join(from, name), dir, { recursive: true });
  return dir;
}

export function cleanup(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Fresh copies of the fixtures in `from` for one test file, all removed after its tests. */
export function fixtureCopier(from: string): (name: string) => string {
  const dirs: string[] = [];
  after(() => dirs.forEach(cleanup));
  return (name) => {
    const dir = copyFixture(name, from);
    dirs.push(dir);
    return dir;
  };
}

export interface Workspace {
  dir: string;
  index: WorkspaceIndex;
  ctx: FixContext;
  findings: Finding[];
}

/** Indexes every source file of a folder, as `shardlens check` would. */
export async function indexWorkspace(dir: string, shards?: { defaultCount?: number; peakWriteUnits?: number }) {
  await initParsers();
  const index = new WorkspaceIndex({ root: dir });
  index.analyzeAll(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => path.join(dir, f)),
  );
  const ctx = fixContextOf(index, { shards });
  const findings = index.results().flatMap((r) => r.findings);
  return { dir, index, ctx, findings } satisfies Workspace;
}

/** The text each file an action changes would have, its changes applied against its text before any (a new file's is empty). */
export function textsAfter(ctx: FixContext, action: FixAction): Map<string, string> {
  const byFile = new Map<string, FixAction['changes']>();
  for (const c of action.changes) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  return new Map([...byFile].map(([file, changes]) => [file, applyChanges(ctx.textOf(file) ?? '', changes)]));
}

/** Writes an action's changes to disk; the files written. */
export function applyAction(ctx: FixContext, action: FixAction): string[] {
  const texts = textsAfter(ctx, action);
  // A copy without a project file of its own belongs to this repository's project, so a new
  // file a fix puts in the project's folder (a backfill script in scripts/) would land in the
  // repository itself: such a file is not written.
  const intoRepository = (file: string) =>
    ctx.textOf(file) === null && file.startsWith(ROOT + path.sep) && !file.startsWith(OUT + path.sep);
  const written = [...texts].filter(([file]) => !intoRepository(file));
  for (const [file, text] of written) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return written.map(([file]) => file);
}

/** `rule key` of each finding: what the engine reports, independent of positions. */
export const findingIds = (fs: Finding[]) =>
  fs.map((f) => `${f.rule} ${f.fixes[0] && 'key' in f.fixes[0] ? f.fixes[0].key : f.access.partitionKey?.attribute}`);

/**
 * TypeScript diagnostics of every .ts/.js file in a folder: TypeScript strictly,
 * JavaScript with checkJs, both against the real SDK typings in node_modules.
 */
export function typeErrors(dir: string): string[] {
  return compileErrors(dir, {});
}

/** `typeErrors` with compiler options of a fixture's own (decorator metadata), compiled to `outDir` when given. */
export function compileErrors(dir: string, options: ts.CompilerOptions): string[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.(ts|js)$/.test(f))
    .map((f) => path.join(dir, f));
  if (files.length === 0) return [];
  const program = ts.createProgram(files, {
    strict: true,
    noImplicitAny: false,
    allowJs: true,
    checkJs: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    ...options,
    noEmit: !options.outDir,
  });
  if (options.outDir) program.emit();
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

/** `python3 -m py_compile` on each .py file; returns the compiler's complaints. */
export function pythonErrors(dir: string): string[] {
  const out: string[] = [];
  // Every folder: a fix may write a new module (a backfill script under scripts/).
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter(
    (x) => x.endsWith('.py') && !x.split(path.sep).includes('__pycache__'),
  );
  for (const f of files) {
    try {
      execFileSync('python3', ['-m', 'py_compile', path.join(dir, f)], { stdio: 'pipe' });
    } catch (e) {
      out.push(`${f}: ${String((e as { stderr?: Buffer }).stderr ?? e)}`);
    }
    fs.rmSync(path.join(dir, path.dirname(f), '__pycache__'), { recursive: true, force: true });
  }
  return out;
}

export type Dynalite = Awaited<ReturnType<typeof startDynalite>>;

/** A dynalite server on a free port and a v3 client of it. */
export async function startDynalite(options: { deleteTableMs?: number } = {}) {
  const server = dynalite({ createTableMs: 0, ...options });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return {
    endpoint,
    client,
    close: async () => {
      client.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const run = promisify(execFile);

/**
 * Runs a driver program in `dir` against DynamoDB at `endpoint`: Python with `python3 -c`
 * and the folder on its path, or TypeScript written to drive.ts and run by tsx from the
 * repository (so it may import the SDKs). `env` adds to the region and credentials.
 * Returns what it printed.
 */
export async function runDriverAt(
  endpoint: string,
  dir: string,
  language: 'node' | 'python',
  source: string,
  env: Record<string, string> = {},
): Promise<string> {
  const all = {
    ...process.env,
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 't',
    AWS_SECRET_ACCESS_KEY: 't',
    PYTHONPATH: dir,
    ...env,
  };
  if (language === 'python')
    return (await run('python3', ['-c', source], { cwd: dir, env: all, timeout: 60_000 })).stdout;
  const drive = path.join(dir, 'drive.ts');
  fs.writeFileSync(drive, source);
  try {
    return (await run(process.execPath, ['--import', 'tsx', drive], { cwd: ROOT, env: all, timeout: 60_000 })).stdout;
  } finally {
    fs.rmSync(drive, { force: true });
  }
}

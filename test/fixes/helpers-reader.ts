// Shared set-up for the reader-fix tests: a fixture workspace held in memory (so fixes
// apply to strings and nothing on disk changes), its analysis with the cross-file rules,
// the TypeScript compiler over the fixed files against the real SDK typings, esbuild
// to run them, and a dynalite server on a loopback port.

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Server } from 'node:http';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import dynalite from 'dynalite';
import type { FileAnalysis } from '../../server/src/engine/analyze';
import type { Finding } from '../../server/src/engine/model';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { applyChanges } from '../../server/src/features/fixes/apply';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'reader');

/** A fixture's files as path → text, at their real paths (so imports resolve to node_modules). */
export type Files = Map<string, string>;

export function loadFixture(name: string): Files {
  const dir = path.join(FIXTURES, name);
  return new Map(fs.readdirSync(dir).map((f) => [path.join(dir, f), fs.readFileSync(path.join(dir, f), 'utf8')]));
}

export interface Workspace {
  files: Files;
  results: FileAnalysis[];
  findings: Finding[];
  ctx: FixContext;
}

/** Analyses the files as `shardlens` does (cross-file rules included) and the fix context over them. */
export async function analyzeWorkspace(files: Files): Promise<Workspace> {
  await initParsers();
  const root = path.dirname([...files.keys()][0]);
  const ix = new WorkspaceIndex({ root, openText: (f) => files.get(f) ?? null });
  for (const f of files.keys()) ix.analyzeFile(f);
  const results = ix.results();
  const ctx: FixContext = {
    textOf: (f) => files.get(f) ?? null,
    analysisOf: (f) => results.find((r) => r.file === f) ?? null,
    accessesOf: (key) =>
      results.flatMap((r) => r.accesses).filter((a) => a.partitionKey && key.attribute === a.partitionKey.attribute),
    shards: { defaultCount: 10, peakWriteUnits: 0 },
  };
  return { files, results, findings: results.flatMap((r) => r.findings), ctx };
}

export function applyAction(files: Files, action: FixAction): Files {
  const out = new Map(files);
  for (const file of new Set(action.changes.map((c) => c.file))) {
    out.set(
      file,
      applyChanges(
        files.get(file) ?? '',
        action.changes.filter((c) => c.file === file),
      ),
    );
  }
  return out;
}

/** TypeScript's diagnostics for the TS files, type-checked against the SDK typings in node_modules. */
export function typeErrors(files: Files): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (f) => files.get(path.resolve(f)) ?? read(f);
  host.fileExists = (f) => files.has(path.resolve(f)) || exists(f);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = files.get(path.resolve(f));
    return text !== undefined ? ts.createSourceFile(f, text, lang) : getSource(f, lang, ...rest);
  };
  const roots = [...files.keys()].filter((f) => /\.ts$/.test(f));
  const program = ts.createProgram(roots, options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

/** Bundles one fixture file (in-memory texts) with esbuild and loads it. */
export async function loadModule(files: Files, entry: string, outDir: string): Promise<Record<string, unknown>> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'in-memory',
        setup(b) {
          b.onLoad({ filter: /.*/ }, (args) => {
            const text = files.get(args.path);
            if (text === undefined) return undefined;
            return {
              contents: text,
              loader: args.path.endsWith('.ts') ? 'ts' : 'js',
              resolveDir: path.dirname(args.path),
            };
          });
        },
      },
    ],
  });
  const out = path.join(
    outDir,
    `${path.basename(entry).replace(/\W/g, '_')}-${Date.now()}-${Math.random().toString(36).slice(2)}.cjs`,
  );
  fs.writeFileSync(out, result.outputFiles[0].text);
  // The bundle is CommonJS written at run time: load it as Node loads any module.
  return createRequire(__filename)(out) as Record<string, unknown>;
}

export interface Dynalite {
  endpoint: string;
  close(): Promise<void>;
}

export async function startDynalite(): Promise<Dynalite> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

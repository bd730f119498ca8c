// Builds every bundle into dist/: the CLI, the language server and the
// VS Code client. `--watch` rebuilds on change; `--production` minifies.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { engineSourceHash } from './scripts/engine-hash.mjs';

const require = createRequire(import.meta.url);
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/** The parser runtime and grammars travel beside the bundles. */
const WASM = [
  'web-tree-sitter/web-tree-sitter.wasm',
  'tree-sitter-typescript/tree-sitter-typescript.wasm',
  'tree-sitter-typescript/tree-sitter-tsx.wasm',
  'tree-sitter-javascript/tree-sitter-javascript.wasm',
  'tree-sitter-python/tree-sitter-python.wasm',
  '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm',
];

function copyGrammars() {
  mkdirSync('dist/grammars', { recursive: true });
  for (const w of WASM) copyFileSync(require.resolve(w), join('dist/grammars', basename(w)));
}

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  // Names kept (stack traces, profiles), blanks and long forms dropped: the CLI bundle is read,
  // decoded and compiled at every start, and a 1.8 MB bundle took ~15 ms longer than its 1.3 MB form.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'info',
  // The engine's source hash keys the analysis cache (scripts/engine-hash.mjs); `--watch` keeps
  // the hash of its start, so a cache made by a watch session's later code can still be read.
  define: {
    SHARDLENS_VERSION: JSON.stringify(pkg.version),
    SHARDLENS_ENGINE_HASH: JSON.stringify(engineSourceHash()),
  },
  // A bundle compiled through V8's code cache (bin/compile-cache.js) has no dynamic-import
  // hook: `import()` becomes `require()`, and the parser runtime comes from its CommonJS
  // build (its ES build declares a local `require` that would shadow the rewritten one).
  supported: { 'dynamic-import': false },
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
};

const builds = [
  {
    ...node,
    entryPoints: { cli: 'server/src/cli/main.ts', 'server-main': 'server/src/lsp/server.ts' },
    outdir: 'dist',
  },
  // The language server's entry: server-main.js through V8's code cache (server/src/lsp/start.ts).
  { ...node, entryPoints: { server: 'server/src/lsp/start.ts' }, outdir: 'dist' },
  // Its live heat's AWS calls (the SDK), loaded when first used (server/src/lsp/load-heat.ts).
  { ...node, entryPoints: { 'server-heat': 'server/src/heat/aws.ts' }, outdir: 'dist' },
  // Live heat (the AWS SDK), loaded by the CLI only for `check --heat` and `heat`.
  { ...node, entryPoints: { 'cli-heat': 'server/src/cli/heat.ts' }, outdir: 'dist' },
  // `shardlens lab`, loaded by the CLI only when asked for; dynalite's disk store is native.
  { ...node, entryPoints: { lab: 'lab/cli.ts' }, outdir: 'dist', external: ['dynalite'] },
  // The extension runs in VS Code's extension host, which provides `vscode`.
  { ...node, entryPoints: { extension: 'client/src/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  // The side panel: a browser bundle (dist/webview.js + dist/webview.css) loaded by the
  // webview under a strict CSP; everything it needs is in these two files.
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: false,
    minify: production,
    logLevel: 'info',
    entryPoints: { webview: 'webview/src/main.ts' },
    outdir: 'dist',
    legalComments: 'eof',
  },
];

copyGrammars();
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

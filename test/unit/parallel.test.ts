import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { assertSameText } from './same-text';

// wrapper-callers: handlers that name no SDK, found only by the pass after indexing;
// powertools-dal: routes reaching their repository through modules that name no entry point.
const PATHS = [
  'examples',
  'test/fixtures/cross',
  'test/fixtures/wrapper-callers',
  'test/fixtures/entry/powertools-dal',
];
const MAX_BYTES = 2048 * 1024;
const GRAMMARS = [
  'web-tree-sitter/web-tree-sitter.wasm',
  'tree-sitter-typescript/tree-sitter-typescript.wasm',
  'tree-sitter-typescript/tree-sitter-tsx.wasm',
  'tree-sitter-javascript/tree-sitter-javascript.wasm',
  'tree-sitter-python/tree-sitter-python.wasm',
  '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm',
];

/**
 * The worker thread runs the file it was started from, so it needs a real bundle (as
 * dist/cli.js is): parallel-run.ts bundled the way esbuild.mjs bundles the CLI, with
 * the grammars beside it.
 */
async function bundle(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-parallel-'));
  fs.mkdirSync(path.join(dir, 'grammars'));
  for (const g of GRAMMARS) fs.copyFileSync(require.resolve(g), path.join(dir, 'grammars', path.basename(g)));
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'parallel-run.ts')],
    outfile: path.join(dir, 'run.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  });
  return path.join(dir, 'run.js');
}

/** The index as the one-thread path builds it. */
async function sequential(): Promise<string> {
  await initParsers();
  const index = new WorkspaceIndex({ root: process.cwd(), maxBytes: MAX_BYTES });
  index.analyzeAll(collectFiles(PATHS).files);
  return JSON.stringify(index.results());
}

test('the analysis thread, started before the walk or after it, indexes exactly what one thread does', async () => {
  const expected = await sequential();
  const results = JSON.parse(expected) as Array<{ file: string; findings: unknown[] }>;
  assert.ok(results.filter((r) => r.findings.length > 0).length > 5);
  // The callers of the wrappers are in: the pass after indexing read them.
  for (const caller of ['home-handler.ts', 'home_view.py'])
    assert.equal(results.find((r) => r.file.endsWith(caller))?.findings.length, 1, caller);
  // The factories' layers are read: each repository's read is reached from its route, an error.
  for (const repository of ['dynamo_dal_handler.py', 'users/repository.py'])
    assert.deepEqual(
      results.find((r) => r.file.endsWith(repository))?.findings.map((f) => (f as { severity: string }).severity),
      ['error'],
      repository,
    );
  const run = await bundle();
  try {
    for (const mode of ['late', 'early', 'mismatch']) {
      const r = spawnSync(process.execPath, [run, mode, String(MAX_BYTES), ...PATHS], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      assert.equal(r.status, 0, `${mode}: ${r.stderr}`);
      assertSameText(r.stdout, expected, mode);
    }
  } finally {
    fs.rmSync(path.dirname(run), { recursive: true, force: true });
  }
});

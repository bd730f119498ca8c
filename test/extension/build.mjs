// Bundles the extension-host test suite (test/extension/index.ts + suite/*.test.ts) into
// out/test/extension/ (git-ignored). `vscode` is provided by the extension host; Mocha is
// loaded from node_modules at run time.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, '..', '..', 'out', 'test', 'extension');
const tests = readdirSync(join(here, 'suite'))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join(here, 'suite', f));

rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: [join(here, 'index.ts'), ...tests],
  outbase: here,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});
console.log(`built ${tests.length} extension test file(s) into ${outdir}`);

// The language server and the CLI as they were at an earlier commit, bundled the way
// esbuild.mjs bundles dist/server.js and dist/cli.js, so the LSP rows and rows (a)/(e)
// can measure the old and the new side by side in one run. Only `git archive` (read-only) touches the repository: the sources
// are unpacked under the benchmark's scratch directory and resolve their packages from
// this checkout's node_modules (the same versions, unless package.json changed since).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Commit id of `ref`, or null when git does not know it. */
export function resolveRef(root, ref) {
  const r = spawnSync('git', ['rev-parse', '--verify', '--short', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * Bundles `server/src/lsp/server.ts` as of `ref` into `<out>/server-<sha>/server.js`
 * (grammars beside it) and returns its path and commit; reuses an earlier bundle of
 * the same commit. Throws with git's or esbuild's message when it cannot.
 */
export async function buildServerAt(root, ref, out) {
  return buildAt(root, ref, out, 'server', path.join('server', 'src', 'lsp', 'server.ts'));
}

/**
 * The CLI as of `ref` (`server/src/cli/main.ts`), bundled as esbuild.mjs bundles
 * dist/cli.js, into `<out>/cli-<sha>/cli.js`: rows (a) and (e) measure it beside the
 * current CLI, so what a change costs is read within one run.
 */
export async function buildCliAt(root, ref, out) {
  return buildAt(root, ref, out, 'cli', path.join('server', 'src', 'cli', 'main.ts'));
}

async function buildAt(root, ref, out, name, entry) {
  const sha = resolveRef(root, ref);
  if (!sha) throw new Error(`git does not know ${ref}`);
  const dir = path.join(out, `${name}-${sha}`);
  const bundle = path.join(dir, `${name}.js`);
  if (fs.existsSync(bundle)) return { bundle, sha };
  const src = path.join(dir, 'src');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  // The server imports only server/ and protocol/ (checked by bundling: a missing file fails);
  // tsconfig.base.json is what their tsconfig.json files extend.
  const tar = path.join(dir, 'src.tar');
  const archive = spawnSync(
    'git',
    ['archive', '--format=tar', '-o', tar, sha, 'server', 'protocol', 'package.json', 'tsconfig.base.json'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (archive.status !== 0) throw new Error(`git archive ${sha}: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-xf', tar, '-C', src], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
  await bundleServer(root, src, dir, name, entry);
  return { bundle, sha };
}

/**
 * Bundles `<src>/server/src/lsp/server.ts` into `<dir>/server.js` with its source map
 * and the grammars beside it, as esbuild.mjs bundles dist/server.js. The benchmark's
 * own copy: dist/ is shared, and a rebuild there during a run would leave a profile
 * mapped through the wrong source map.
 */
export async function bundleServer(
  root,
  src,
  dir,
  name = 'server',
  entry = path.join('server', 'src', 'lsp', 'server.ts'),
) {
  const pkg = JSON.parse(fs.readFileSync(path.join(src, 'package.json'), 'utf8'));
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: { [name]: path.join(src, entry) },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    nodePaths: [path.join(root, 'node_modules')],
    define: { SHARDLENS_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__importMetaUrl' },
    banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  });
  fs.mkdirSync(path.join(dir, 'grammars'), { recursive: true });
  for (const w of fs.readdirSync(path.join(root, 'dist', 'grammars')))
    fs.copyFileSync(path.join(root, 'dist', 'grammars', w), path.join(dir, 'grammars', w));
  return path.join(dir, `${name}.js`);
}

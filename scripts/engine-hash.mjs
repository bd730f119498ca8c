// A hash of the engine's source files, baked into the bundles (esbuild.mjs) and into the
// analysis cache's key: a cache is then never read by a build of other engine code, even
// when its version and CACHE_SCHEMA are the same (a change that alters what an analysis
// holds without a bump, or two bumps to one number merged by a rebase).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The sources under `root`/server/src/engine, by relative path and content; order and mtimes do not count. */
export function engineSourceHash(root = '.') {
  const base = join(root, 'server', 'src', 'engine');
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && e.name.endsWith('.ts')) files.push(full);
    }
  };
  walk(base);
  const hash = createHash('sha256');
  for (const f of files.map((full) => relative(base, full).split(sep).join('/')).sort())
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(join(base, f)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

'use strict';
// Loads the CLI bundle with V8's code cache, as `v8-compile-cache` does for other CLIs
// (Node 22's `module.enableCompileCache` is not in Node 20). Compiling the 1.6 MB bundle
// and the functions a check runs costs ~40 ms of every run, a tenth of a warm
// `check --cache`; with the cache V8 takes the compiled code instead. Anything amiss (no
// private temp folder, a cache V8 rejects, an unreadable file) falls back to compiling: the
// cache can make a run faster, never different.
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

/** Caches a worker thread writes when told its work is done (`writeWorkerCaches`): a thread ended by its parent has no 'exit'. */
const workerWrites = [];

/**
 * `require(file)`, through the code cache when one can be kept; `SHARDLENS_NO_COMPILE_CACHE=1`
 * turns it off. `thread`: the cache of the bundle as a thread other than the main one runs it
 * (the analysis thread compiles the parser's and the evaluators' functions, which the main
 * thread of a check never calls), kept apart from the main thread's.
 */
function requireCached(file, thread = '') {
  const dir = process.env.SHARDLENS_NO_COMPILE_CACHE ? null : privateFolder();
  if (!dir) return require(file);
  let source;
  let stat;
  try {
    source = fs.readFileSync(file, 'utf8');
    stat = fs.statSync(file);
  } catch {
    return require(file);
  }
  // A script compiled here has no hook for `import()` (Node 20 has none without an
  // experimental flag): a bundle that still holds one is loaded as any module.
  if (/\bimport\(/.test(source)) return require(file);
  // One cache per bundle build and per Node: V8 also checks both, this keeps builds apart.
  const id = crypto
    .createHash('sha1')
    .update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`)
    .digest('hex');
  const cacheFile = path.join(dir, `${thread ? `${thread}.` : ''}${path.basename(file)}-${id}.bin`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // No dynamic-import hook: the bundles are built without `import()` (esbuild.mjs).
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  require.cache[file] = mod;
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  // Written at exit, once: by then V8 has compiled the functions the run called, and the cache holds them too.
  if (!cachedData || script.cachedDataRejected) {
    if (thread) workerWrites.push(() => writeAtomically(cacheFile, script));
    else process.once('exit', () => writeAtomically(cacheFile, script));
  }
  return mod.exports;
}

/** Writes the caches this thread has to write (its bundle's functions compiled by now); false when there were none. */
function writeWorkerCaches() {
  const writes = workerWrites.splice(0);
  for (const write of writes) write();
  return writes.length > 0;
}

/** `<tmp>/shardlens-compile-<uid>`, made private to this user; null when it cannot be trusted. */
function privateFolder() {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : null;
    const dir = path.join(os.tmpdir(), `shardlens-compile-${uid ?? 'user'}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    // Another user's folder, or one others may write to, could hand V8 code: not used.
    if (!st.isDirectory() || (uid !== null && st.uid !== uid) || (st.mode & 0o022) !== 0) return null;
    return dir;
  } catch {
    return null;
  }
}

/** How many builds of one bundle keep their cache (each ~1.3 MB): rebuilding writes a new one each time. */
const KEPT_BUILDS = 3;

function writeAtomically(cacheFile, script) {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
    pruneOlderBuilds(cacheFile);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes the caches of this bundle's older builds but the newest few (other installs may still use those). */
function pruneOlderBuilds(cacheFile) {
  const dir = path.dirname(cacheFile);
  const prefix = `${path.basename(cacheFile).replace(/-[0-9a-f]+\.bin$/, '')}-`;
  const others = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.bin'))
    .map((f) => ({ file: path.join(dir, f), mtime: fs.statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of others.slice(KEPT_BUILDS)) fs.rmSync(old.file, { force: true });
}

module.exports = { requireCached, writeWorkerCaches };

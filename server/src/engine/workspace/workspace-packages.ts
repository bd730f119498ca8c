import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PathAliases } from './path-aliases';
import { goesUp, nearestAbove } from './walk-up';

/**
 * The packages of a JS/TS monorepo, found where the package manager finds them: the
 * `workspaces` of the root package.json (npm, yarn, bun; an array or `{ packages }`),
 * `pnpm-workspace.yaml`'s `packages`, or lerna.json's `packages`. A handler in
 * `packages/functions` imports its data layer as `@app/core/scores`, not by relative path;
 * the package manager links the name to `packages/core`, so no `node_modules` is needed
 * here (a fresh clone has none). The names lead to files through the package's `exports`
 * (subpaths, `*` patterns, conditions), else its `types`/`module`/`main` fields, else the
 * folder itself; a package's own `imports` (`#adapters/*`) likewise. Read once per
 * monorepo root until `forget`.
 */
export class WorkspacePackages {
  /** Folder → the monorepo root whose workspaces cover it (or null). */
  private readonly rootOf = new Map<string, string | null>();
  /** Monorepo root → its packages by name. */
  private readonly packagesOf = new Map<string, Map<string, Manifest>>();
  /** Folder → the nearest package.json at or above it (for `#` imports), or null. */
  private readonly ownOf = new Map<string, Manifest | null>();
  /** Folder → its package.json (null: none), read once: every lookup above starts here. */
  private readonly manifests = new Map<string, PackageJson | null>();

  constructor(private readonly root: string) {}

  /** The paths (extension-less where the target names a built file) `source` may name from `fromFile`. */
  candidates(fromFile: string, source: string): string[] {
    const dir = path.dirname(path.resolve(fromFile));
    if (source.startsWith('#')) {
      const own = this.ownPackage(dir);
      return own ? targetsIn(own, mapped(own.json.imports, source) ?? [], true) : [];
    }
    const monorepo = this.monorepoRoot(dir);
    if (!monorepo) return [];
    const packages = this.packages(monorepo);
    // `@app/core/scores` names package `@app/core`, subpath `./scores`.
    const parts = source.split('/');
    const name = parts.slice(0, source.startsWith('@') ? 2 : 1).join('/');
    const pkg = packages.get(name);
    if (!pkg) return [];
    const subpath = `.${source.slice(name.length)}`;
    const json = pkg.json;
    if (json.exports !== undefined) return targetsIn(pkg, mapped(json.exports, subpath) ?? [], true);
    if (subpath === '.') {
      const fields = [json.source, json.types, json.typings, json.module, json.main].filter(isString);
      return targetsIn(pkg, [...fields, './index', './src/index']);
    }
    // A deep import without `exports`: the path inside the folder, or inside its `src`.
    return targetsIn(pkg, [subpath, `./src/${subpath.slice(2)}`]);
  }

  /**
   * The manifests resolving imports from files in `dirs` reads, for the analysis cache to
   * compare between runs: the package.json of each folder up to the root (where the
   * monorepo's root and a package's `#` imports are looked for), the pnpm-workspace.yaml and
   * lerna.json beside each one found, and the package.json of every package of the
   * monorepos those folders lie in. One `stat` per folder: ~16 ms for bench/workspace's 723.
   */
  manifestsRead(dirs: Iterable<string>): string[] {
    const seen = new Set<string>();
    const roots = new Set<string>();
    const out: string[] = [];
    for (const start of dirs) {
      const monorepo = this.monorepoRoot(start);
      if (monorepo) roots.add(monorepo);
      for (let dir = start; !seen.has(dir); dir = path.dirname(dir)) {
        seen.add(dir);
        // The workspace lists count only beside a package.json (`globsOf`).
        out.push(...(this.manifest(dir) ? MANIFEST_NAMES : MANIFEST_NAMES.slice(0, 1)).map((n) => path.join(dir, n)));
        if (!goesUp(dir, this.root)) break;
      }
    }
    for (const root of roots)
      for (const pkg of this.packages(root).values()) out.push(path.join(pkg.dir, 'package.json'));
    return [...new Set(out)];
  }

  private manifest(dir: string): PackageJson | null {
    let json = this.manifests.get(dir);
    if (json === undefined) this.manifests.set(dir, (json = readJson(path.join(dir, 'package.json'))));
    return json;
  }

  /**
   * The package folders `dir` declares as a monorepo root (globs, `!` for exclusions), or
   * none. A root has a package.json (npm, yarn, pnpm and lerna all want one): a folder
   * without is no root, whatever else it holds.
   */
  private globsOf(dir: string): string[] {
    const json = this.manifest(dir);
    return json ? workspaceGlobs(dir, json) : [];
  }

  /** A package.json or workspace list changed: read them again when next asked. */
  forget(): void {
    this.rootOf.clear();
    this.packagesOf.clear();
    this.ownOf.clear();
    this.manifests.clear();
  }

  private monorepoRoot(dir: string): string | null {
    return nearestAbove(dir, this.root, this.rootOf, (d) => (this.globsOf(d).length ? d : undefined));
  }

  private packages(monorepo: string): Map<string, Manifest> {
    const known = this.packagesOf.get(monorepo);
    if (known) return known;
    const byName = new Map<string, Manifest>();
    const globs = this.globsOf(monorepo);
    const excluded = globs.filter((g) => g.startsWith('!')).map((g) => path.resolve(monorepo, g.slice(1)));
    for (const glob of globs.filter((g) => !g.startsWith('!')))
      for (const dir of expand(monorepo, glob.replace(/\/+$/, '').split('/'))) {
        if (excluded.includes(dir)) continue;
        const json = this.manifest(dir);
        if (json && isString(json.name) && !byName.has(json.name)) byName.set(json.name, { dir, json });
      }
    this.packagesOf.set(monorepo, byName);
    return byName;
  }

  private ownPackage(dir: string): Manifest | null {
    return nearestAbove(dir, this.root, this.ownOf, (d) => {
      const json = this.manifest(d);
      return json ? { dir: d, json } : undefined;
    });
  }
}

/**
 * What a bare import (`@app/core/scores`, `#lib/dynamo`) may name from a file, in the order
 * the compiler tries them: the nearest tsconfig's path aliases (and its `baseUrl`) first,
 * then a package of the monorepo, as a name no alias leads to a file is looked up in
 * `node_modules`, where the package manager links the monorepo's packages.
 */
export function bareImportCandidates(aliases: PathAliases, packages: WorkspacePackages) {
  return (fromFile: string, source: string): string[] => [
    ...aliases.candidates(fromFile, source),
    ...packages.candidates(fromFile, source),
  ];
}

/** The files naming a monorepo's packages (package.json first: the others count only beside one). */
export const MANIFEST_NAMES = ['package.json', 'pnpm-workspace.yaml', 'lerna.json'];

/** Whether `file` is one of MANIFEST_NAMES, whose change may change what a package name resolves to. */
export const isManifest = (file: string) => MANIFEST_NAMES.includes(path.basename(file));

/** The fields of a package.json the resolution reads. */
interface PackageJson {
  name?: unknown;
  exports?: unknown;
  imports?: unknown;
  source?: unknown;
  types?: unknown;
  typings?: unknown;
  module?: unknown;
  main?: unknown;
  workspaces?: unknown;
}

interface Manifest {
  dir: string;
  json: PackageJson;
}

const isString = (v: unknown): v is string => typeof v === 'string';

function readJson(file: string): PackageJson | null {
  // Most folders have none: a stat is far cheaper than the error a failed read throws.
  if (!fs.existsSync(file)) return null;
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as PackageJson) : null;
  } catch {
    return null;
  }
}

function readText(file: string): string | null {
  if (!fs.existsSync(file)) return null;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The package folders the package.json `json` of `dir`, or the lists beside it, declare. */
function workspaceGlobs(dir: string, json: PackageJson): string[] {
  const ws = json.workspaces;
  const listed = Array.isArray(ws) ? ws : ws && typeof ws === 'object' ? (ws as { packages?: unknown }).packages : null;
  if (Array.isArray(listed)) return listed.filter(isString);
  const pnpm = readText(path.join(dir, 'pnpm-workspace.yaml'));
  if (pnpm) return yamlList(pnpm, 'packages');
  const lerna = readJson(path.join(dir, 'lerna.json')) as { packages?: unknown } | null;
  return Array.isArray(lerna?.packages) ? lerna.packages.filter(isString) : [];
}

/** The items of a top-level block list in YAML (`packages:` then `  - 'apps/*'`). */
function yamlList(text: string, key: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => new RegExp(`^${key}\\s*:\\s*$`).test(l));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const item = /^\s*-\s*(['"]?)([^'"#]+?)\1\s*(#.*)?$/.exec(line);
    if (item) out.push(item[2]);
  }
  return out;
}

/** The folders a workspace glob (`packages/*`, `services/**`, `backend`) names under `base`. */
function expand(base: string, segments: string[]): string[] {
  if (segments.length === 0) return [base];
  const [head, ...rest] = segments;
  if (head === '' || head === '.') return expand(base, rest);
  if (head === '**') {
    // Any depth, as the package managers allow; three levels are what monorepos use.
    const out = expand(base, rest);
    const walk = (dir: string, depth: number) => {
      if (depth > 3) return;
      for (const sub of subfolders(dir)) {
        out.push(...expand(sub, rest));
        walk(sub, depth + 1);
      }
    };
    walk(base, 1);
    return out;
  }
  if (!head.includes('*')) return expand(path.join(base, head), rest);
  const pattern = new RegExp(`^${head.replace(/[.+^$()|[\]\\{}]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return subfolders(base)
    .filter((d) => pattern.test(path.basename(d)))
    .flatMap((d) => expand(d, rest));
}

function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'node_modules' && !d.name.startsWith('.'))
      .map((d) => path.join(dir, d.name));
  } catch {
    return [];
  }
}

/**
 * The targets an `exports` (or `imports`) map gives `subpath`: an exact key, else the `*`
 * pattern with the longest prefix, its `*` filled in; a string or conditions object
 * standing alone is the package's `.`. Null when the map does not export the subpath.
 */
function mapped(map: unknown, subpath: string): string[] | null {
  if (map === null || map === undefined) return null;
  if (typeof map !== 'object' || Array.isArray(map)) return subpath === '.' ? targetsOf(map, '') : null;
  const entries = map as Record<string, unknown>;
  const keys = Object.keys(entries);
  const isMap = keys.some((k) => k.startsWith('.') || k.startsWith('#'));
  if (!isMap) return subpath === '.' ? targetsOf(map, '') : null;
  if (subpath in entries) return targetsOf(entries[subpath], '');
  let best: { key: string; prefix: number; star: string } | null = null;
  for (const key of keys) {
    const at = key.indexOf('*');
    if (at < 0) continue;
    const [prefix, suffix] = [key.slice(0, at), key.slice(at + 1)];
    const fits =
      subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= prefix.length + suffix.length;
    if (fits && (!best || prefix.length > best.prefix))
      best = { key, prefix: prefix.length, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
  }
  return best ? targetsOf(entries[best.key], best.star) : null;
}

/** Conditions tried first: those that name sources before those that name builds. */
const CONDITION_ORDER = ['source', 'typescript', 'types', 'development', 'import', 'module', 'node', 'require'];

/** A target (a path, a list of fallbacks, or conditions) as paths, `*` filled with `star`. */
function targetsOf(target: unknown, star: string): string[] {
  if (isString(target)) return [target.replace(/\*/g, star)];
  if (Array.isArray(target)) return target.flatMap((t) => targetsOf(t, star));
  if (!target || typeof target !== 'object') return [];
  const conditions = target as Record<string, unknown>;
  const rank = (k: string) => (CONDITION_ORDER.includes(k) ? CONDITION_ORDER.indexOf(k) : CONDITION_ORDER.length);
  return Object.keys(conditions)
    .sort((a, b) => rank(a) - rank(b))
    .flatMap((k) => targetsOf(conditions[k], star));
}

/**
 * Targets as absolute paths in the package's folder, without the extension of a built or
 * declaration file (`dist/index.d.ts` → `dist/index`), so that the resolver tries each
 * source extension and maps a build folder back to its sources. A map's targets are paths
 * only when they start with `./` (an `imports` target may name another package).
 */
function targetsIn(pkg: Manifest, targets: string[], fromMap = false): string[] {
  const out = targets
    .filter((t) => !fromMap || t.startsWith('./'))
    .map((t) => path.resolve(pkg.dir, t.replace(/\.d\.[mc]?ts$|\.[mc]?js$/, '')));
  return [...new Set(out)];
}

import * as fs from 'node:fs';
import * as path from 'node:path';
import { goesUp, nearestAbove } from './walk-up';

/**
 * TypeScript path aliases (`compilerOptions.paths` and `baseUrl` in the nearest
 * `tsconfig.json` or `jsconfig.json`): `@adapters/db` → `src/adapters/db`, and with a
 * `baseUrl` of `src` any bare `services/db` → `src/services/db`. Real
 * projects import their own repositories this way as often as by relative path. A
 * config's `extends` (by path) is followed: the aws-nodejs-typescript template keeps its
 * aliases in `tsconfig.paths.json`, which its `tsconfig.json` extends.
 * Each config is read once per folder; a config that cannot be read or parsed
 * (JSON with comments and trailing commas is read) has no aliases.
 */
export class PathAliases {
  private readonly byFolder = new Map<string, Aliases | null>();
  private readonly builds = new Map<string, Build | null>();

  constructor(private readonly root: string) {}

  /** The paths `source` may name from `fromFile`, most specific alias first; empty when no alias matches. */
  candidates(fromFile: string, source: string): string[] {
    const aliases = this.near(path.dirname(path.resolve(fromFile)));
    if (!aliases) return [];
    const out: string[] = [];
    for (const [pattern, targets] of aliases.paths) {
      const star = pattern.indexOf('*');
      const matched =
        star < 0
          ? source === pattern
            ? ''
            : null
          : source.startsWith(pattern.slice(0, star)) && source.endsWith(pattern.slice(star + 1))
            ? source.slice(star, source.length - (pattern.length - star - 1))
            : null;
      if (matched === null) continue;
      for (const t of targets) out.push(path.resolve(aliases.base, t.replace('*', matched)));
    }
    return out;
  }

  /**
   * The source a path of the build output stands for, by the nearest config's `outDir` and
   * `rootDir` (or its one `include` folder): `dist/entities/user` → `src/entities/user` with
   * `"outDir": "dist", "rootDir": "src"`. A script importing `../dist/entities` is read on the
   * entities' sources, the output being no file of the workspace (or one not read). Null when no
   * config says where the path's sources are.
   */
  builtSource(file: string): string | null {
    const build = this.buildNear(path.dirname(path.resolve(file)));
    if (!build) return null;
    const rel = path.relative(build.outDir, path.resolve(file));
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? path.join(build.rootDir, rel) : null;
  }

  private buildNear(dir: string): Build | null {
    return this.nearest(dir, this.builds, readBuild);
  }

  /** The aliases of the nearest config above `dir`, up to the root. */
  private near(dir: string): Aliases | null {
    return this.nearest(dir, this.byFolder, readAliases);
  }

  /** What `read` takes from the nearest config above `dir`, up to the root, remembered per folder. */
  private nearest<T>(dir: string, memo: Map<string, T | null>, read: (config: string) => T | null): T | null {
    return nearestAbove(dir, this.root, memo, (d) => {
      const config = configIn(d);
      return config ? read(config) : undefined;
    });
  }
}

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/** The config `near` takes in `dir`: the first of CONFIG_NAMES there, or none. */
function configIn(dir: string, exists: (file: string) => boolean = fs.existsSync): string | undefined {
  return CONFIG_NAMES.map((f) => path.join(dir, f)).find((f) => exists(f));
}

/**
 * Every path `PathAliases` looks at for the configs of files in `dirs`, in the order it
 * does: the candidates of each folder from the file's up to the first config found (or
 * the root). The analysis cache records what each of them holds (or that it is absent),
 * so that an alias edited, or a config added nearer to a file, re-analyses what it may
 * have resolved differently.
 */
export function aliasConfigPaths(
  root: string,
  dirs: Iterable<string>,
  exists: (file: string) => boolean = fs.existsSync,
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let dir of dirs) {
    while (!seen.has(dir)) {
      seen.add(dir);
      const config = configIn(dir, exists);
      // Both names are looked at when neither is there; the first present one ends the walk.
      for (const name of CONFIG_NAMES) {
        const candidate = path.join(dir, name);
        out.push(candidate);
        if (candidate === config) break;
      }
      if (config) out.push(...extendsChain(config));
      if (config || !goesUp(dir, root)) break;
      dir = path.dirname(dir);
    }
  }
  return out;
}

/** The configs `config` extends, and those they extend, as far as `effectiveOptions` follows them. */
function extendsChain(config: string): string[] {
  const out: string[] = [];
  const queue = [config];
  while (queue.length && out.length < MAX_EXTENDS) {
    for (const next of extendedConfigs(queue.shift()!))
      if (next !== config && !out.includes(next)) {
        out.push(next);
        queue.push(next);
      }
  }
  return out;
}

interface Aliases {
  base: string;
  /** Pattern → targets, longest pattern first (the most specific wins, as in TypeScript). */
  paths: Array<[string, string[]]>;
}

function readAliases(config: string): Aliases | null {
  const options = effectiveOptions(config, new Set());
  if (!options || (!options.paths && options.baseUrl === null)) return null;
  // `paths` are relative to the baseUrl when there is one, else to the config that writes them.
  const base = options.baseUrl ?? options.pathsDir;
  const paths = Object.entries(options.paths ?? {})
    .filter((e): e is [string, string[]] => Array.isArray(e[1]))
    .sort((a, b) => b[0].length - a[0].length);
  // With a baseUrl, TypeScript also looks up any bare name under it after the paths
  // (`import { Booking } from 'services/db/booking'` with "baseUrl": "src"); a name
  // that is no file there (a package) resolves to nothing and stays a package.
  if (options.baseUrl !== null) paths.push(['*', ['*']]);
  return { base, paths };
}

/** Where a config compiles its sources from and to, absolute. */
interface Build {
  outDir: string;
  rootDir: string;
}

/**
 * `outDir` and `rootDir` of a config (its own, else those it extends; each relative to the
 * config writing it). Without a `rootDir`, a single folder the config includes (`"include":
 * ["src"]`, `["src/**"]`) is where its sources are, as TypeScript computes the root then.
 */
function readBuild(config: string, seen = new Set<string>()): Build | null {
  if (seen.has(config) || seen.size >= MAX_EXTENDS) return null;
  seen.add(config);
  const json = readJson(config);
  if (!json) return null;
  const dir = path.dirname(config);
  const own = json.compilerOptions ?? {};
  const inherited = extendedConfigs(config, json)
    .map((c) => readBuild(c, seen))
    .find((b) => b);
  const outDir = typeof own.outDir === 'string' ? path.resolve(dir, own.outDir) : inherited?.outDir;
  const included = Array.isArray(json.include) ? json.include.filter((i) => typeof i === 'string') : [];
  const folder = included.length === 1 ? /^([\w.-]+)(?:\/\*\*.*)?$/.exec(included[0] as string)?.[1] : undefined;
  const rootDir =
    typeof own.rootDir === 'string'
      ? path.resolve(dir, own.rootDir)
      : folder && folder !== '.'
        ? path.resolve(dir, folder)
        : inherited?.rootDir;
  return outDir && rootDir && outDir !== rootDir ? { outDir, rootDir } : null;
}

/** How many configs an `extends` chain is followed through (a config, the one it extends, ...). */
const MAX_EXTENDS = 5;

interface AliasOptions {
  /** The baseUrl, absolute (each config's own is relative to that config), or null when none says. */
  baseUrl: string | null;
  paths: Record<string, unknown> | null;
  /** The folder of the config that wrote `paths`. */
  pathsDir: string;
}

/**
 * `baseUrl` and `paths` as TypeScript takes them from `config` and the configs it
 * `extends` (a relative path, as the aws-nodejs-typescript template's tsconfig.json
 * extends ./tsconfig.paths.json): the config's own win over those it extends.
 */
function effectiveOptions(config: string, seen: Set<string>): AliasOptions | null {
  if (seen.has(config) || seen.size >= MAX_EXTENDS) return null;
  seen.add(config);
  const json = readJson(config);
  if (!json) return null;
  const own = json.compilerOptions ?? {};
  const dir = path.dirname(config);
  const inherited = extendedConfigs(config, json)
    .map((c) => effectiveOptions(c, seen))
    .reduce<AliasOptions | null>((acc, o) => (o ? merge(acc, o) : acc), null);
  const mine: AliasOptions = {
    baseUrl: typeof own.baseUrl === 'string' ? path.resolve(dir, own.baseUrl) : null,
    paths: own.paths && typeof own.paths === 'object' ? own.paths : null,
    pathsDir: dir,
  };
  return merge(inherited, mine);
}

/** `over`'s options where it has them, `under`'s otherwise. */
function merge(under: AliasOptions | null, over: AliasOptions): AliasOptions {
  if (!under) return over;
  return {
    baseUrl: over.baseUrl ?? under.baseUrl,
    paths: over.paths ?? under.paths,
    pathsDir: over.paths ? over.pathsDir : under.pathsDir,
  };
}

interface ConfigJson {
  extends?: unknown;
  compilerOptions?: { baseUrl?: unknown; paths?: Record<string, unknown>; outDir?: unknown; rootDir?: unknown };
  include?: unknown;
}

function readJson(config: string): ConfigJson | null {
  try {
    const json: unknown = JSON.parse(withoutComments(fs.readFileSync(config, 'utf8').slice(0, 256 * 1024)));
    return json && typeof json === 'object' ? (json as ConfigJson) : null;
  } catch {
    return null;
  }
}

/**
 * The configs `config` extends that are files of the workspace: relative or absolute paths
 * (`.json` added when written without). A package's config (`@tsconfig/node18`) is not read:
 * shared configs set compiler flags, not a project's own path aliases.
 */
function extendedConfigs(config: string, json: ConfigJson | null = readJson(config)): string[] {
  const written = json?.extends;
  const list = typeof written === 'string' ? [written] : Array.isArray(written) ? written : [];
  return list
    .filter((e): e is string => typeof e === 'string' && (e.startsWith('.') || path.isAbsolute(e)))
    .map((e) => {
      const file = path.resolve(path.dirname(config), e);
      return file.endsWith('.json') || fs.existsSync(file) ? file : `${file}.json`;
    });
}

/** JSON with `//` and block comments and trailing commas, as tsconfig files are written, made plain JSON. */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

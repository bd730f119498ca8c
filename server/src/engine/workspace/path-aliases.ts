import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * TypeScript path aliases (`compilerOptions.paths` and `baseUrl` in the nearest
 * `tsconfig.json` or `jsconfig.json`): `@adapters/db` → `src/adapters/db`, and with a
 * `baseUrl` of `src` any bare `services/db` → `src/services/db`. Real
 * projects import their own repositories this way as often as by relative path.
 * Each config is read once per folder; a config that cannot be read or parsed
 * (JSON with comments and trailing commas is read) has no aliases.
 */
export class PathAliases {
  private readonly byFolder = new Map<string, Aliases | null>();

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

  /** The aliases of the nearest config above `dir`, up to the root. */
  private near(dir: string): Aliases | null {
    if (this.byFolder.has(dir)) return this.byFolder.get(dir)!;
    let found: Aliases | null = null;
    const config = configIn(dir);
    if (config) found = readAliases(config);
    else if (goesUp(dir, this.root)) found = this.near(path.dirname(dir));
    this.byFolder.set(dir, found);
    return found;
  }
}

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/** The config `near` takes in `dir`: the first of CONFIG_NAMES there, or none. */
function configIn(dir: string): string | undefined {
  return CONFIG_NAMES.map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
}

/** Whether `near` looks further up from `dir`, which holds no config. */
function goesUp(dir: string, root: string): boolean {
  const top = path.resolve(root);
  return dir !== top && path.dirname(dir) !== dir && dir.startsWith(top);
}

/**
 * Every path `PathAliases` looks at for the configs of files in `dirs`, in the order it
 * does: the candidates of each folder from the file's up to the first config found (or
 * the root). The analysis cache records what each of them holds (or that it is absent),
 * so that an alias edited, or a config added nearer to a file, re-analyses what it may
 * have resolved differently.
 */
export function aliasConfigPaths(root: string, dirs: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let dir of dirs) {
    while (!seen.has(dir)) {
      seen.add(dir);
      const config = configIn(dir);
      // Both names are looked at when neither is there; the first present one ends the walk.
      for (const name of CONFIG_NAMES) {
        const candidate = path.join(dir, name);
        out.push(candidate);
        if (candidate === config) break;
      }
      if (config || !goesUp(dir, root)) break;
      dir = path.dirname(dir);
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
  try {
    const text = fs.readFileSync(config, 'utf8').slice(0, 256 * 1024);
    const json = JSON.parse(withoutComments(text)) as {
      compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> };
    };
    const options = json.compilerOptions ?? {};
    if (!options.paths && typeof options.baseUrl !== 'string') return null;
    const base = path.resolve(path.dirname(config), options.baseUrl ?? '.');
    const paths = Object.entries(options.paths ?? {})
      .filter((e): e is [string, string[]] => Array.isArray(e[1]))
      .sort((a, b) => b[0].length - a[0].length);
    // With a baseUrl, TypeScript also looks up any bare name under it after the paths
    // (`import { Booking } from 'services/db/booking'` with "baseUrl": "src"); a name
    // that is no file there (a package) resolves to nothing and stays a package.
    if (typeof options.baseUrl === 'string') paths.push(['*', ['*']]);
    return { base, paths };
  } catch {
    return null;
  }
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

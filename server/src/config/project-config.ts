import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_CONTEXTS, type CodeContext, type RuleSeverity } from '../../../protocol/src/settings';
import { JsonSyntaxError, parseJsonWithPositions, type Located, type Position } from './json-positions';
import { readToolSection } from './toml-section';
import { forgetWalkListings, walkedFileExists, walkedKind } from '../engine';

/**
 * A project's ShardLens configuration, shared by the CLI and the language server. The
 * nearest one up from a file wins (each project of a monorepo may have its own); in one
 * folder `shardlens.config.json` comes first, then a `"shardlens"` key in package.json,
 * then `[tool.shardlens]` in pyproject.toml. No merging across folders: the one found is
 * the whole configuration, as with Ruff and Prettier.
 */
export interface ProjectConfig {
  rules: Record<string, RuleSeverity>;
  /** Globs relative to the config file's folder: files never analysed. */
  exclude: string[];
  contexts: CodeContext[] | null;
  shards: { defaultCount?: number; peakWriteUnits?: number };
  /** What the team knows of a logical key and the code does not say. */
  keys: Record<string, KeyFact>;
  /** Paths (globs) whose code runs once (`cold`) or per request (`hot`), whatever it looks like. */
  entryPoints: { cold: string[]; hot: string[] };
}

export interface KeyFact {
  /** The expected peak writes per second on the key, all its shards together. */
  peakWritesPerSecond?: number;
  /** Why, in the team's words: shown with the finding. */
  reason?: string;
}

export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** The configuration that applies to a file, where it came from and what was wrong with it. */
export interface LoadedConfig {
  /** The file the configuration came from; null when none was found (defaults). */
  file: string | null;
  /** `shardlens.config.json`, `package.json#shardlens` or `pyproject.toml [tool.shardlens]`. */
  source: string | null;
  /** The folder globs are relative to. */
  base: string;
  config: ProjectConfig;
  problems: ConfigProblem[];
}

export const CONFIG_FILE_NAMES = ['shardlens.config.json', 'package.json', 'pyproject.toml'] as const;

export const EMPTY_CONFIG: ProjectConfig = Object.freeze({
  rules: {},
  exclude: [],
  contexts: null,
  shards: {},
  keys: {},
  entryPoints: { cold: [], hot: [] },
}) as ProjectConfig;

const SEVERITIES = ['error', 'warning', 'info', 'off'];
const RULE_CODE = /^SL\d{3}$/;

/** The part of a file that is ShardLens's config, with positions; null when the file holds none. */
function sectionOf(file: string, text: string): Located | null {
  const name = path.basename(file);
  if (name === 'pyproject.toml') return readToolSection(text);
  const doc = parseJsonWithPositions(text);
  if (name === 'shardlens.config.json') return doc;
  const v = doc.value as Record<string, unknown> | null;
  if (!v || typeof v !== 'object' || !('shardlens' in v)) return null;
  const at = new Map<string, Position>();
  for (const [k, p] of doc.at) if (k === '/shardlens' || k.startsWith('/shardlens/')) at.set(k.slice(10), p);
  return { value: v.shardlens, at };
}

/**
 * Reads the config out of one file's text. Null when the file has no ShardLens section
 * (a package.json without "shardlens"); a syntax error or a wrong value is a problem
 * with its position, and what could not be read takes its default.
 */
export function readConfig(file: string, text: string): { config: ProjectConfig; problems: ConfigProblem[] } | null {
  let located: Located | null;
  try {
    located = sectionOf(file, text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    // A package.json that does not parse may or may not have meant to configure us: say so only for ours.
    if (path.basename(file) === 'package.json' && !text.includes('"shardlens"')) return null;
    return { config: EMPTY_CONFIG, problems: [{ file, ...e.position, message: e.message }] };
  }
  if (!located) return null;
  return validate(file, located);
}

function validate(file: string, { value, at }: Located): { config: ProjectConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const problem = (pointer: string, message: string) => {
    const p = at.get(pointer) ?? at.get('') ?? { line: 1, column: 1 };
    problems.push({ file, ...p, message });
  };
  const config: ProjectConfig = { ...EMPTY_CONFIG, entryPoints: { cold: [], hot: [] } };
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problem('', 'the ShardLens configuration must be an object');
    return { config, problems };
  }
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  const strings = (v: unknown, pointer: string): string[] => {
    if (!Array.isArray(v) || v.some((g) => typeof g !== 'string')) {
      problem(pointer, `"${pointer.slice(1)}" must be a list of strings`);
      return [];
    }
    return v as string[];
  };
  for (const [key, v] of Object.entries(value)) {
    const p = `/${key}`;
    switch (key) {
      case '$schema':
        break;
      case 'rules':
        if (!isObject(v)) problem(p, '"rules" must be an object of rule codes, e.g. { "SL003": "off" }');
        else
          for (const [code, sev] of Object.entries(v)) {
            if (!RULE_CODE.test(code)) problem(`${p}/${code}`, `"${code}" is not a rule code (SL001, SL002, ...)`);
            else if (!SEVERITIES.includes(sev as string))
              problem(`${p}/${code}`, `${code} must be one of ${SEVERITIES.join(', ')}`);
            else config.rules = { ...config.rules, [code]: sev as RuleSeverity };
          }
        break;
      case 'exclude':
        config.exclude = strings(v, p);
        break;
      case 'contexts': {
        const list = strings(v, p);
        const bad = list.filter((c) => !(CODE_CONTEXTS as readonly string[]).includes(c));
        if (bad.length) problem(p, `"contexts" may hold only ${CODE_CONTEXTS.join(', ')} (got ${bad.join(', ')})`);
        else if (Array.isArray(v)) config.contexts = list as CodeContext[];
        break;
      }
      case 'shards':
        if (!isObject(v)) problem(p, '"shards" must be an object');
        else
          for (const [k, n] of Object.entries(v)) {
            const ok = typeof n === 'number' && Number.isFinite(n);
            if (k === 'defaultCount' && ok && Number.isInteger(n) && n >= 1 && n <= 1000)
              config.shards = { ...config.shards, defaultCount: n };
            else if (k === 'peakWriteUnits' && ok && n >= 0) config.shards = { ...config.shards, peakWriteUnits: n };
            else if (k === 'defaultCount' || k === 'peakWriteUnits')
              problem(
                `${p}/${k}`,
                `shards.${k} must be ${k === 'defaultCount' ? 'a whole number 1..1000' : 'a number >= 0'}`,
              );
            else problem(`${p}/${k}`, `unknown setting "shards.${k}" (defaultCount, peakWriteUnits)`);
          }
        break;
      case 'keys':
        if (!isObject(v))
          problem(p, '"keys" must be an object keyed by logical key, e.g. { "LEADERBOARD#GLOBAL": { ... } }');
        else
          for (const [k, fact] of Object.entries(v)) {
            const kp = `${p}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
            const f = isObject(fact) ? fact : null;
            const rate = f?.peakWritesPerSecond;
            if (
              !f ||
              (rate !== undefined && (typeof rate !== 'number' || !(rate >= 0))) ||
              (f.reason !== undefined && typeof f.reason !== 'string')
            )
              problem(kp, `keys."${k}" must be { "peakWritesPerSecond": number, "reason"?: string }`);
            else
              config.keys = {
                ...config.keys,
                [k]: { peakWritesPerSecond: rate as number | undefined, reason: f.reason as string | undefined },
              };
          }
        break;
      case 'entryPoints':
        if (!isObject(v)) problem(p, '"entryPoints" must be { "cold": [globs], "hot": [globs] }');
        else
          for (const [k, list] of Object.entries(v)) {
            if (k === 'cold' || k === 'hot') config.entryPoints[k] = strings(list, `${p}/${k}`);
            else problem(`${p}/${k}`, `unknown entryPoints."${k}" (cold, hot)`);
          }
        break;
      default:
        problem(p, `unknown setting "${key}" (rules, exclude, contexts, shards, keys, entryPoints)`);
    }
  }
  return { config, problems };
}

const cache = new Map<string, { stamp: string; read: ReturnType<typeof readConfig> }>();

/** One candidate file, read once per modification; undefined when it does not exist. */
function readCandidate(file: string): ReturnType<typeof readConfig> | undefined {
  let stamp: string;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return undefined;
    stamp = `${st.mtimeMs}:${st.size}`;
  } catch {
    return undefined;
  }
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.read;
  let read: ReturnType<typeof readConfig>;
  try {
    read = readConfig(file, fs.readFileSync(file, 'utf8'));
  } catch (e) {
    read = { config: EMPTY_CONFIG, problems: [{ file, line: 1, column: 1, message: `cannot be read: ${String(e)}` }] };
  }
  cache.set(file, { stamp, read });
  return read;
}

/**
 * Which candidate names exist in each folder looked in. Most folders have none, and a
 * check asks for the config of every file (exclusions, roles, judging): without this,
 * 5,000 files of a monorepo cost a quarter of a million stats, more than the whole check
 * of an unchanged workspace from its cache. A config created, edited or deleted is seen
 * after `forgetConfigs`, which the language server calls when its watcher reports one
 * (`nearest` below keeps each path's answer until then).
 */
const present = new Map<string, string[]>();

/**
 * The config files in a folder, in CONFIG_FILE_NAMES' order (the first one that holds a
 * config wins): from the walk's listing of it when there is one (collectFiles' `onFolder`;
 * the three stats per folder were a fortieth of a warm check), else a stat each. A config
 * name that is a link is stat'ed (the link's target decides).
 */
function candidatesIn(dir: string): string[] {
  let names = present.get(dir);
  if (!names) {
    names = CONFIG_FILE_NAMES.filter((name) => walkedFileExists(path.join(dir, name)));
    present.set(dir, names);
  }
  return names;
}

/**
 * The configuration found for each path looked up (a source file's, a folder's), until
 * `forgetConfigs`. The language server asks for every file's on every publish, the CLI
 * three times per file: each look walked up the folders and stat'ed the configs found on
 * the way (on bench/workspace, a fifth of the server's warm start). A config edited,
 * created or deleted is seen after `forgetConfigs`, which the language server calls when
 * its watcher reports one (and then indexes again); a CLI run reads each once.
 */
const nearest = new Map<string, LoadedConfig>();

/** Forgets what was read (a watcher saw a config file change). */
export function forgetConfigs(): void {
  cache.clear();
  present.clear();
  forgetWalkListings();
  nearest.clear();
  foundIn.clear();
}

const SOURCES: Record<(typeof CONFIG_FILE_NAMES)[number], string> = {
  'shardlens.config.json': 'shardlens.config.json',
  'package.json': 'package.json "shardlens"',
  'pyproject.toml': 'pyproject.toml [tool.shardlens]',
};

/** The configuration that applies to `file` (a source file or a folder): the nearest one up. */
export function configFor(file: string): LoadedConfig {
  // Asked again for the same path, most often an absolute one: answered before resolving it.
  let loaded = nearest.get(file);
  if (loaded) return loaded;
  const abs = path.resolve(file);
  loaded = nearest.get(abs);
  if (loaded) return loaded;
  if (isDirectory(abs)) loaded = nearestFrom(abs, abs);
  else {
    // Every file of a folder has the same (its base is the folder when none is found).
    const filesOf = `${path.dirname(abs)}${path.sep}`;
    loaded = nearest.get(filesOf) ?? nearestFrom(path.dirname(abs), abs);
    nearest.set(filesOf, loaded);
  }
  nearest.set(abs, loaded);
  return loaded;
}

function nearestFrom(start: string, abs: string): LoadedConfig {
  return foundFrom(start) ?? { file: null, source: null, base: path.dirname(abs), config: EMPTY_CONFIG, problems: [] };
}

/** The config found from `dir` up, null when none: kept per folder, as the folders of a tree share their parents'. */
const foundIn = new Map<string, LoadedConfig | null>();

function foundFrom(dir: string): LoadedConfig | null {
  let found = foundIn.get(dir);
  if (found !== undefined) return found;
  found = null;
  for (const name of candidatesIn(dir) as Array<(typeof CONFIG_FILE_NAMES)[number]>) {
    const candidate = path.join(dir, name);
    const read = readCandidate(candidate);
    if (read) {
      found = { file: candidate, source: SOURCES[name], base: dir, ...read };
      break;
    }
  }
  const up = path.dirname(dir);
  if (!found && up !== dir) found = foundFrom(up);
  foundIn.set(dir, found);
  return found;
}

/** Whether a path is a folder: its parent's walk listing says, when it has one and the path is not a link there. */
function isDirectory(p: string): boolean {
  const listed = walkedKind(p);
  if (listed !== undefined && listed !== 'link') return listed === 'dir';
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `check --config FILE`: one config for every file, in place of the nearest one; its folder
 * is the base of its globs. Any name but package.json and pyproject.toml reads as a
 * shardlens.config.json. Null when the file cannot be read or holds no ShardLens section.
 */
export function configAt(file: string): LoadedConfig | null {
  const abs = path.resolve(file);
  const name = path.basename(abs);
  const as =
    name === 'package.json' || name === 'pyproject.toml' ? abs : path.join(path.dirname(abs), CONFIG_FILE_NAMES[0]);
  let read: ReturnType<typeof readConfig>;
  try {
    read = readConfig(as, fs.readFileSync(abs, 'utf8'));
  } catch {
    return null;
  }
  if (!read) return null;
  const problems = read.problems.map((p) => ({ ...p, file: abs }));
  return {
    file: abs,
    source: SOURCES[path.basename(as) as keyof typeof SOURCES],
    base: path.dirname(abs),
    config: read.config,
    problems,
  };
}

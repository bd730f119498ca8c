import { isWindow, WINDOWS } from '../heat/window';
import type { HeatWindow } from '../heat/types';
import { existsSync } from 'node:fs';

/**
 * `check --changed [REF]` and `check --staged`: the whole workspace is analysed (a
 * cross-file rule needs both sides), and only the findings a change can have caused are
 * reported: those in the changed files, in the modules importing them, and in the files
 * that share a logical key with any of these.
 */
export type ChangedSince = { kind: 'ref'; ref: string | null } | { kind: 'staged' };

export type Format = 'text' | 'json' | 'sarif' | 'github' | 'gitlab' | 'junit';
export type FailOn = 'error' | 'warning' | 'info' | 'never';

export interface CheckOptions {
  paths: string[];
  format: Format;
  failOn: FailOn;
  quiet: boolean;
  color: boolean | null;
  maxFileBytes: number;
  /** `--heat`: add live evidence from these tables (all the code names when empty); null without --heat. */
  heat?: (AwsOptions & { tables: string[] }) | null;
  /** `--contexts`: the code contexts whose findings are reported; absent: all. */
  contexts?: Array<'app' | 'test' | 'example' | 'script'>;
  /** `--stats`: after the summary, how many calls were understood and why the others were not. */
  stats?: boolean;
  /** `--cache`: reuse the analyses of files unchanged since the last run (`--cache-location` or the default folder); null without. */
  cache?: { location: string | null } | null;
  /** `--config FILE`: this project config for every file, in place of the nearest one. */
  config?: string;
  /** `--print-config FILE`: show the project configuration that applies to FILE, and stop. */
  printConfig?: string;
  /** `--baseline FILE`: findings recorded there do not fail the run. */
  baseline?: string;
  /** `--write-baseline FILE`: record every finding there. */
  writeBaseline?: string;
  /** `--report-unused-ignores`: list `shardlens-ignore` comments that silence nothing. */
  reportUnusedIgnores?: boolean;
  /** `--changed [REF]` / `--staged`: report only what a change since REF (or the staged one) can have caused. */
  changed?: ChangedSince;
}

/** Where live data comes from (docs/heat.md). Credentials are never options: the SDK's chain supplies them. */
export interface AwsOptions {
  endpoint?: string;
  profile?: string;
  region?: string;
  window: HeatWindow;
  /** Report period in seconds (default by window); the lab with short periods wants 1. */
  periodSeconds?: number;
  /** `--map-table NAME=TABLE`: the account's table for an environment-named table of the code. */
  tableMap?: Record<string, string>;
}

export interface HeatOptions extends AwsOptions {
  paths: string[];
  table: string;
  index: string | null;
  format: 'text' | 'json';
  maxFileBytes: number;
}

export interface KeysOptions {
  paths: string[];
  format: 'text' | 'json';
  /** Concrete keys to link to their templates; null lists the keys instead. */
  match: string[] | null;
  maxFileBytes: number;
}

export type Parsed =
  | { command: 'check'; options: CheckOptions }
  | { command: 'keys'; options: KeysOptions }
  | { command: 'heat'; options: HeatOptions }
  | { command: 'help' }
  | { command: 'version' };

export class UsageError extends Error {}

// The help text is long: it lives in its own module.
export { USAGE } from './usage';

/** Reads one AWS/heat flag into `o`; false when `flag` is not one. */
function awsFlag(flag: string, value: () => string | undefined, o: AwsOptions): boolean {
  const text = (v: string | undefined) => {
    if (!v || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  switch (flag) {
    case '--endpoint': {
      const v = text(value());
      if (!/^https?:\/\/[^/]+/.test(v)) throw new UsageError(`--endpoint must be an http(s) URL (got "${v}")`);
      o.endpoint = v;
      return true;
    }
    case '--profile':
      o.profile = text(value());
      return true;
    case '--region':
      o.region = text(value());
      return true;
    case '--window': {
      const v = text(value());
      if (!isWindow(v)) throw new UsageError(`--window must be one of ${WINDOWS.join(', ')} (got "${v}")`);
      o.window = v;
      return true;
    }
    case '--map-table': {
      const v = text(value());
      const eq = v.lastIndexOf('=');
      const name = v.slice(0, eq).trim();
      const table = v.slice(eq + 1).trim();
      if (eq <= 0 || !table || table.includes('$'))
        throw new UsageError(`--map-table needs NAME=TABLE, e.g. '$SCORES_TABLE_NAME=scores-prod' (got "${v}")`);
      (o.tableMap ??= {})[name] = table;
      return true;
    }
    case '--period': {
      const v = Number(value());
      if (!Number.isInteger(v) || v <= 0) throw new UsageError('--period needs a positive whole number of seconds');
      o.periodSeconds = v;
      return true;
    }
    default:
      return false;
  }
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T {
  if (value === undefined) throw new UsageError(`${flag} needs a value: ${allowed.join(', ')}`);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

/** Splits `--flag=value` and gives the flag and a reader for its value. */
function flagOf(argv: string[], i: number) {
  const raw = argv[i];
  const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
  return { raw, flag: eq > 0 ? raw.slice(0, eq) : raw, inline: eq > 0 ? raw.slice(eq + 1) : undefined };
}

function maxFileSize(v: string | undefined): number {
  const kb = Number(v);
  if (!v || !Number.isFinite(kb) || kb <= 0)
    throw new UsageError(`--max-file-size needs a positive number of KB (got "${v ?? ''}")`);
  return Math.round(kb * 1024);
}

const CONTEXTS = ['app', 'test', 'example', 'script'] as const;

/** `app,script` → the contexts; each must be one of app, test, example, script. */
function contextsOf(v: string | undefined): NonNullable<CheckOptions['contexts']> {
  const list = (v ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UsageError(`--contexts needs a list of: ${CONTEXTS.join(', ')}`);
  return list.map((c) => oneOf('--contexts', c, CONTEXTS));
}

/**
 * What every command reads alike: `--` (every word after it is a path, even `-x.ts`),
 * `--max-file-size`, `-h`/`--help`, and a word that is no option: a path. Returns the
 * index of the last word read, or 'help'.
 */
function sharedArg(
  argv: string[],
  i: number,
  options: { paths: string[]; maxFileBytes: number },
  command: string,
): number | 'help' {
  const { raw, flag, inline } = flagOf(argv, i);
  switch (flag) {
    case '--':
      options.paths.push(...argv.slice(i + 1));
      return argv.length;
    case '--max-file-size':
      options.maxFileBytes = maxFileSize(inline ?? argv[i + 1]);
      return inline === undefined ? i + 1 : i;
    case '-h':
    case '--help':
      return 'help';
    default:
      if (raw.startsWith('-')) throw new UsageError(`unknown option "${raw}"${command ? ` for ${command}` : ''}`);
      options.paths.push(raw);
      return i;
  }
}

/** Parses argv (without node and the script). Throws UsageError on bad input. */
export function parseArgs(argv: string[]): Parsed {
  if (argv.length === 0 || argv[0] === '-h' || argv[0] === '--help' || argv[0] === 'help') return { command: 'help' };
  if (argv[0] === '-v' || argv[0] === '--version') return { command: 'version' };
  if (argv[0] === 'keys') return parseKeys(argv);
  if (argv[0] === 'heat') return parseHeat(argv);
  if (argv[0] !== 'check') throw new UsageError(`unknown command "${argv[0]}"; did you mean "shardlens check"?`);
  const options: CheckOptions = {
    paths: [],
    format: 'text',
    failOn: 'error',
    quiet: false,
    color: null,
    maxFileBytes: 2048 * 1024,
  };
  const aws: AwsOptions & { tables: string[] } = { window: '1h', tables: [] };
  let awsUsed = false;
  for (let i = 1; i < argv.length; i++) {
    const { flag, inline } = flagOf(argv, i);
    const value = () => inline ?? argv[++i];
    if (awsFlag(flag, value, aws)) {
      awsUsed = true;
      continue;
    }
    switch (flag) {
      case '--heat':
        options.heat = aws;
        break;
      case '--table': {
        const t = value();
        if (!t) throw new UsageError('--table needs a table name');
        aws.tables.push(t);
        awsUsed = true;
        break;
      }
      case '--format':
        options.format = oneOf(flag, value(), ['text', 'json', 'sarif', 'github', 'gitlab', 'junit'] as const);
        break;
      case '--fail-on':
        options.failOn = oneOf(flag, value(), ['error', 'warning', 'info', 'never'] as const);
        break;
      case '--contexts':
        options.contexts = contextsOf(value());
        break;
      case '--quiet':
      case '-q':
        options.quiet = true;
        break;
      case '--stats':
        options.stats = true;
        break;
      case '--cache':
        options.cache ??= { location: null };
        break;
      case '--cache-location': {
        const dir = value();
        if (!dir || dir.startsWith('--')) throw new UsageError('--cache-location needs a folder');
        options.cache = { location: dir };
        break;
      }
      case '--config':
      case '--print-config':
      case '--baseline':
      case '--write-baseline': {
        const v = value();
        if (!v || v.startsWith('--')) throw new UsageError(`${flag} needs a file`);
        if (flag === '--config') options.config = v;
        else if (flag === '--print-config') options.printConfig = v;
        else if (flag === '--baseline') options.baseline = v;
        else options.writeBaseline = v;
        break;
      }
      case '--report-unused-ignores':
        options.reportUnusedIgnores = true;
        break;
      case '--changed': {
        // The REF is optional: a following word is one unless it is an option or a path.
        const next = inline ?? argv[i + 1];
        const isRef = inline !== undefined || (next !== undefined && !next.startsWith('-') && !existsSync(next));
        if (inline === undefined && isRef) i++;
        options.changed = { kind: 'ref', ref: isRef ? next : null };
        break;
      }
      case '--staged':
        options.changed = { kind: 'staged' };
        break;
      case '--color':
        options.color = true;
        break;
      case '--no-color':
        options.color = false;
        break;
      default: {
        const read = sharedArg(argv, i, options, '');
        if (read === 'help') return { command: 'help' };
        i = read;
      }
    }
  }
  if (awsUsed && !options.heat)
    throw new UsageError('--table, --window, --endpoint, --profile, --region and --map-table go with --heat');
  if (options.paths.length === 0) options.paths.push('.');
  return { command: 'check', options };
}

/**
 * `keys [paths...] [--format text|json] [--match KEY...]`. `--match` takes every word
 * after it up to the next `--option`: concrete keys look like anything (`LOGS#2026-11-30#3`),
 * so they cannot be told from paths; the paths come first.
 */
function parseKeys(argv: string[]): Parsed {
  const options: KeysOptions = { paths: [], format: 'text', match: null, maxFileBytes: 2048 * 1024 };
  for (let i = 1; i < argv.length; i++) {
    const { flag, inline } = flagOf(argv, i);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--format':
        options.format = oneOf(flag, value(), ['text', 'json'] as const);
        break;
      case '--match': {
        const keys = (options.match ??= []);
        if (inline !== undefined) keys.push(inline);
        else while (i + 1 < argv.length && !argv[i + 1].startsWith('--')) keys.push(argv[++i]);
        if (keys.length === 0) throw new UsageError('--match needs at least one key (e.g. --match BOARD#global#7)');
        break;
      }
      default: {
        const read = sharedArg(argv, i, options, 'keys');
        if (read === 'help') return { command: 'help' };
        i = read;
      }
    }
  }
  if (options.paths.length === 0) options.paths.push('.');
  return { command: 'keys', options };
}

/** `heat [paths...] --table T [--index I] [--window W] [--endpoint URL] [--profile P] [--region R] [--format text|json]`. */
function parseHeat(argv: string[]): Parsed {
  const options: HeatOptions = {
    paths: [],
    table: '',
    index: null,
    format: 'text',
    maxFileBytes: 2048 * 1024,
    window: '1h',
  };
  for (let i = 1; i < argv.length; i++) {
    const { flag, inline } = flagOf(argv, i);
    const value = () => inline ?? argv[++i];
    if (awsFlag(flag, value, options)) continue;
    switch (flag) {
      case '--table':
        options.table = value() ?? '';
        if (!options.table) throw new UsageError('--table needs a table name');
        break;
      case '--index':
        options.index = value() ?? '';
        if (!options.index) throw new UsageError('--index needs an index name');
        break;
      case '--format':
        options.format = oneOf(flag, value(), ['text', 'json'] as const);
        break;
      default: {
        const read = sharedArg(argv, i, options, 'heat');
        if (read === 'help') return { command: 'help' };
        i = read;
      }
    }
  }
  if (!options.table) throw new UsageError('heat needs --table (the DynamoDB table to read live data for)');
  if (options.paths.length === 0) options.paths.push('.');
  return { command: 'heat', options };
}

import type { HeatWindow } from './heat';

/** The `shardlens.*` settings, as the server pulls them per resource. */
export type RuleSeverity = 'error' | 'warning' | 'info' | 'off';

/** Where code runs: per request or per item (`app`), or once (`test`, `example`, `script`). */
export type CodeContext = 'app' | 'test' | 'example' | 'script';

export const CODE_CONTEXTS: readonly CodeContext[] = ['app', 'test', 'example', 'script'];

export interface ShardLensSettings {
  enable: boolean;
  /** Per-rule severity overrides: `{ "SL003": "off", "SL005": "warning" }`. */
  rules: Record<string, RuleSeverity>;
  /** Glob patterns (relative to the workspace folder) of files never analysed. */
  exclude: string[];
  /**
   * The contexts whose findings are reported. Default: all, with one-off contexts
   * (test, example, script) at `info` at most and sample-item keys there not at all.
   */
  contexts: CodeContext[];
  shards: {
    /** The shard count that suggestions and generated code start from. */
    defaultCount: number;
    /** Expected peak write units per second on a hot logical key; 0 when unknown. */
    peakWriteUnits: number;
  };
  /**
   * Where live heat is read from. Credentials never appear in settings: the SDK's default
   * provider chain supplies them. Live heat is on when at least one of the three is set
   * (and the workspace is trusted); null means "not set" (the SDK's default).
   */
  aws: {
    /** `shardlens.aws.profile`: a profile of the shared config files. */
    profile: string | null;
    /** `shardlens.aws.region`. */
    region: string | null;
    /** `shardlens.aws.endpoint`: one URL for DynamoDB and CloudWatch (the lab: `http://127.0.0.1:8000`). */
    endpoint: string | null;
  };
  /**
   * `shardlens.tables`: the table each environment-named table of the code is in this
   * account (`{ "$SCORES_TABLE_NAME": "scores-prod" }`). A name the code reads from the
   * environment is never sent to AWS: live heat reads the mapped table, or nothing.
   */
  tables: Record<string, string>;
  /**
   * What the project config (shardlens.config.json, ...) says of logical keys: an expected
   * peak write rate turns a hot-key finding under one partition's ceiling into info. Not a
   * VS Code setting: the server reads it from the file nearest each document.
   */
  keys: Record<string, { peakWritesPerSecond?: number; reason?: string }>;
  /**
   * The project config's `entryPoints.cold` patterns (routes, paths, entry names), with the
   * folder they are relative to: a hot-key finding reached only from them is info. Not a
   * VS Code setting: read from the file nearest each document.
   */
  coldEntries?: ColdEntries | null;
  heat: {
    /** `shardlens.heat.window`: the period live figures cover. */
    window: HeatWindow;
    /** `shardlens.heat.refreshSeconds`: background refresh interval; 0 = only on demand (the refresh command). */
    refreshSeconds: number;
  };
  /** `shardlens.cache.enabled`: the server starts from the analyses it kept of unchanged files. */
  cache: { enabled: boolean };
}

export interface ColdEntries {
  /** The config's folder: path globs are relative to it. */
  base: string;
  /** The config file's name, as messages cite it. */
  source: string;
  patterns: string[];
}

const HEAT_WINDOW_VALUES: readonly HeatWindow[] = ['15m', '1h', '3h', '24h'];

export const DEFAULT_SETTINGS: ShardLensSettings = {
  enable: true,
  rules: {},
  exclude: [],
  contexts: [...CODE_CONTEXTS],
  shards: { defaultCount: 10, peakWriteUnits: 0 },
  aws: { profile: null, region: null, endpoint: null },
  tables: {},
  keys: {},
  heat: { window: '1h', refreshSeconds: 300 },
  cache: { enabled: true },
};

/** Whether the settings name an AWS connection (any of profile, region, endpoint). */
export function heatConfigured(s: ShardLensSettings): boolean {
  return s.aws.profile !== null || s.aws.region !== null || s.aws.endpoint !== null;
}

/** Fills what a partial (or malformed) settings object leaves out with the defaults. */
export function normalizeSettings(raw: unknown): ShardLensSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Partial<ShardLensSettings>;
  const shards = (r.shards && typeof r.shards === 'object' ? r.shards : {}) as Partial<ShardLensSettings['shards']>;
  const aws = (r.aws && typeof r.aws === 'object' ? r.aws : {}) as Partial<Record<string, unknown>>;
  const heat = (r.heat && typeof r.heat === 'object' ? r.heat : {}) as Partial<Record<string, unknown>>;
  // An empty or blank string in a settings file means "not set", as VS Code writes it.
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const positive = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : d);
  const rules: Record<string, RuleSeverity> = {};
  if (r.rules && typeof r.rules === 'object') {
    for (const [code, sev] of Object.entries(r.rules)) {
      if (['error', 'warning', 'info', 'off'].includes(sev as string)) rules[code] = sev as RuleSeverity;
    }
  }
  return {
    enable: typeof r.enable === 'boolean' ? r.enable : DEFAULT_SETTINGS.enable,
    rules,
    exclude: Array.isArray(r.exclude) ? r.exclude.filter((g): g is string => typeof g === 'string') : [],
    contexts: Array.isArray(r.contexts)
      ? CODE_CONTEXTS.filter((c) => (r.contexts as unknown[]).includes(c))
      : [...CODE_CONTEXTS],
    shards: {
      defaultCount: Math.max(1, Math.round(positive(shards.defaultCount, DEFAULT_SETTINGS.shards.defaultCount))),
      peakWriteUnits: positive(shards.peakWriteUnits, 0),
    },
    aws: { profile: text(aws.profile), region: text(aws.region), endpoint: text(aws.endpoint) },
    tables: tableMap(r.tables),
    keys: {},
    heat: {
      window: HEAT_WINDOW_VALUES.includes(heat.window as HeatWindow)
        ? (heat.window as HeatWindow)
        : DEFAULT_SETTINGS.heat.window,
      refreshSeconds: Math.round(positive(heat.refreshSeconds, DEFAULT_SETTINGS.heat.refreshSeconds)),
    },
    cache: { enabled: (r.cache as { enabled?: unknown } | undefined)?.enabled !== false },
  };
}

/** `shardlens.tables` as a plain map of non-empty names (entries of other types dropped). */
function tableMap(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>))
    if (k.trim() && typeof v === 'string' && v.trim()) out[k.trim()] = v.trim();
  return out;
}

/**
 * A table name the code takes from the environment (`$EVENTS_TABLE`, `inventory-{$STAGE}`),
 * as ShardLens shows it: not a name AWS knows (a DynamoDB table name has no `$`).
 */
export function isPlaceholderTable(name: string): boolean {
  return name.includes('$');
}

/**
 * The account's table for a table name of the code: itself when it is a real name, the
 * `shardlens.tables` entry for a placeholder (keyed as shown, `$EVENTS_TABLE`, or by the
 * variable alone, `EVENTS_TABLE`), else null: a placeholder is never sent to AWS.
 */
export function resolveTable(name: string, tables: Record<string, string>): string | null {
  if (!isPlaceholderTable(name)) return name;
  const mapped = tables[name] ?? (name.startsWith('$') ? tables[name.slice(1)] : undefined);
  return mapped && !isPlaceholderTable(mapped) ? mapped : null;
}

/**
 * The account's tables that may be the one an SST app names by id (`$SST_RESOURCE_Polls`
 * for `Resource.Polls.name`, `$SST_Table_tableName_Counter`): SST names a table after its
 * id (v3 `polls-dev-PollsTable-x7k2`, v2 `dev-clicks-Counter`), so those holding the id as
 * a word of the name, in its case (the app's name before it is often the id in lower case),
 * in name order. Empty for any other name. One stage's table is as likely as another's, so
 * these are offered first, never chosen.
 */
export function sstTableCandidates(name: string, tables: readonly string[]): string[] {
  const id = /^\$?SST_(?:RESOURCE_|Table_tableName_)(\w+)$/.exec(name)?.[1];
  if (!id) return [];
  const word = new RegExp(`(^|[-_.])${id}(Table)?([-_.]|$)`);
  return tables.filter((t) => word.test(t)).sort();
}

/**
 * The account's tables that may be one a CloudFormation template (SAM, Serverless, CDK)
 * declares without a `TableName`, given the template's logical ids for the name: such a
 * table is named `<stack>-<LogicalId>-<SUFFIX>` at deploy time (`sam-app-DynamoDBTable-
 * 1Q2W3E4R5T6Y`); a CDK construct's id is followed by an 8-digit hash and preceded by the
 * ids of the constructs around it (`Shop-DataOrders1A2B3C4D-9XK2M4P7Q1R3`). So: the id after
 * a dash, or the id and a hash, before a suffix of capitals and digits; in name order.
 * Offered first, never chosen: several stacks deploy the same template.
 */
export function deployedTableCandidates(logicalIds: readonly string[], tables: readonly string[]): string[] {
  const named = logicalIds
    .filter((id) => /^[A-Za-z0-9]+$/.test(id))
    .map((id) => new RegExp(`(?:-${id}|${id}[0-9A-F]{8})-[A-Z0-9]{6,}$`));
  return tables.filter((t) => named.some((n) => n.test(t))).sort();
}

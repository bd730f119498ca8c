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
}

export const DEFAULT_SETTINGS: ShardLensSettings = {
  enable: true,
  rules: {},
  exclude: [],
  contexts: [...CODE_CONTEXTS],
  shards: { defaultCount: 10, peakWriteUnits: 0 },
};

/** Fills what a partial (or malformed) settings object leaves out with the defaults. */
export function normalizeSettings(raw: unknown): ShardLensSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Partial<ShardLensSettings>;
  const shards = (r.shards && typeof r.shards === 'object' ? r.shards : {}) as Partial<ShardLensSettings['shards']>;
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
  };
}

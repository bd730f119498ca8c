import type { HeatStatus } from '../../../protocol/src/lsp';
import { heatConfigured, type ShardLensSettings } from '../../../protocol/src/settings';
import type { KeyMatch, TableEntry } from '../engine';
import {
  isLoopback,
  newHeatCache,
  resolveTable,
  startPolling,
  toJsonProblem,
  unmappedProblem,
  type HeatCache,
  type HeatConnection,
  type HeatProblem,
  type HeatReport,
  type KeySource,
} from '../heat/offline';
import { awsHeat } from './load-heat';

/**
 * Live heat in the language server: which tables to read, when to read them, and the
 * last linked reports that the hover, code lens and diagnostics show. Those never
 * fetch: only `refresh` does (at start, on the refresh command, on a settings or trust
 * change, and from the poller), so an editor action never waits on AWS and a failing
 * connection is asked once per refresh, not once per keystroke.
 *
 * No AWS call is made unless the settings name a connection and the client said the
 * workspace is trusted.
 */

/** Fetches are kept until the next refresh asks again (linking reuses them against the current code). */
const NEVER_STALE_MS = Number.MAX_SAFE_INTEGER;

/** Problems of one table that say nothing about the others (the connection itself works). */
const PER_RESOURCE = new Set(['table-not-found', 'index-not-found', 'access-denied', 'insights-disabled']);

export interface Resource {
  /** The account's table: the code's name, or the one `shardlens.tables` maps it to. */
  table: string;
  index: string | null;
  /** The code's environment names mapped to `table`. */
  aliases: string[];
}

export interface LiveHeatHost {
  /** The workspace-wide settings (`shardlens.aws.*` and `shardlens.heat.*`). */
  settings(): Promise<ShardLensSettings>;
  /** The workspace's keys, for linking and for the tables to read. */
  source(): KeySource;
  /** Called after each refresh: republish diagnostics, refresh code lenses. */
  changed(): Promise<void>;
  status(s: HeatStatus): void;
  log(message: string): void;
}

/** One KeySource over several workspace folders' indexes. */
export function combinedSource(sources: KeySource[]): KeySource {
  if (sources.length === 1) return sources[0];
  return {
    match: (concrete: string): KeyMatch[] => sources.flatMap((s) => s.match(concrete)),
    keys: (): TableEntry[] => sources.flatMap((s) => s.keys()),
  };
}

/**
 * The tables and indexes the code uses, as the account names them: a literal name as it
 * is, an environment-named one (`$SCORES_TABLE_NAME`) through `shardlens.tables`. The
 * environment names with no mapping are listed apart: nothing is sent for them.
 */
export function resourcesOf(
  source: KeySource,
  tables: Record<string, string> = {},
): { resources: Resource[]; unmapped: string[] } {
  const resources: Resource[] = [];
  const unmapped: string[] = [];
  for (const t of source.keys()) {
    if (t.table === null) continue;
    const table = resolveTable(t.table, tables);
    if (table === null) {
      if (!unmapped.includes(t.table)) unmapped.push(t.table);
      continue;
    }
    for (const ix of t.indexes) {
      let r: Resource | undefined = resources.find((x) => x.table === table && x.index === ix.index);
      if (!r) resources.push((r = { table, index: ix.index, aliases: [] }));
      if (table !== t.table && !r.aliases.includes(t.table)) r.aliases.push(t.table);
    }
  }
  return { resources, unmapped: unmapped.sort() };
}

export function connectionOf(s: ShardLensSettings): HeatConnection {
  return {
    ...(s.aws.profile ? { profile: s.aws.profile } : {}),
    ...(s.aws.region ? { region: s.aws.region } : {}),
    ...(s.aws.endpoint ? { endpoint: s.aws.endpoint } : {}),
  };
}

/** `lab` for a loopback endpoint, the endpoint's host for another, else `profile · region`. */
export function connectionLabel(s: ShardLensSettings): string | null {
  if (!heatConfigured(s)) return null;
  if (s.aws.endpoint) {
    if (isLoopback(s.aws.endpoint)) return 'lab';
    try {
      return new URL(s.aws.endpoint).host;
    } catch {
      return s.aws.endpoint;
    }
  }
  return `${s.aws.profile ?? 'default'} · ${s.aws.region ?? 'default region'}`;
}

const signature = (s: ShardLensSettings) => JSON.stringify([s.aws, s.heat, s.tables]);

export class LiveHeat {
  private trusted: boolean;
  private cache: HeatCache = newHeatCache(NEVER_STALE_MS);
  /** The resources fetched by the last refresh, with the settings they were fetched with. */
  private fetched: {
    settings: ShardLensSettings;
    resources: Resource[];
    cache: HeatCache;
    /** What the refresh set out to read (failed resources too): the code's tables then. */
    wanted: string;
  } | null = null;
  private linked: Promise<HeatReport[]> | null = null;
  private running: Promise<HeatStatus> | null = null;
  private poller: { stop(): void } | null = null;
  private applied: string | null = null;
  private last: HeatStatus = { state: 'off', label: null, window: '1h', lastRefresh: null, tables: [], problem: null };

  constructor(
    private readonly host: LiveHeatHost,
    trusted: boolean,
  ) {
    this.trusted = trusted;
  }

  get status(): HeatStatus {
    return this.last;
  }

  /** The cache `shardlens/heat` answers from; null when no AWS call may be made. */
  async requestCache(): Promise<{ cache: HeatCache; settings: ShardLensSettings } | null> {
    const settings = await this.host.settings();
    return this.trusted && heatConfigured(settings) ? { cache: this.cache, settings } : null;
  }

  setTrusted(trusted: boolean): Promise<void> {
    if (trusted === this.trusted) return Promise.resolve();
    this.trusted = trusted;
    this.applied = null;
    return this.configure();
  }

  /**
   * Applies the settings: when the connection, window or interval changed (or on the
   * first call), forgets what was fetched and starts over — polling when
   * `refreshSeconds` > 0, else one refresh.
   */
  async configure(): Promise<void> {
    const settings = await this.host.settings();
    const sig = `${this.trusted}${signature(settings)}`;
    if (sig === this.applied) return;
    this.applied = sig;
    this.poller?.stop();
    this.poller = null;
    this.cache = newHeatCache(NEVER_STALE_MS);
    const hadData = this.fetched !== null;
    this.fetched = null;
    this.linked = null;
    if (!heatConfigured(settings) || !this.trusted) {
      this.setStatus({
        state: heatConfigured(settings) ? 'untrusted' : 'off',
        label: connectionLabel(settings),
        window: settings.heat.window,
        lastRefresh: null,
        tables: [],
        problem: null,
      });
      if (hadData) await this.host.changed();
      return;
    }
    if (settings.heat.refreshSeconds > 0) {
      this.poller = startPolling(async () => {
        const s = await this.refresh();
        return { throttled: s.problem?.code === 'throttled' };
      }, settings.heat.refreshSeconds * 1000);
    } else {
      await this.refresh();
    }
  }

  /**
   * Reads every table again now (one refresh at a time: a second call joins the one under
   * way). When it ends, the tables the code names are compared with those it set out to
   * read: the index may have grown while it ran (a settings change refreshes during the
   * first index), and the reports asked for meanwhile could not start another.
   */
  refresh(): Promise<HeatStatus> {
    this.running ??= this.fetchAll().finally(() => {
      this.running = null;
      this.followTables();
    });
    return this.running;
  }

  stop(): void {
    this.poller?.stop();
    this.poller = null;
  }

  private async fetchAll(): Promise<HeatStatus> {
    const settings = await this.host.settings();
    const label = connectionLabel(settings);
    const base = { label, window: settings.heat.window, tables: [] as string[] };
    if (!heatConfigured(settings) || !this.trusted) {
      return this.setStatus({
        ...base,
        state: heatConfigured(settings) ? 'untrusted' : 'off',
        lastRefresh: null,
        problem: null,
      });
    }
    const source = this.host.source();
    const { resources, unmapped } = resourcesOf(source, settings.tables);
    base.tables = resources.map((r) => (r.index ? `${r.table}/${r.index}` : r.table));
    const withUnmapped = { ...base, unmapped };
    this.setStatus({ ...withUnmapped, state: 'refreshing', lastRefresh: this.last.lastRefresh, problem: null });
    const connection = connectionOf(settings);
    // A settings change during the fetch starts over with a new cache: this result is then dropped.
    const cache = this.cache;
    let failure: HeatProblem | null = null;
    let note: HeatProblem | null = null;
    const ok: Resource[] = [];
    for (const r of resources) {
      const outcome = await awsHeat().getHeat(connection, { ...r, window: settings.heat.window }, source, {
        cache,
        refresh: true,
      });
      if (cache !== this.cache) return this.last;
      const name = r.index ? `${r.table}/${r.index}` : r.table;
      if (outcome.ok) {
        ok.push(r);
        for (const p of outcome.report.problems) {
          this.host.log(`live heat, ${name}: ${p.message}`);
          note ??= p;
        }
        continue;
      }
      this.host.log(`live heat, ${name}: ${outcome.problem.message}`);
      failure ??= outcome.problem;
      // A credentials or network failure would repeat for every table: stop at the first.
      if (!PER_RESOURCE.has(outcome.problem.code)) break;
    }
    this.fetched = { settings, resources: ok, cache, wanted: JSON.stringify([resources, unmapped]) };
    this.linked = null;
    // Unmapped tables are said after a failure (which stops everything) and before notes.
    if (unmapped.length) this.host.log(`live heat: ${unmappedProblem(unmapped).message}`);
    const first = failure ?? (unmapped.length ? unmappedProblem(unmapped) : note);
    const status = this.setStatus({
      ...withUnmapped,
      state: failure ? 'problem' : 'ok',
      lastRefresh: new Date().toISOString(),
      problem: first ? toJsonProblem(first) : null,
    });
    await this.host.changed();
    return status;
  }

  /** The code changed: link the fetched data again when next asked. */
  invalidate(): void {
    this.linked = null;
  }

  /**
   * Reads again, in the background, when the code now uses tables the last refresh did
   * not set out to read (a new table in the code, or the index that was still being built
   * when a settings change refreshed): otherwise they would wait for the next poll, or
   * forever with polling off.
   */
  private followTables(): void {
    const fetched = this.fetched;
    if (!fetched || this.running) return;
    const { resources, unmapped } = resourcesOf(this.host.source(), fetched.settings.tables);
    if (JSON.stringify([resources, unmapped]) !== fetched.wanted) void this.refresh();
  }

  /**
   * The last fetched reports, linked to the code as it is now. Linking reuses the
   * cached fetch (never a new call: the cache holds every fetched resource until the
   * next refresh).
   */
  reports(): Promise<HeatReport[]> {
    this.followTables();
    const fetched = this.fetched;
    if (!fetched || fetched.resources.length === 0) return Promise.resolve([]);
    this.linked ??= (async () => {
      const source = this.host.source();
      const connection = connectionOf(fetched.settings);
      const out: HeatReport[] = [];
      for (const r of fetched.resources) {
        const o = await awsHeat().getHeat(connection, { ...r, window: fetched.settings.heat.window }, source, {
          cache: fetched.cache,
        });
        if (o.ok) out.push(o.report);
      }
      return out;
    })();
    return this.linked;
  }

  private setStatus(s: HeatStatus): HeatStatus {
    this.last = s;
    this.host.status(s);
    return s;
  }
}

// Contributor Insights state per table and index: status (ENABLING →
// ENABLED, DISABLING → DISABLED after a short delay, as the service moves
// through them), mode, and the rules' data. Rule names follow
// DynamoDBContributorInsights-{PKC|PKT|SKC|SKT}-<resource>-<creation ms>,
// with <table>-<index> as the resource of an index.

import { RuleData } from './rule-data';

export type Mode = 'ACCESSED_AND_THROTTLED_KEYS' | 'THROTTLED_KEYS';
export type Status = 'ENABLING' | 'ENABLED' | 'DISABLING' | 'DISABLED' | 'FAILED';
export type RuleKind = 'PKC' | 'PKT' | 'SKC' | 'SKT';

export interface InsightsEntry {
  table: string;
  index?: string;
  status: Status;
  mode: Mode;
  lastUpdate: Date;
  createdMs: number;
  /** Attribute names of the resource's keys, the report's KeyLabels. */
  hashKey: string;
  rangeKey?: string;
  rules: Map<RuleKind, RuleData>;
}

export interface RegistryOptions {
  periodMs: number;
  retention: number;
  /** How long ENABLING and DISABLING last. */
  transitionMs: number;
}

const resourceId = (table: string, index?: string) => (index ? `${table}-${index}` : table);

export function ruleKinds(mode: Mode, hasSortKey: boolean): RuleKind[] {
  const kinds: RuleKind[] = mode === 'THROTTLED_KEYS' ? ['PKT'] : ['PKC', 'PKT'];
  if (hasSortKey) kinds.push(...kinds.map((k) => (k === 'PKC' ? 'SKC' : 'SKT') as RuleKind));
  return kinds;
}

export function ruleName(e: InsightsEntry, kind: RuleKind): string {
  return `DynamoDBContributorInsights-${kind}-${resourceId(e.table, e.index)}-${e.createdMs}`;
}

export class InsightsRegistry {
  private readonly entries = new Map<string, InsightsEntry>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: RegistryOptions) {}

  get(table: string, index?: string): InsightsEntry | undefined {
    return this.entries.get(resourceId(table, index));
  }

  all(): InsightsEntry[] {
    return [...this.entries.values()];
  }

  private later(fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, this.options.transitionMs);
    t.unref();
    this.timers.add(t);
  }

  enable(table: string, index: string | undefined, mode: Mode, hashKey: string, rangeKey?: string): InsightsEntry {
    const id = resourceId(table, index);
    const prev = this.entries.get(id);
    // Switching mode on an enabled resource keeps its rules' data.
    const keep = prev && (prev.status === 'ENABLED' || prev.status === 'ENABLING');
    const e: InsightsEntry = {
      table,
      index,
      status: 'ENABLING',
      mode,
      lastUpdate: new Date(),
      createdMs: keep ? prev.createdMs : Date.now(),
      hashKey,
      rangeKey,
      rules: keep ? prev.rules : new Map(),
    };
    for (const kind of ruleKinds(mode, rangeKey !== undefined))
      if (!e.rules.has(kind)) e.rules.set(kind, new RuleData(this.options.periodMs, this.options.retention));
    for (const kind of [...e.rules.keys()])
      if (!ruleKinds(mode, rangeKey !== undefined).includes(kind)) e.rules.delete(kind);
    this.entries.set(id, e);
    this.later(() => {
      if (this.entries.get(id) === e && e.status === 'ENABLING') {
        e.status = 'ENABLED';
        e.lastUpdate = new Date();
      }
    });
    return e;
  }

  disable(table: string, index?: string): InsightsEntry | undefined {
    const id = resourceId(table, index);
    const e = this.entries.get(id);
    if (!e) return undefined;
    e.status = 'DISABLING';
    e.lastUpdate = new Date();
    this.later(() => {
      if (this.entries.get(id) === e && e.status === 'DISABLING') {
        e.status = 'DISABLED';
        e.rules.clear();
        e.lastUpdate = new Date();
      }
    });
    return e;
  }

  dropTable(table: string): void {
    for (const [id, e] of this.entries) if (e.table === table) this.entries.delete(id);
  }

  /** The entry and rule kind a rule name belongs to, while the rule exists. */
  findRule(name: string): { entry: InsightsEntry; kind: RuleKind } | undefined {
    for (const e of this.entries.values()) {
      for (const kind of e.rules.keys()) if (ruleName(e, kind) === name) return { entry: e, kind };
    }
    return undefined;
  }

  /** Records traffic for a resource whose insights are on. Accessed rules count 3 × WCU + RCU. */
  record(
    table: string,
    index: string | undefined,
    pk: string | undefined,
    sk: string | undefined,
    consumedThroughputUnits: number,
    throttleEvents: number,
    now: number,
  ): void {
    const e = this.entries.get(resourceId(table, index));
    if (!e || (e.status !== 'ENABLED' && e.status !== 'ENABLING') || pk === undefined) return;
    const pkSk = sk === undefined ? undefined : JSON.stringify([pk, sk]);
    if (consumedThroughputUnits > 0) {
      e.rules.get('PKC')?.add(pk, consumedThroughputUnits, now);
      if (pkSk) e.rules.get('SKC')?.add(pkSk, consumedThroughputUnits, now);
    }
    if (throttleEvents > 0) {
      e.rules.get('PKT')?.add(pk, throttleEvents, now);
      if (pkSk) e.rules.get('SKT')?.add(pkSk, throttleEvents, now);
    }
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

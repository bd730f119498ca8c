import * as path from 'node:path';
import { minimatch } from 'minimatch';
import type { RuleSeverity } from '../../../protocol/src/settings';
import { type Finding, isOneOff, logicalKeyOf, render, type Severity } from '../engine';
import type { KeyFact, LoadedConfig } from './project-config';
import type { ColdEntries } from '../../../protocol/src/settings';
import { isEntryPattern, placeByColdEntries } from './cold-entries';

/** One partition's write ceiling: a key expected to stay under it does not throttle. */
const PARTITION_WCU = 1000;

/**
 * The rules that say a key is hot. The others (an unsharded read of a sharded key, shard
 * sets that disagree, a scatter-gather without pagination, a shard drawn once) lose
 * items or reads whatever the traffic, so an expected rate does not soften them.
 */
const RATE_RULES = new Set(['SL001', 'SL002', 'SL003', 'SL004', 'SL005']);

/** `file` relative to the config's folder, with forward slashes; null when outside it. */
function relativeTo(loaded: LoadedConfig, file: string): string | null {
  const rel = path.relative(loaded.base, path.resolve(file));
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep).join('/');
}

const matches = (rel: string, globs: string[]) => globs.some((g) => minimatch(rel, g, { dot: true }));

/** Whether the config's `exclude` globs leave `file` out. */
export function excludedByConfig(loaded: LoadedConfig, file: string): boolean {
  if (loaded.config.exclude.length === 0) return false;
  const rel = relativeTo(loaded, file);
  return rel !== null && matches(rel, loaded.config.exclude);
}

/** The role `entryPoints` gives `file`: `cold` code runs once (a script), `hot` per request (app). */
export function configuredRole(loaded: LoadedConfig, file: string): 'script' | 'app' | null {
  const rel = relativeTo(loaded, file);
  if (rel === null) return null;
  if (matches(rel, loaded.config.entryPoints.hot)) return 'app';
  // Routes (`GET /admin/**`) mark entry points, not files (cold-entries.ts).
  if (
    matches(
      rel,
      loaded.config.entryPoints.cold.filter((p) => !isEntryPattern(p)),
    )
  )
    return 'script';
  return null;
}

/** The config entry for a finding's key: by its template as shown, or its logical key without the shard. */
function factFor(f: Finding, keys: Record<string, KeyFact>): [string, KeyFact] | null {
  if (Object.keys(keys).length === 0 || !f.access.partitionKey) return null;
  const id = logicalKeyOf(f.access)?.id ?? '';
  const names = [render(f.access.partitionKey.template), id, id.slice(id.indexOf(' = ') + 3)];
  for (const n of names) if (n && keys[n]) return [n, keys[n]];
  return null;
}

/**
 * Messages that say the call is not hot however severe its rule is: a write of a read-hot
 * key (its writes are few) and a read the cache fix serves (about once per TTL).
 */
const NOTES = new Set(['rarelyWritten', 'cachedRead']);
const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

/**
 * The severity a finding takes under the rule's configured level. The level replaces the
 * rule's default, but what ShardLens judged at most a note stays one: code that runs once
 * (a test, an example, a script: `info` at most) and the `NOTES` above. For those the
 * configured level is a ceiling (SL001 `info` keeps them info), not a level to raise them to.
 */
function configuredSeverity(f: Finding, configured: Severity): Severity {
  const note = NOTES.has(f.messageId ?? '') || (f.context !== undefined && isOneOff(f.context));
  return note && RANK[f.severity] < RANK[configured] ? f.severity : configured;
}

/**
 * A finding as the project (and the user's settings) judge it: null when its rule is
 * off; a hot-key finding on a key the config expects under one partition's ceiling
 * becomes info with the team's reason; otherwise the rule's configured severity (a
 * ceiling for what runs once or is a note, `configuredSeverity`).
 */
export function judgeFinding(
  f: Finding,
  rules: Record<string, RuleSeverity>,
  keys: Record<string, KeyFact>,
  cold: ColdEntries | null = null,
): Finding | null {
  const configured = rules[f.rule];
  if (configured === 'off') return null;
  const severity = configured ? configuredSeverity(f, configured) : f.severity;
  let out = severity !== f.severity ? { ...f, severity } : f;
  // How often a marked route runs is the team's word: it cools the hot-key rules only.
  if (RATE_RULES.has(f.rule)) out = placeByColdEntries(out, cold);
  const fact = RATE_RULES.has(f.rule) ? factFor(f, keys) : null;
  const rate = fact?.[1].peakWritesPerSecond;
  if (fact && rate !== undefined) {
    const why = fact[1].reason ? ` (${fact[1].reason})` : '';
    if (rate < PARTITION_WCU)
      out = {
        ...out,
        severity: 'info',
        message: `${out.message} The project config expects ${fact[0]} to stay under ${rate} writes/s${why}, within one partition's ${PARTITION_WCU.toLocaleString('en-US')} WCU.`,
      };
    else
      out = {
        ...out,
        message: `${out.message} The project config expects up to ${rate} writes/s on ${fact[0]}${why}: about ${Math.ceil(rate / 800)} shards.`,
      };
  }
  return out;
}

import * as path from 'node:path';
import { minimatch } from 'minimatch';
import type { ColdEntries } from '../../../protocol/src/settings';
import { type EntryPoint, type Finding, isOneOffEntry } from '../engine';
import type { LoadedConfig } from './project-config';

/**
 * Entry points the team marks cold in the project config (`entryPoints.cold`): an admin
 * page, a back-office route, a rare job. How often a route is called is not in the code;
 * only the team knows that `POST /v1/credentials` is a person editing a secret a few times
 * a day. A hot-key finding reached only from such entry points (tests and scripts aside)
 * is `info`, and says which and where the project said so.
 *
 * A pattern is one of:
 * - a route: a method (or `*`) and a path glob, `GET /v1/credentials/**`, `* /admin/**`;
 * - a path glob, `tools/**`, which also makes the files themselves scripts (`configuredRole`);
 *   here it matches the entry points whose handler file it covers, and the other entry
 *   points (a schedule rule, a function of a template) by name: `AdminReportFunction`.
 */

const ROUTE = /^(\*|[A-Za-z]+)\s+(\/\S*)$/;

/** A pattern that names routes, which no file path is. */
export const isEntryPattern = (p: string) => ROUTE.test(p);

/** The cold entry point patterns of a loaded config, with the folder they are relative to. */
export function coldEntriesOf(loaded: LoadedConfig): ColdEntries | null {
  const patterns = loaded.config.entryPoints.cold;
  if (!patterns.length || !loaded.file) return null;
  return { base: loaded.base, source: path.basename(loaded.file), patterns };
}

const glob = (value: string, pattern: string) => minimatch(value, pattern, { dot: true, nocase: false });

function matchesOne(e: EntryPoint, pattern: string, base: string): boolean {
  const route = ROUTE.exec(pattern);
  if (route) {
    if (e.kind !== 'api' && e.kind !== 'websocket') return false;
    const [method, ...rest] = e.name.split(' ');
    const routePath = rest.join(' ');
    return (route[1] === '*' || route[1].toUpperCase() === method.toUpperCase()) && glob(routePath, route[2]);
  }
  if (e.kind !== 'api' && glob(e.name, pattern)) return true;
  const rel = path.relative(base, e.file).split(path.sep).join('/');
  return !rel.startsWith('..') && glob(rel, pattern);
}

export function isColdEntry(e: EntryPoint, cold: ColdEntries): boolean {
  return cold.patterns.some((p) => matchesOne(e, p, cold.base));
}

/**
 * A finding reached only from entry points the project marks cold: `info`, naming
 * them (three at most) and the config file. Left as it is when any running entry point is
 * not marked, or when nothing is known of its reach.
 */
export function placeByColdEntries(f: Finding, cold: ColdEntries | null | undefined): Finding {
  const entries = f.access.reach?.entryPoints ?? [];
  if (!cold || !entries.length) return f;
  const running = entries.filter((e) => !isOneOffEntry(e.kind));
  if (!running.length || !running.every((e) => isColdEntry(e, cold))) return f;
  const named = running.slice(0, 3).map((e) => e.name);
  const more = running.length > named.length ? ` and ${running.length - named.length} more` : '';
  return {
    ...f,
    severity: 'info',
    message: `${f.message} Cold path: reached only from ${named.join(', ')}${more}, which ${cold.source} marks cold (entryPoints.cold).`,
  };
}

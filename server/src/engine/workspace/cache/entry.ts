import type { FileAnalysis } from '../../analyze';
import type { Finding } from '../../model';
import type { FileBindings } from '../env-binder';
import { isResolution, type Resolution } from '../import-resolutions';
import { isWorkspaceLookup, type WorkspaceLookup } from '../workspace-lookups';
import { isStamp, type Stamp } from './stamp';
import { isModuleReads } from '../../module-reads';

/**
 * One file's cache entry as it is written: plain JSON. A finding's `access` is the same
 * object as one of the file's accesses (the fixes look their own writer up by identity),
 * so it is written as that access's position and made the same object again on load.
 */
export interface Entry {
  /** sha-1 of the file's text as analysed. */
  hash: string;
  /** The file's stat when that text was read (stamp.ts); absent when it was an open buffer or modified too recently to trust. */
  stamp?: Stamp;
  /** The modules the analysis read, with the hash of each one's text then (null: not readable). */
  deps: Array<[string, string | null]>;
  analysis: StoredAnalysis;
  /** What the file imports, for a file the pre-scan passed over (the wrapper-caller pass reads it). */
  imports?: string[];
  /** The tables its analysis was made with (env-binder.ts): restored, a file is analysed again only when they moved. */
  bindings?: FileBindings;
  /** For a file the pre-scan passed over: whether its text may declare entry points, when that was looked at (reach.ts). */
  marked?: boolean;
  /** The imports its analysis followed and the files they named (import-resolutions.ts): restored only while each names the same. */
  resolutions?: Resolution[];
  /** What its analysis looked up by name across the workspace (workspace-lookups.ts): restored only while each answers the same. */
  lookups?: WorkspaceLookup[];
}

type StoredFinding = Omit<Finding, 'access'> & { access: number | Finding['access'] };
export type StoredAnalysis = Omit<FileAnalysis, 'findings'> & { findings: StoredFinding[] };

export function encodeAnalysis(a: FileAnalysis): StoredAnalysis {
  const at = new Map(a.accesses.map((x, i) => [x, i]));
  return { ...a, findings: a.findings.map((f) => ({ ...f, access: at.get(f.access) ?? f.access })) };
}

export function decodeAnalysis(a: StoredAnalysis): FileAnalysis {
  // Most files have no findings (4,850 of bench/workspace's 5,000): nothing to point back.
  if (a.findings.length === 0) return a as FileAnalysis;
  return {
    ...a,
    findings: a.findings.map((f) => ({ ...f, access: typeof f.access === 'number' ? a.accesses[f.access] : f.access })),
  };
}

/**
 * Whether a parsed value has an entry's shape. The file passed its checksum, so this
 * guards against a cache written by another program under the same name, not against
 * damage; a finding pointing at an access the file does not have fails it too.
 */
export function isEntry(v: unknown): v is Entry {
  const e = v as Entry;
  if (!e || typeof e !== 'object' || typeof e.hash !== 'string' || !Array.isArray(e.deps)) return false;
  if (e.stamp !== undefined && !isStamp(e.stamp)) return false;
  if (e.marked !== undefined && typeof e.marked !== 'boolean') return false;
  if (e.resolutions !== undefined && !(Array.isArray(e.resolutions) && e.resolutions.every(isResolution))) return false;
  if (e.lookups !== undefined && !(Array.isArray(e.lookups) && e.lookups.every(isWorkspaceLookup))) return false;
  const b = e.bindings;
  if (b !== undefined && (typeof b !== 'object' || typeof b?.env !== 'string' || typeof b.named !== 'string'))
    return false;
  const a = e.analysis;
  if (!a || typeof a !== 'object' || typeof a.file !== 'string' || typeof a.language !== 'string') return false;
  if (!Array.isArray(a.accesses) || !Array.isArray(a.findings) || !Array.isArray(a.imports)) return false;
  if (a.reads !== undefined && !isModuleReads(a.reads)) return false;
  return a.findings.every(
    (f) =>
      typeof f.access !== 'number' || (Number.isInteger(f.access) && f.access >= 0 && f.access < a.accesses.length),
  );
}

const sameList = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined, same: (x: T, y: T) => boolean) =>
  a === b || (!!a && !!b && a.length === b.length && a.every((x, i) => same(x, b[i])));
const eq = <T>(x: T, y: T) => x === y;

/** The parts of an entry its file and this run's index decide: all but the analysis, the resolutions and the lookups. */
export type EntryOwnParts = Pick<Entry, 'hash' | 'deps' | 'stamp' | 'imports' | 'bindings' | 'marked'>;

/** Whether an entry's own parts (hash, deps, stamp, imports, bindings, mark) are those given. */
export function sameOwnParts(old: Entry, now: EntryOwnParts): boolean {
  // A part absent from one and present in the other differs too (undefined against a value).
  return (
    old.hash === now.hash &&
    sameList(old.deps, now.deps, (a, b) => a[0] === b[0] && a[1] === b[1]) &&
    sameList(old.stamp, now.stamp, eq) &&
    sameList(old.imports, now.imports, eq) &&
    (old.bindings === now.bindings ||
      (old.bindings?.env === now.bindings?.env && old.bindings?.named === now.bindings?.named)) &&
    old.marked === now.marked
  );
}

/** Whether an entry's parts beside its analysis (its own parts, resolutions and lookups) are those given. */
export function sameEntryRest(old: Entry, rest: Omit<Entry, 'analysis'>): boolean {
  return (
    sameOwnParts(old, rest) &&
    sameList(old.resolutions, rest.resolutions, (a, b) => a.every((x, i) => x === b[i])) &&
    sameList(old.lookups, rest.lookups, (a, b) => a.every((x, i) => x === b[i]))
  );
}

import * as fs from 'node:fs';
import { type Access, type FileAnalysis, type LogicalKey, logicalKeysOf, type WorkspaceIndex } from '../../engine';
import type { FixContext } from './fix-model';
import { perFile } from './per-file';

export interface ContextOptions {
  /** An open editor's buffer, when the file is open; else the file is read from disk. */
  openText?: (file: string) => string | null;
  shards?: { defaultCount?: number; peakWriteUnits?: number };
  /**
   * The index and the texts stay as they are while the context is used (the language
   * server keeps one context per index generation): files read from disk, each key's accesses and
   * what the fixes work out per access (`memo`) are then computed once and shared by
   * every finding's fixes, instead of once per finding and request.
   */
  stable?: boolean;
}

/**
 * A `FixContext` over a workspace index: what the language server and the tests hand
 * the fix providers. Analyses come with the cross-file findings merged in (so a fix
 * sees the same findings the editor shows); texts are the open buffer first, then the
 * file on disk.
 */
export function fixContextOf(index: WorkspaceIndex, options: ContextOptions = {}): FixContext {
  const analyses = new Map<string, FileAnalysis>();
  const readFile = (file: string): string | null => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  const files = new Map<string, string | null>();
  let byKey: Map<string, Access[]> | null = null;
  const memos = new WeakMap<object, Map<string, unknown>>();
  return {
    textOf(file) {
      const open = options.openText?.(file);
      if (open != null) return open;
      if (!options.stable) return readFile(file);
      if (!files.has(file)) files.set(file, readFile(file));
      return files.get(file)!;
    },
    analysisOf(file) {
      if (!index.has(file)) return null;
      let a = analyses.get(file);
      if (!a) {
        a = withFindingsOnDemand(index.analysisOf(file)!, () => index.findingsFor(file));
        analyses.set(file, a);
      }
      return a;
    },
    accessesOf(key: LogicalKey): Access[] {
      if (!options.stable) return accessesByKey(index, key.id).get(key.id) ?? [];
      byKey ??= accessesByKey(index);
      // A copy: callers may add to it.
      return [...(byKey.get(key.id) ?? [])];
    },
    files: () => [...index.analyses()].map((f) => f.file),
    analyses: () => index.analyses(),
    calls: () => index.callGraph(),
    tables: () => index.infrastructure().flatMap((d) => d.tables),
    directAccesses: () => index.infra.directAccesses(),
    shards: {
      defaultCount: options.shards?.defaultCount ?? 10,
      peakWriteUnits: options.shards?.peakWriteUnits ?? 0,
    },
    ...(options.stable
      ? {
          memo<T>(owner: object, what: string, compute: () => T): T {
            let own = memos.get(owner);
            if (!own) memos.set(owner, (own = new Map()));
            if (!own.has(what)) own.set(what, compute());
            return own.get(what) as T;
          },
        }
      : {}),
  };
}

/** Every access of each logical key (or of the one `only`), files in path order. */
function accessesByKey(index: WorkspaceIndex, only?: string): Map<string, Access[]> {
  const out = new Map<string, Access[]>();
  // Most files make no call: sorted and looked up, they were most of this scan after each edit.
  const files = [...index.analyses()]
    .filter((f) => f.accesses.length > 0)
    .sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0));
  for (const f of files) {
    // Once per access even when two of its keys are one id.
    const keyed = perFile(f.accesses, 'key-ids', () =>
      f.accesses.flatMap((a) => [...new Set(logicalKeysOf(a).map((k) => k.id))].map((id) => ({ id, a }))),
    );
    for (const { id, a } of keyed) {
      if (only !== undefined && id !== only) continue;
      const list = out.get(id);
      if (list) list.push(a);
      else out.set(id, [a]);
    }
  }
  return out;
}

/**
 * The analysis with the cross-file findings in `findings`, worked out when first read:
 * most fixes look at other files' accesses only, and judging every file of the workspace
 * to gather its index reads was most of a hover's time after an edit (1.6 of 3.4 s over
 * 200 hovers in bench row (g)'s profile).
 */
function withFindingsOnDemand(own: FileAnalysis, findingsOf: () => FileAnalysis['findings']): FileAnalysis {
  let findings: FileAnalysis['findings'] | null = null;
  const out = { ...own } as FileAnalysis;
  Object.defineProperty(out, 'findings', {
    enumerable: true,
    configurable: true,
    get: () => (findings ??= findingsOf()),
  });
  return out;
}

import * as fs from 'node:fs';
import type { FileAnalysis } from '../../engine/analyze';
import { logicalKeysOf } from '../../engine/keys/logical-key';
import type { Access, LogicalKey } from '../../engine/model';
import type { WorkspaceIndex } from '../../engine/workspace/index';
import type { FixContext } from './fix-model';

export interface ContextOptions {
  /** An open editor's buffer, when the file is open; else the file is read from disk. */
  openText?: (file: string) => string | null;
  shards?: { defaultCount?: number; peakWriteUnits?: number };
}

/**
 * A `FixContext` over a workspace index: what the language server and the tests hand
 * the fix providers. Analyses come with the cross-file findings merged in (so a fix
 * sees the same findings the editor shows); texts are the open buffer first, then the
 * file on disk.
 */
export function fixContextOf(index: WorkspaceIndex, options: ContextOptions = {}): FixContext {
  const analyses = new Map<string, FileAnalysis>();
  return {
    textOf(file) {
      const open = options.openText?.(file);
      if (open != null) return open;
      try {
        return fs.readFileSync(file, 'utf8');
      } catch {
        return null;
      }
    },
    analysisOf(file) {
      if (!index.has(file)) return null;
      let a = analyses.get(file);
      if (!a) {
        const own = [...index.analyses()].find((x) => x.file === file)!;
        a = { ...own, findings: index.findingsFor(file) };
        analyses.set(file, a);
      }
      return a;
    },
    accessesOf(key: LogicalKey): Access[] {
      const out: Access[] = [];
      const files = [...index.analyses()].sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0));
      for (const f of files) {
        for (const a of f.accesses) if (logicalKeysOf(a).some((k) => k.id === key.id)) out.push(a);
      }
      return out;
    },
    files: () => [...index.analyses()].map((f) => f.file),
    shards: {
      defaultCount: options.shards?.defaultCount ?? 10,
      peakWriteUnits: options.shards?.peakWriteUnits ?? 0,
    },
  };
}

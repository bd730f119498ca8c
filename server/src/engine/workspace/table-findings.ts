/**
 * The table rules (SL011–SL013) over a workspace: each declared table with the accesses
 * known for certain to be on it. Findings on accesses are worked out once per version of
 * the workspace and handed out per file; findings on a definition need every file's
 * findings first (a table is worth watching when its keys are hot), so they are made
 * from those, on demand.
 */
import type { FileAnalysis } from '../analyze';
import type { Access, FileContexts, FileRole, Finding, SourceRange } from '../model';
import { checkTable, HOT_KEY_RULES, type DeclaredTable } from '../rules';
import type { SeverityOverrides } from '../rules';
import type { DeclaredTables } from './declared-tables';

export interface TableHost {
  /** Changes whenever an analysis or an infrastructure file does. */
  version(): string;
  analyses(): Iterable<FileAnalysis>;
  contextsOf(files: Iterable<string>): FileContexts;
  where(at: SourceRange): string;
  severity: SeverityOverrides;
  contexts?: readonly FileRole[];
}

export class TableFindings {
  private memo: { version: string; byFile: Map<string, Finding[]> } | null = null;

  constructor(
    private readonly declared: DeclaredTables,
    private readonly host: TableHost,
  ) {}

  /** The table rules' findings on the accesses of `file`. */
  in(file: string): Finding[] {
    if (this.declared.all().length === 0) return [];
    const version = this.host.version();
    if (this.memo?.version !== version) this.memo = { version, byFile: this.onAccesses() };
    return this.memo.byFile.get(file) ?? [];
  }

  /** Findings on table definitions, by infrastructure file, from every source file's findings. */
  onDefinitions(findings: Iterable<Finding>): Map<string, Finding[]> {
    const out = new Map<string, Finding[]>();
    if (this.declared.all().length === 0) return out;
    const hot = new Map<DeclaredTable, Finding[]>();
    for (const f of findings) {
      if (!HOT_KEY_RULES.has(f.rule) || f.severity === 'info') continue;
      const d = this.declared.of(f.access);
      if (d) push(hot, d, f);
    }
    for (const [declared, list] of hot) {
      const input = { declared, accesses: [], hot: list, where: this.host.where };
      for (const f of checkTable('findings', input, this.host.severity, { contexts: this.host.contexts, files: {} }))
        push(out, f.file, f);
    }
    return out;
  }

  private onAccesses(): Map<string, Finding[]> {
    const byTable = new Map<DeclaredTable, Access[]>();
    for (const analysis of this.host.analyses())
      for (const a of analysis.accesses) {
        const d = this.declared.of(a);
        if (d) push(byTable, d, a);
      }
    const out = new Map<string, Finding[]>();
    for (const [declared, accesses] of byTable) {
      const files = this.host.contextsOf(new Set(accesses.map((a) => a.file)));
      const input = { declared, accesses, hot: [], where: this.host.where };
      for (const f of checkTable('accesses', input, this.host.severity, { contexts: this.host.contexts, files }))
        push(out, f.file, f);
    }
    return out;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

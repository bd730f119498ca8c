/**
 * The findings on table definitions (SL013) as each file holding a definition shows
 * them: a template, an included Serverless resources file, a Terraform file or a CDK
 * stack file. They are made from the hot-key findings of the files whose accesses are
 * on declared tables (table-findings.ts), kept per version of the workspace, and
 * silenced by the `shardlens-ignore` comments of the file they sit in: YAML and HCL
 * comments read here, a source file's from its analysis.
 */
import { ignoreComments } from '../frontends/infra';
import type { Finding } from '../model';
import { commentSuppressions, isSuppressedAt, type Suppressions } from '../rules/suppress';
import type { DeclaredTables } from './declared-tables';
import type { TableFindings } from './table-findings';

export interface DefinitionHost {
  /** Changes whenever an analysis or an infrastructure file does. */
  version(): string;
  /** The findings of the source files whose accesses are on declared tables (their own and cross-file). */
  hotSources(): Finding[];
  /** A source file's `shardlens-ignore` lines when the index analysed it; undefined otherwise. */
  analysedIgnores(file: string): Array<[number, string[]]> | undefined;
  /** A file's current text (its open buffer, else the disk); null when it cannot be read. */
  text(file: string): string | null;
}

export class DefinitionFindings {
  private memo: { version: string; byFile: Map<string, Finding[]> } | null = null;
  private filesMemo: { tables: unknown; files: Set<string> } | null = null;
  private readonly comments = new Map<string, { text: string; ignores: Array<[number, string[]]> }>();

  constructor(
    private readonly declared: DeclaredTables,
    private readonly tables: TableFindings,
    private readonly host: DefinitionHost,
  ) {}

  /** The files that hold a table definition: where findings on definitions may sit. */
  files(): Set<string> {
    const tables = this.declared.all();
    if (this.filesMemo?.tables !== tables)
      this.filesMemo = { tables, files: new Set(tables.map((d) => d.table.source.file)) };
    return this.filesMemo.files;
  }

  /** The findings on the definitions `file` holds, its comments' silenced left out (and noted in `used`). */
  in(file: string, used?: Set<string>): Finding[] {
    if (!this.files().has(file)) return [];
    const version = this.host.version();
    if (this.memo?.version !== version)
      this.memo = { version, byFile: this.tables.onDefinitions(this.host.hotSources()) };
    return this.unsilenced(file, this.memo.byFile.get(file) ?? [], used);
  }

  /** The findings on definitions made from `findings` (every file's, as `results()` has them), by file, silenced ones left out. */
  from(findings: Iterable<Finding>): Map<string, Finding[]> {
    const out = new Map<string, Finding[]>();
    if (this.declared.all().length === 0) return out;
    for (const [file, list] of this.tables.onDefinitions(findings)) {
      const kept = this.unsilenced(file, list);
      if (kept.length) out.set(file, kept);
    }
    return out;
  }

  /** A file's `shardlens-ignore` lines: a source file's from its analysis, a template's from its comments. */
  ignoresOf(file: string): Array<[number, string[]]> {
    const analysed = this.host.analysedIgnores(file);
    if (analysed) return analysed;
    const text = this.host.text(file);
    if (text === null) return [];
    const known = this.comments.get(file);
    if (known?.text === text) return known.ignores;
    const s = commentSuppressions(text, ignoreComments(file, text));
    const ignores: Array<[number, string[]]> = [...s].map(([line, codes]) => [line, [...codes]]);
    this.comments.set(file, { text, ignores });
    return ignores;
  }

  private unsilenced(file: string, findings: Finding[], used?: Set<string>): Finding[] {
    if (!findings.length) return findings;
    const ignores = this.ignoresOf(file);
    if (!ignores.length) return findings;
    const s: Suppressions = new Map(ignores.map(([line, codes]) => [line, new Set(codes)]));
    const lines = this.host.text(file)?.split('\n') ?? [];
    return findings.filter((f) => !isSuppressedAt(f, s, headLines(lines, f.span.startLine), used));
  }
}

/** A YAML mapping's key alone on the line above (`TalliesTable:`, maybe with a comment). */
const KEY_LINE = /^\s*(?:[\w.-]+|"[^"]*"|'[^']*'):\s*(?:#.*)?$/;

/**
 * The lines a definition starts on: its own first line, and in YAML the key line above
 * it, where a resource's name is written (`TalliesTable:` above its `Type:`).
 */
function headLines(lines: string[], start: number): number[] {
  return start > 0 && KEY_LINE.test(lines[start - 1] ?? '') ? [start, start - 1] : [start];
}

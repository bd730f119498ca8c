import * as path from 'node:path';
import { analyzeSource, type AnalyzeOptions, type FileAnalysis } from '../analyze';
import type { Access, Finding, SourceLanguage } from '../model';
import { GROUP_RULES, type KeyGroup } from '../rules';
import { logicalKeysOf } from './logical-key';

export interface IndexOptions extends AnalyzeOptions {
  /** Messages name other files relative to this folder. */
  root: string;
}

/**
 * Every call site of a workspace, grouped by logical key, with the cross-file
 * findings of each key. Updating one file re-extracts that file only and re-checks
 * only the logical keys it touched before or touches now.
 */
export class WorkspaceIndex {
  private readonly files = new Map<string, FileAnalysis>();
  private readonly keysOfFile = new Map<string, string[]>();
  private readonly filesOfKey = new Map<string, Set<string>>();
  private readonly groupFindings = new Map<string, Finding[]>();

  constructor(private readonly options: IndexOptions) {}

  /** Analyses one file's text and re-checks the keys it touches; returns those keys. */
  update(file: string, text: string, language: SourceLanguage): Set<string> {
    return this.set(analyzeSource(file, text, language, this.options));
  }

  /** Stores an analysis made elsewhere (the CLI's worker, the editor's open document). */
  set(analysis: FileAnalysis): Set<string> {
    const file = analysis.file;
    const before = this.keysOfFile.get(file) ?? [];
    const after = [...new Set(analysis.accesses.flatMap(logicalKeysOf))];
    this.files.set(file, analysis);
    this.relink(file, before, after);
    const touched = new Set([...before, ...after]);
    for (const key of touched) this.recheck(key);
    return touched;
  }

  remove(file: string): Set<string> {
    const before = this.keysOfFile.get(file) ?? [];
    this.files.delete(file);
    this.relink(file, before, []);
    const touched = new Set(before);
    for (const key of touched) this.recheck(key);
    return touched;
  }

  private relink(file: string, before: string[], after: string[]): void {
    for (const k of before) {
      const set = this.filesOfKey.get(k);
      set?.delete(file);
      if (set?.size === 0) this.filesOfKey.delete(k);
    }
    for (const k of after) {
      let set = this.filesOfKey.get(k);
      if (!set) this.filesOfKey.set(k, (set = new Set()));
      set.add(file);
    }
    if (after.length) this.keysOfFile.set(file, after);
    else this.keysOfFile.delete(file);
  }

  private recheck(key: string): void {
    const files = this.filesOfKey.get(key);
    if (!files) {
      this.groupFindings.delete(key);
      return;
    }
    const accesses = [...files].flatMap((f) =>
      (this.files.get(f)?.accesses ?? []).filter((a) => logicalKeysOf(a).includes(key)),
    );
    const group: KeyGroup = { key, accesses, where: (a) => this.where(a) };
    const severity = this.options.severity ?? {};
    const found: Finding[] = [];
    for (const rule of GROUP_RULES) {
      const s = severity[rule.code] ?? rule.defaultSeverity;
      if (s !== 'off') found.push(...rule.check(group, s));
    }
    this.groupFindings.set(key, found);
  }

  private where(a: Access): string {
    const rel = path.relative(this.options.root, a.file).split(path.sep).join('/');
    return `${rel}:${(a.partitionKey?.inline ? a.partitionKey.span : a.span).startLine + 1}`;
  }

  /** One file's findings: its own and the cross-file ones placed in it, sorted by position. */
  findingsFor(file: string): Finding[] {
    const own = this.files.get(file)?.findings ?? [];
    const cross = (this.keysOfFile.get(file) ?? []).flatMap((k) => this.groupFindings.get(k) ?? []);
    return dedupe([...own, ...cross.filter((f) => f.file === file)]).sort(byPosition);
  }

  /** Every file's analysis with cross-file findings merged in, in path order. */
  results(): FileAnalysis[] {
    return [...this.files.keys()]
      .sort()
      .map((file) => ({ ...this.files.get(file)!, findings: this.findingsFor(file) }));
  }

  get size(): number {
    return this.files.size;
  }
}

function byPosition(a: Finding, b: Finding): number {
  return a.span.startLine - b.span.startLine || a.span.startColumn - b.span.startColumn || a.rule.localeCompare(b.rule);
}

/** A read that belongs to two logical keys (`K#3` is `K#3` and `K`) is reported once. */
function dedupe(fs: Finding[]): Finding[] {
  const seen = new Set<string>();
  return fs.filter((f) => {
    const id = `${f.rule}:${f.span.startLine}:${f.span.startColumn}:${f.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeSource, type FileAnalysis } from '../../server/src/engine/analyze';
import type { SourceLanguage } from '../../server/src/engine/model';
import { initParsers, languageForFile } from '../../server/src/engine/syntax/parser';
import { classifyAccess, render } from '../../server/src/engine/model/template';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

/** Analyses a snippet as if it were a file with this name. */
export async function analyze(file: string, text: string): Promise<FileAnalysis> {
  await initParsers();
  return analyzeSource(file, text, languageForFile(file) as SourceLanguage);
}

/** One line per access: `line operation table pk=template (classification)`, 1-based lines. */
export function summarize(r: FileAnalysis): string[] {
  return r.accesses.map((a) => {
    const line = (a.partitionKey?.inline ? a.partitionKey.span : a.span).startLine + 1;
    const table = a.table.kind === 'unknown' ? '?' : a.table.name;
    const pk = a.partitionKey ? `${a.partitionKey.attribute}=${render(a.partitionKey.template)}` : 'pk=?';
    const sk = a.sortKey ? ` ${a.sortKey.attribute}=${render(a.sortKey.template)}` : '';
    return `${line} ${a.operation} ${table} ${pk}${sk} (${classifyAccess(a)})`;
  });
}

/** `line rule` per finding, 1-based lines. */
/** What a user sees of an analysis: accesses, findings and imports, positions included (incremental = full). */
export function observable(r: FileAnalysis): string {
  return JSON.stringify({
    accesses: r.accesses,
    findings: r.findings.map(({ access: _, ...f }) => f),
    imports: r.imports,
  });
}

export function findingLines(r: FileAnalysis): string[] {
  return r.findings.map((f) => `${f.span.startLine + 1} ${f.rule}`);
}

/**
 * Writes a small repository (path → text) to a temporary folder and indexes it as the
 * CLI does, every pass included; files are analysed in the order given.
 */
export async function indexedWorkspace(files: Record<string, string>): Promise<{ index: WorkspaceIndex; dir: string }> {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-workspace-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const index = new WorkspaceIndex({ root: dir });
  index.analyzeAll(Object.keys(files).map((f) => path.join(dir, f)));
  return { index, dir };
}

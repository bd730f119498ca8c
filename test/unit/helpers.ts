import { analyzeSource, type FileAnalysis } from '../../server/src/engine/analyze';
import type { SourceLanguage } from '../../server/src/engine/model';
import { initParsers, languageForFile } from '../../server/src/engine/parser';
import { classifyAccess, render } from '../../server/src/engine/template';

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
export function findingLines(r: FileAnalysis): string[] {
  return r.findings.map((f) => `${f.span.startLine + 1} ${f.rule}`);
}

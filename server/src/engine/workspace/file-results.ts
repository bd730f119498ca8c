/**
 * Each file's findings with those on the table definitions (SL013) merged in: a source
 * file's own and cross-file ones, and the findings on the definitions it holds, which are
 * made from the hot-key findings of every file with an access on a declared table.
 */
import { emptyAnalysis, type FileAnalysis } from '../analyze';
import type { Finding } from '../model';
import { annotated } from './access-reach';
import { byPosition, codeFindings } from './code-findings';
import type { IndexState } from './index-state';

/**
 * One file's findings: its own and the cross-file ones placed in it, and those on the
 * table definitions it holds (SL013, made from every file's), sorted by position.
 */
export function findingsFor(s: IndexState, file: string, used?: Set<string>): Finding[] {
  const onDefinitions = s.definitions.in(file, used);
  if (!s.files.has(file)) return onDefinitions;
  const code = codeFindings(s, file, used);
  return onDefinitions.length ? [...code, ...onDefinitions].sort(byPosition) : code;
}

/** `line:rule` of each finding in `file` a `shardlens-ignore` comment silenced, its own and cross-file. */
export function silencedIn(s: IndexState, file: string): Set<string> {
  const used = new Set<string>(s.files.get(file)?.silenced ?? []);
  findingsFor(s, file, used);
  return used;
}

/**
 * Every file's analysis with cross-file findings merged in, in path order, and an entry
 * (`infrastructure: true`) for each infrastructure file that holds findings on the
 * tables it declares; a CDK stack file analysed as code gets them in its own entry.
 */
export function results(s: IndexState): FileAnalysis[] {
  const out = [...s.files.keys()].sort().map((file) => {
    const analysis = s.files.get(file)!;
    const findings = codeFindings(s, file);
    return { ...analysis, accesses: analysis.accesses.map((a) => annotated(s, a)), findings };
  });
  const onDefinitions = s.definitions.from(out.flatMap((r) => r.findings));
  if (onDefinitions.size === 0) return out;
  for (const [file, findings] of onDefinitions) {
    const own = out.find((r) => r.file === file);
    if (own) own.findings = [...own.findings, ...findings].sort(byPosition);
    else {
      // Its comments, so that `--report-unused-ignores` reads a template's as a source file's.
      const ignores = s.definitions.ignoresOf(file);
      const entry = emptyAnalysis(file, findings[0].access.language, null);
      out.push({ ...entry, findings, infrastructure: true, ...(ignores.length ? { ignores } : {}) });
    }
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * The findings of the files with an access on a declared table: the hot-key findings
 * on definitions are made from (an edit elsewhere leaves them as they were). In file
 * order, not the order files came into the index: a definition's message names the first
 * of them, and the language server indexes files in whatever order they open and change.
 */
export function hotSourceFindings(s: IndexState): Finding[] {
  const out: Finding[] = [];
  const files = [...s.files].filter(([, analysis]) => analysis.accesses.some((a) => s.declared.of(a)));
  for (const [file] of files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push(...codeFindings(s, file));
  return out;
}

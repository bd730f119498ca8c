import type { FileAnalysis, Severity } from '../engine';
import { fingerprints } from './fingerprint';
import { location } from './report';

/**
 * The outputs CI systems read without a plugin: GitHub workflow commands (one
 * annotation per finding on the pull request's diff) and GitLab's Code Quality report.
 */

const GITHUB_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** A workflow command's message: `%`, CR and LF would end or corrupt the command. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value, where `:` and `,` also separate. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=src/a.ts,line=3,col=7,endLine=3,endColumn=20,title=SL001 constant-partition-key::message` per finding. */
export function toGithubAnnotations(results: FileAnalysis[]): string {
  const lines: string[] = [];
  for (const r of results)
    for (const f of r.findings) {
      const at = location(f.file, f.span);
      const props = [
        `file=${escapeProperty(at.file)}`,
        `line=${at.line}`,
        `col=${at.column}`,
        `endLine=${at.endLine}`,
        `endColumn=${at.endColumn}`,
        `title=${escapeProperty(`${f.rule} ${f.category}`)}`,
      ];
      lines.push(`::${GITHUB_LEVEL[f.severity]} ${props.join(',')}::${escapeData(f.message)}`);
    }
  return lines.map((l) => l + '\n').join('');
}

const GITLAB_SEVERITY: Record<Severity, string> = { error: 'critical', warning: 'major', info: 'info' };

/** GitLab Code Quality: a JSON array, each issue with a fingerprint that survives unrelated edits. */
export function toGitlabCodeQuality(results: FileAnalysis[]): unknown[] {
  const prints = fingerprints(results);
  const out: unknown[] = [];
  for (const r of results)
    for (const f of r.findings) {
      const at = location(f.file, f.span);
      out.push({
        description: `${f.rule}: ${f.message}`,
        check_name: `${f.rule} ${f.category}`,
        fingerprint: prints.get(f),
        severity: GITLAB_SEVERITY[f.severity],
        location: { path: at.file, lines: { begin: at.line, end: at.endLine } },
      });
    }
  return out;
}

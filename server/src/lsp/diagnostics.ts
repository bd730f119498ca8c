import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { ShardLensSettings } from '../../../protocol/src/settings';
import type { Finding, Severity } from '../engine/model';
import { docsUrl } from '../engine/rules';
import { spanToRange } from './convert';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** What a code action needs to know about a diagnostic it was asked about. */
export interface DiagnosticData {
  rule: string;
}

/** Findings as the user configured them: rules set to `off` dropped, severities overridden. */
export function toDiagnostics(findings: Finding[], settings: ShardLensSettings): Diagnostic[] {
  if (!settings.enable) return [];
  const out: Diagnostic[] = [];
  for (const f of findings) {
    const severity = settings.rules[f.rule] ?? f.severity;
    if (severity === 'off') continue;
    const data: DiagnosticData = { rule: f.rule };
    out.push({
      range: spanToRange(f.span),
      severity: SEVERITY[severity],
      source: 'shardlens',
      code: f.rule,
      codeDescription: { href: docsUrl(f.rule) },
      message: f.message,
      data,
    });
  }
  return out;
}

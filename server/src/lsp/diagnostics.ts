import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { ShardLensSettings } from '../../../protocol/src/settings';
import { docsUrl, type Finding, type Severity } from '../engine';
import { keyToUri, spanToRange } from './convert';
import { judgeFinding } from '../config/apply';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/**
 * One finding as the user configured it: null when its rule is `off`, its severity
 * overridden otherwise. The range is the finding's own (the key expression where it
 * enters the call), and the places that explain it (the constant's declaration, the
 * writer of a key) travel as related information, so an editor can link to them.
 */
export function toDiagnostic(finding: Finding, settings: ShardLensSettings): Diagnostic | null {
  // The same judgement as the CLI's: rule severities, then what the project says of the key.
  const f = judgeFinding(finding, settings.rules, settings.keys ?? {}, settings.coldEntries ?? null);
  if (!f) return null;
  const d: Diagnostic = {
    range: spanToRange(f.span),
    severity: SEVERITY[f.severity],
    source: 'shardlens',
    code: f.rule,
    codeDescription: { href: docsUrl(f.rule) },
    message: f.message,
  };
  if (f.related.length > 0) {
    d.relatedInformation = f.related.map((r) => ({
      location: { uri: keyToUri(r.file), range: spanToRange(r.span) },
      message: r.message,
    }));
  }
  return d;
}

/** A file's findings as the diagnostics to publish; none when ShardLens is disabled. */
export function toDiagnostics(findings: Finding[], settings: ShardLensSettings): Diagnostic[] {
  if (!settings.enable) return [];
  return findings.map((f) => toDiagnostic(f, settings)).filter((d): d is Diagnostic => d !== null);
}

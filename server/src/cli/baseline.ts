import * as fs from 'node:fs';
import * as path from 'node:path';
import { type FileAnalysis, logicalKeyOf, render } from '../engine';
import { UsageError } from './args';
import { fingerprints } from './fingerprint';
import { displayPath } from './report';

/**
 * A baseline: the findings an existing codebase already has, recorded so that a check
 * fails only on new ones. Each entry is the finding's fingerprint (the SARIF
 * `partialFingerprints` one: rule, file, logical key, operation, enclosing function,
 * rank — no line), with the readable parts beside it for review. Entries are sorted,
 * so the file changes only where findings do.
 */
export interface BaselineEntry {
  fingerprint: string;
  rule: string;
  file: string;
  key: string;
}

export interface BaselineFile {
  version: 1;
  findings: BaselineEntry[];
}

export function toBaseline(results: FileAnalysis[]): BaselineFile {
  const prints = fingerprints(results);
  const findings: BaselineEntry[] = [];
  for (const r of results)
    for (const f of r.findings) {
      const a = f.access;
      const key = logicalKeyOf(a)?.id ?? (a.partitionKey ? render(a.partitionKey.template) : '');
      findings.push({ fingerprint: prints.get(f)!, rule: f.rule, file: displayPath(f.file), key });
    }
  const order = (a: BaselineEntry, b: BaselineEntry) =>
    a.file.localeCompare(b.file) ||
    a.rule.localeCompare(b.rule) ||
    a.key.localeCompare(b.key) ||
    a.fingerprint.localeCompare(b.fingerprint);
  return { version: 1, findings: findings.sort(order) };
}

export function writeBaseline(file: string, results: FileAnalysis[]): number {
  const baseline = toBaseline(results);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(baseline, null, 2) + '\n');
  return baseline.findings.length;
}

/** The fingerprints a baseline file records; a usage error when it is missing or not one. */
export function readBaseline(file: string): Set<string> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(
      `--baseline ${file}: ${e instanceof SyntaxError ? 'not JSON: ' + e.message : 'cannot be read'}`,
    );
  }
  const list = (raw as Partial<BaselineFile> | null)?.findings;
  if (!Array.isArray(list) || list.some((e) => typeof (e as BaselineEntry)?.fingerprint !== 'string'))
    throw new UsageError(`--baseline ${file}: not a baseline (write one with --write-baseline)`);
  return new Set(list.map((e: BaselineEntry) => e.fingerprint));
}

/** The results less the findings the baseline records, and how many it held back. */
export function withoutBaseline(
  results: FileAnalysis[],
  known: Set<string>,
): { results: FileAnalysis[]; known: number } {
  const prints = fingerprints(results);
  let held = 0;
  const kept = results.map((r) => {
    const findings = r.findings.filter((f) => !known.has(prints.get(f)!) || (held++, false));
    return findings.length === r.findings.length ? r : { ...r, findings };
  });
  return { results: kept, known: held };
}

import type { FileAnalysis, Finding, Severity } from '../engine';
import type { FailOn } from './args';
import { displayPath, location } from './report';

/**
 * JUnit XML, the test report most CI systems show without a plugin (GitLab's
 * `artifacts: reports: junit`, Jenkins, Azure Pipelines, CircleCI). One test suite per
 * analysed file and one test case per finding; a finding that reaches `--fail-on` is a
 * failure, one below it a passing case that carries its message, so the report and the
 * exit code agree. A file without findings is one passing case, so a fixed finding shows
 * as a test that now passes rather than one that vanished.
 */

const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

/** What XML 1.0 allows in text at all, escaped or not (tab, line ends, and no lone surrogate). */
function allowedInXml(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    cp >= 0x10000
  );
}

/** Text for an attribute or element: XML's specials escaped, characters XML cannot carry dropped. */
export function escapeXml(s: string): string {
  return Array.from(s)
    .filter((ch) => allowedInXml(ch.codePointAt(0) ?? 0))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function fails(f: Finding, failOn: FailOn): boolean {
  return failOn !== 'never' && RANK[f.severity] >= RANK[failOn];
}

function testCase(f: Finding, file: string, failOn: FailOn): string {
  const at = location(f.file, f.span);
  const name = escapeXml(`${f.rule} ${f.category} at ${at.line}:${at.column}`);
  const head = `    <testcase classname="${escapeXml(file)}" name="${name}" file="${escapeXml(file)}" line="${at.line}">`;
  const text = escapeXml(`${file}:${at.line}:${at.column} ${f.severity} ${f.rule}: ${f.message}`);
  const body = fails(f, failOn)
    ? `      <failure type="${f.rule}" message="${escapeXml(f.message)}">${text}</failure>`
    : `      <system-out>${text}</system-out>`;
  return `${head}\n${body}\n    </testcase>`;
}

export function toJunit(results: FileAnalysis[], failOn: FailOn): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const r of results) {
    const file = displayPath(r.file);
    const cases = r.findings.map((f) => testCase(f, file, failOn));
    const failed = r.findings.filter((f) => fails(f, failOn)).length;
    if (cases.length === 0)
      cases.push(
        `    <testcase classname="${escapeXml(file)}" name="no hot-partition risk" file="${escapeXml(file)}"/>`,
      );
    tests += cases.length;
    failures += failed;
    suites.push(
      `  <testsuite name="${escapeXml(file)}" tests="${cases.length}" failures="${failed}" errors="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="shardlens" tests="${tests}" failures="${failures}" errors="0">\n` +
    suites.map((s) => s + '\n').join('') +
    `</testsuites>\n`
  );
}

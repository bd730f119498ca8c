import type { JsonCoverage } from '../../../protocol/src/report';
import { docsUrl, type FileAnalysis, RULE_INFO } from '../engine';
import { FINGERPRINT_KEY, fingerprints } from './fingerprint';
import { RULE_DOCS } from './rule-docs.generated';
import { ruleHelp } from './rule-docs';
import { skippedOf, toJsonFinding, type SkippedPath } from './report';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** SARIF 2.1.0 as GitHub code scanning accepts it: one run, rule metadata, relative URIs. */
export function toSarif(
  results: FileAnalysis[],
  version: string,
  skipped: SkippedPath[] = skippedOf(results, []),
  coverageNote: string | null = null,
  coverage: JsonCoverage | null = null,
): object {
  const prints = fingerprints(results);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ShardLens',
            informationUri: 'https://github.com/shardlens/shardlens',
            version,
            rules: RULE_INFO.map((r) => ({
              id: r.code,
              name: r.category.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase()),
              shortDescription: { text: r.summary },
              ...ruleHelp(RULE_DOCS[r.code] ?? '', r.summary, docsUrl(r.code)),
              helpUri: docsUrl(r.code),
              defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
              properties: { tags: ['dynamodb', 'performance', r.category] },
            })),
          },
        },
        // The run's coverage as counts (the sites are in the JSON output): a property bag,
        // which SARIF leaves to the tool.
        ...(coverage ? { properties: { coverage: sarifCoverage(coverage) } } : {}),
        originalUriBaseIds: { '%SRCROOT%': { uri: `file://${process.cwd().replace(/\/?$/, '/')}` } },
        results: results.flatMap((r) =>
          r.findings.map((f) => {
            const j = toJsonFinding(f);
            return {
              ruleId: f.rule,
              ruleIndex: RULE_INFO.findIndex((x) => x.code === f.rule),
              level: LEVEL[f.severity],
              message: { text: f.message },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: encodeURI(j.file), uriBaseId: '%SRCROOT%' },
                    region: { startLine: j.line, startColumn: j.column, endLine: j.endLine, endColumn: j.endColumn },
                  },
                },
              ],
              relatedLocations: j.related.map((r, id) => ({
                id,
                message: { text: r.message },
                physicalLocation: {
                  artifactLocation: { uri: encodeURI(r.file), uriBaseId: '%SRCROOT%' },
                  region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn },
                },
              })),
              partialFingerprints: { [FINGERPRINT_KEY]: prints.get(f)! },
            };
          }),
        ),
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: [
              ...(coverageNote ? [{ level: 'warning', message: { text: coverageNote } }] : []),
              ...skipped.map((s) => ({
                level: 'note',
                message: { text: `skipped: ${s.reason}` },
                locations: [
                  { physicalLocation: { artifactLocation: { uri: encodeURI(s.file), uriBaseId: '%SRCROOT%' } } },
                ],
              })),
            ],
          },
        ],
      },
    ],
  };
}

function sarifCoverage(c: JsonCoverage) {
  return {
    calls: c.calls ?? 0,
    resolved: c.resolved ?? 0,
    unresolved: (c.unresolved ?? []).map((u) => ({ reason: u.reason, label: u.label, count: u.count })),
  };
}

// Row (p) of the benchmark, for bench/run.mjs: the ast-grep peer. The fastest thing a user
// would write instead of ShardLens is a handful of structural rules for constant partition
// keys (bench/peer/rules/); this row runs them over the same workspace as row (a), as a
// whole process, and compares what they match with what ShardLens reported.
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The `ast-grep` of the pinned devDependency @ast-grep/cli (its native binary comes as an
 * optional npm dependency; postinstall puts it in place of the JS shim), or null when the
 * package is not installed. Spawned directly, not through npx, so no extra `node` start-up
 * is timed.
 */
export function peerCommand(root, workspace, outFile) {
  const bin = path.join(root, 'node_modules', '.bin', 'ast-grep');
  if (!fs.existsSync(bin)) return null;
  return {
    cmd: bin,
    // The default thread count (one per core), as a user runs it; ShardLens's CLI uses a
    // worker thread too. --json=stream: one match a line, written to a file as (a)'s report is.
    args: ['scan', '-c', path.join('bench', 'peer', 'sgconfig.yml'), '--json=stream', workspace],
    outFile,
  };
}

const where = (file, line) => `${file.replace(/^.*?bench\/workspace\//, '')}:${line}`;

/**
 * Its matches against ShardLens's findings (the report of row (a)), by file and line: a
 * match on a line where ShardLens reports something agrees with it. The generator keeps no
 * list of planted traps (only counts), so ShardLens's findings stand in for the truth:
 * a rough figure, and a flattering one for the peer, since the workspace writes most
 * constant keys inline where a structural rule sees them.
 */
export function comparePeer(reportFile, peerFile) {
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const matches = fs
    .readFileSync(peerFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const matched = new Set(matches.map((m) => where(m.file, m.range.start.line + 1)));
  const reported = new Set(report.findings.map((f) => where(f.file, f.line)));
  const byRule = {};
  for (const f of report.findings) {
    const r = (byRule[f.rule] ??= { n: 0, matched: 0 });
    r.n++;
    if (matched.has(where(f.file, f.line))) r.matched++;
  }
  const peerRules = {};
  for (const m of matches) peerRules[m.ruleId] = (peerRules[m.ruleId] ?? 0) + 1;
  return {
    matches: matches.length,
    lines: matched.size,
    peerRules,
    agreeing: [...matched].filter((w) => reported.has(w)).length,
    findingLines: reported.size,
    findingLinesMatched: [...reported].filter((w) => matched.has(w)).length,
    byRule,
    leaked: matches.filter((m) => /(^|\/)(node_modules|generated)\//.test(m.file)).length,
  };
}

const fmt = (ms) => (ms >= 100 ? Math.round(ms).toLocaleString('en-US') : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const pct = (x, n) => (n ? `${((x / n) * 100).toFixed(0)}%` : '—');

/** The table row: its median, spread and the ratio (a)/(p). */
export function peerTableRow(times, a, median) {
  const p = median(times);
  const ratio = a / p;
  const spread = `${fmt(Math.min(...times))}–${fmt(Math.max(...times))} ms`;
  const says =
    ratio >= 1
      ? `(a) = ${ratio.toFixed(2)} × (p)`
      : `(a) = ${ratio.toFixed(2)} × (p): (p) is ${(1 / ratio).toFixed(1)}× slower`;
  return `| (p) | peer: \`ast-grep scan\` with the rules of \`bench/peer/\` (constant keys, TS/JS/Python), whole process | **${fmt(p)} ms** median | ${spread} | ${times.length} | — (ratio reported) | ${says} |`;
}

/** The details line: what it matched, against ShardLens's findings. */
export function peerDetails(c) {
  const sl001 = c.byRule.SL001 ?? { n: 0, matched: 0 };
  const rules = Object.entries(c.byRule)
    .sort()
    .map(([r, x]) => `${r} ${x.matched}/${x.n}`)
    .join(', ');
  return (
    `- (p) ${c.matches} matches on ${c.lines} lines (${Object.entries(c.peerRules)
      .sort()
      .map(([r, n]) => `${r} ${n}`)
      .join(', ')}); ${c.agreeing} of those lines (${pct(c.agreeing, c.lines)}) carry a ShardLens finding ` +
    `(precision against ShardLens); it matches ${sl001.matched} of ShardLens's ${sl001.n} SL001 (${pct(sl001.matched, sl001.n)}) ` +
    `and ${c.findingLinesMatched} of the ${c.findingLines} lines with any finding (${pct(c.findingLinesMatched, c.findingLines)}); ` +
    `by rule, matched/reported: ${rules}. ${c.leaked ? `${c.leaked} matches came from node_modules/ or generated/.` : 'Nothing from node_modules/ or generated/.'}`
  );
}

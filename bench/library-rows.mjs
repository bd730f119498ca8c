// Row (s) of the benchmark: `check` on bench/workspace-libraries, the workspace of row (a)
// plus the files of apps written with DynamoDB modelling libraries (`bench/generate.mjs
// --libraries`, bench/library-apps.mjs), interleaved with (a) in the same repetitions.
// Target: (s) ≤ 1.1 × (a): the library front-ends may cost what their files add, little more.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const LIBRARY_WORKSPACE = 'bench/workspace-libraries';
export const LIBRARY_TARGET = 1.1;

/** Generates (or finds up to date) the library workspace; returns its marker's statistics. */
export function generateLibraries({ NODE, ROOT, quick, fail }) {
  const args = [
    path.join(ROOT, 'bench', 'generate.mjs'),
    '--libraries',
    ...(quick ? ['--files', '500', '--mb', '6'] : []),
  ];
  const r = spawnSync(NODE, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) fail('bench/generate.mjs --libraries failed');
  return JSON.parse(fs.readFileSync(path.join(ROOT, LIBRARY_WORKSPACE, '.shardlens-bench.json'), 'utf8')).stats;
}

/** The timed run of (s); its report goes to the scratch directory. */
export function libraryRun({ NODE, ROOT, OUT, timed }) {
  const cli = [path.join(ROOT, 'bin', 'shardlens.js'), 'check', LIBRARY_WORKSPACE, '--format', 'json'];
  const report = path.join(OUT, 'report-libraries.json');
  return { report, run: async () => (await timed(NODE, cli, { stdoutFile: report, okCodes: [0, 1] })).ms };
}

/**
 * What (s)'s report says of the library files: findings by rule and the files read, and
 * whether the rest of the report is (a)'s (the library files add; they change nothing else).
 */
export function libraryReport(report, baseReport, libWs) {
  const lib = JSON.parse(fs.readFileSync(report, 'utf8'));
  const base = JSON.parse(fs.readFileSync(baseReport, 'utf8'));
  const libFiles = new Set(libWs.libraryFiles.map((f) => `${LIBRARY_WORKSPACE}/${f}`));
  const inLib = (x) => libFiles.has(x.file);
  const byRule = {};
  for (const f of lib.findings.filter(inLib)) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
  const withAccesses = new Set(lib.accesses.filter(inLib).map((x) => x.file));
  const strip = (xs, prefix) =>
    xs
      .filter((x) => !libFiles.has(x.file))
      .map((x) => `${x.rule}:${x.file.replace(prefix, '')}:${x.line}`)
      .sort();
  const others = strip(lib.findings, `${LIBRARY_WORKSPACE}/`);
  const baseline = strip(base.findings, 'bench/workspace/');
  return {
    files: libFiles.size,
    byLibrary: libWs.libraryFilesByLibrary,
    hotApps: libWs.libraryHotApps,
    findings: lib.findings.filter(inLib).length,
    byRule,
    filesWithAccesses: withAccesses.size,
    accesses: lib.accesses.filter(inLib).length,
    othersUnchanged: others.length === baseline.length && others.every((x, i) => x === baseline[i]),
  };
}

/** The Markdown row (s); `verdict` as the full run words it, else met or missed and the ratio. */
export function libraryTableRow({ s, a, median, fmt, spread, verdict = null }) {
  const ratio = median(s) / median(a);
  const said = verdict ?? `**${ratio <= LIBRARY_TARGET ? 'met' : 'missed'}** (${ratio.toFixed(2)}×)`;
  return `| (s) | \`shardlens check ${LIBRARY_WORKSPACE} --format json\`: (a)'s workspace plus the generator's library files | **${fmt(median(s))} ms** median | ${spread(s)} | ${s.length} | (s) ≤ ${LIBRARY_TARGET} × (a) | ${said} |`;
}

/** The details line of (s). */
export function libraryDetails(d) {
  const rules = Object.entries(d.byRule)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const libs = Object.entries(d.byLibrary)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    `- (s) ${d.files} library files (${libs}; ${d.hotApps} apps with a hot key): ${d.accesses} accesses read in ${d.filesWithAccesses} of them, ` +
    `${d.findings} findings (${rules}); the findings outside them are ${d.othersUnchanged ? '' : '**not** '}(a)'s.`
  );
}

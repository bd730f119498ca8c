// Rows (q)-(r) of the benchmark, for bench/run.mjs `--only infra`: what reading the
// workspace's infrastructure files costs. (q) is `check` on bench/workspace with the
// templates the generator adds (a SAM template over infra/lambdas/, a Serverless service
// per Python app) against (q₀), the same check with those files set aside (renamed to
// `.off`, which no reader takes), interleaved; (r) is the index update after a template
// edit, in process (bench/template-update.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';

export const INFRA_TARGETS = { withOverWithout: 1.15, templateUpdateP99: 50 };

/** The two CLI runs; the files are always put back, also when a run fails. */
export function infraRuns({ NODE, ROOT, WORKSPACE, OUT, timed, ws }) {
  const cli = [path.join(ROOT, 'bin', 'shardlens.js'), 'check', WORKSPACE, '--format', 'json'];
  const files = (ws.infraFiles ?? []).map((f) => path.join(ROOT, WORKSPACE, f));
  const aside = (on) => {
    for (const f of files) {
      const [from, to] = on ? [f, `${f}.off`] : [`${f}.off`, f];
      if (fs.existsSync(from)) fs.renameSync(from, to);
    }
  };
  const run = (report) => timed(NODE, cli, { stdoutFile: path.join(OUT, report), okCodes: [0, 1] });
  return {
    files: files.length,
    q: async () => (await run('report-infra.json')).ms,
    q0: async () => {
      aside(true);
      try {
        return (await run('report-no-infra.json')).ms;
      } finally {
        aside(false);
      }
    },
    restore: () => aside(false),
  };
}

/** Row (r): bench/template-update.ts over the workspace, `updates` template edits. */
export async function templateUpdateRow({ NODE, ROOT, WORKSPACE, timed, updates }) {
  const r = await timed(NODE, [
    '--import',
    'tsx',
    path.join(ROOT, 'bench', 'template-update.ts'),
    WORKSPACE,
    String(updates),
  ]);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** The Markdown rows (q), (q₀), (r). */
export function infraTableRows({ rows, r, median, fmt, spread, files }) {
  const q = median(rows.q);
  const q0 = median(rows.q0);
  const ratio = q / q0;
  const okQ = ratio <= INFRA_TARGETS.withOverWithout;
  const okR = r.p99 <= INFRA_TARGETS.templateUpdateP99;
  return [
    '| Row | What is measured | Result | Spread | Reps | Target | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| (q) | \`shardlens check bench/workspace --format json\` with the generator's ${files} infrastructure files | **${fmt(q)} ms** median | ${spread(rows.q)} | ${rows.q.length} | (q) ≤ ${INFRA_TARGETS.withOverWithout} × (q₀) | **${okQ ? 'met' : 'missed'}** (${ratio.toFixed(2)}×) |`,
    `| (q₀) | the same with those files set aside | **${fmt(q0)} ms** median | ${spread(rows.q0)} | ${rows.q0.length} | — | — |`,
    `| (r) | index update after a template edit (\`bench/template-update.ts\`: read, rebind, re-judge what it reaches) | p50 **${fmt(r.p50)} ms**, p99 **${fmt(r.p99)} ms** | p90 ${fmt(r.p90)}, max ${fmt(r.max)} ms | ${r.n} | p99 ≤ ${INFRA_TARGETS.templateUpdateP99} ms | **${okR ? 'met' : 'missed'}** |`,
  ];
}

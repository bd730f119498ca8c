// Rows (g)–(i) of the benchmark, for bench/run.mjs: runs bench/lsp.ts against the built
// dist/server.js and, as the baseline, the server bundled from an earlier commit, then
// renders the rows and their details.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildServerAt } from './baseline-server.mjs';

/**
 * The baseline's default: the last commit before the key model rework, the server
 * whose hover-after-edit latency (p50 15 ms, p99 78–103 ms) set these rows' targets.
 * `--lsp-baseline REF` picks another, `--lsp-baseline none` measures dist/server.js alone.
 */
export const LSP_BASELINE_REF = '306d77f';
export const LSP_TARGETS = { afterEditP99: 25, idleP99: 10 };

/** Runs the row; `log` reports progress. Resolves to bench/lsp.ts's JSON plus the baseline's description. */
export async function runLspRow({ root, workspace, file, out, edits, idle, baselineRef, log }) {
  const servers = [['current', path.join(root, 'dist', 'server.js')]];
  let baseline = { ref: baselineRef, sha: null, note: 'not measured (`--lsp-baseline none`)' };
  if (baselineRef !== 'none') {
    try {
      const b = await buildServerAt(root, baselineRef, out);
      servers.push(['baseline', b.bundle]);
      baseline = { ref: baselineRef, sha: b.sha, note: null };
    } catch (e) {
      baseline.note = `not measured: ${e.message.split('\n')[0]}`;
      log(`(g) baseline ${baselineRef} ${baseline.note}`);
    }
  }
  log(`(g)–(i) over LSP: ${servers.map(([l]) => l).join(' and ')}, ${edits} edits and ${idle} idle requests each`);
  const args = ['--import', 'tsx', path.join(root, 'bench', 'lsp.ts'), '--root', workspace, '--file', file];
  for (const [label, bundle] of servers) args.push('--server', `${label}=${bundle}`);
  args.push('--edits', String(edits), '--idle', String(idle), '--deadline', '900');
  const stdout = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const o = [];
    const e = [];
    child.stdout.on('data', (d) => o.push(d));
    child.stderr.on('data', (d) => e.push(d));
    child.on('close', (code) =>
      code === 0
        ? resolve(o.join(''))
        : reject(new Error(`bench/lsp.ts exited with ${code}: ${e.join('').slice(-3000)}`)),
    );
  });
  const r = JSON.parse(stdout.trim().split('\n').pop());
  const by = Object.fromEntries(r.servers.map((s) => [s.label, s]));
  return { ...r, current: by.current, baseline: by.baseline ?? null, baselineInfo: baseline };
}

const fmt = (ms) => (ms >= 100 ? Math.round(ms).toLocaleString('en-US') : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const p5099 = (s) => `p50 **${fmt(s.p50)} ms**, p99 **${fmt(s.p99)} ms**`;

/** Where the baseline stands against the current server on one measurement. */
function versus(g, key) {
  const b = g.baseline?.[key];
  if (!b) return '';
  return `; baseline ${g.baselineInfo.sha}: p50 ${fmt(b.p50)}, p99 ${fmt(b.p99)} ms`;
}

/** The three table rows; `target(ok, yes, no)` records and words each verdict, as run.mjs does. */
export function lspTableRows(g, target) {
  const c = g.current;
  const row = (id, what, s, key, limit) => {
    const verdict = target(
      s.p99 <= limit,
      `p99 ${fmt(s.p99)} ms`,
      `p99 ${fmt(s.p99)} ms, ${fmt(s.p99 - limit)} ms over (${(s.p99 / limit).toFixed(1)}× the limit)`,
    );
    return `| ${id} | ${what} | ${p5099(s)} | p90 ${fmt(s.p90)}, max ${fmt(s.max)} ms${versus(g, key)} | ${s.n} | p99 ≤ ${limit} ms | ${verdict} |`;
  };
  const file = `the ${g.lines.toLocaleString('en-US')}-line file (${c.diagnostics} diagnostics)`;
  return [
    row(
      '(g)',
      `LSP over stdio (\`dist/server.js\`): \`hover\` sent right behind a one-character incremental \`didChange\` in ${file}`,
      c.afterEdit,
      'afterEdit',
      LSP_TARGETS.afterEditP99,
    ),
    row('(h)', 'LSP: `hover` with no edits (keys and other code)', c.idleHover, 'idleHover', LSP_TARGETS.idleP99),
    row(
      '(i)',
      "LSP: `textDocument/codeAction` at a diagnostic's line, no edits",
      c.codeAction,
      'codeAction',
      LSP_TARGETS.idleP99,
    ),
  ];
}

/** The details paragraph of rows (g)–(i). */
export function lspDetails(g) {
  const c = g.current;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const one = (s, label) => {
    const behind = s.afterEditBehindPublish;
    const pub = s.publishAfterLastEdit;
    return (
      `${label}: indexing the workspace ${fmt(s.indexMs)} ms, opening the file ${fmt(s.openMs)} ms; ` +
      `the first ${s.cold.length} edits after opening (kept out of the row) p50 ${fmt(median(s.cold))} ms, max ${fmt(Math.max(...s.cold))} ms; ` +
      `${behind ? `${behind.n} hovers overlapped a publishDiagnostics burst (p50 ${fmt(behind.p50)} ms, max ${fmt(behind.max)} ms)` : 'no hover overlapped a publishDiagnostics burst'}; ` +
      `last didChange → the file's publishDiagnostics ${pub ? `p50 ${fmt(pub.p50)}, p99 ${fmt(pub.p99)} ms (150 ms of it the debounce)` : 'never seen'}` +
      (s.burstMessages
        ? `, → the update's last publishDiagnostics p50 ${fmt(s.burstAfterLastEdit.p50)}, p99 ${fmt(s.burstAfterLastEdit.p99)} ms, ` +
          `${s.burstMessages.p50} files republished per update (max ${s.burstMessages.max}); `
        : '; ') +
      `${s.keyHoverHits} of ${s.keyHovers} hovers on keys answered; ${s.emptyActions} code-action requests answered with nothing; ` +
      `${s.diagnosticsAfter === s.diagnostics ? 'diagnostics back to the opening count after the edits' : `**${s.diagnosticsAfter} diagnostics after the edits, ${s.diagnostics} before**`}. ` +
      `Slowest hovers after an edit: ` +
      s.slowest
        .slice(0, 4)
        .map((x) => `line ${x.line} col ${x.column} ${x.kind} \`${x.char === '`' ? "'" : x.char}\` ${fmt(x.ms)} ms`)
        .join('; ') +
      '.'
    );
  };
  return [
    `- (g)–(i) ${c.afterEdit.n} edits (type a character, then delete it, at seeded positions; a hover right behind each, half on a key) ` +
      `with typing pauses (55% of 20–140 ms, inside the server's 150 ms debounce, 45% of 160–400 ms), then ${c.idleHover.n} hovers ` +
      `and ${c.codeAction.n} code actions with no edits; the servers ran in interleaved blocks of 20 over the same plan. ` +
      one(c, '`dist/server.js`'),
    g.baseline
      ? `- (g)–(i) baseline, the server as of ${g.baselineInfo.sha} (\`--lsp-baseline ${g.baselineInfo.ref}\`) bundled by esbuild from \`git archive\`: ` +
        one(g.baseline, 'baseline')
      : `- (g)–(i) baseline ${g.baselineInfo.note}.`,
  ];
}

/** The machine as the LSP section names it: nproc, CPU model (/proc/cpuinfo), memory, load when the run began. */
export function machineLine(loadAtStart) {
  let model = os.cpus()[0]?.model ?? 'unknown CPU';
  try {
    model = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? model;
  } catch {
    // Not Linux: os.cpus() said what it could.
  }
  return (
    `${model}, nproc ${os.availableParallelism()}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB memory, ` +
    `${os.type()} ${os.release()} (${os.arch()}), Node ${process.version}, load average ${loadAtStart
      .map((x) => x.toFixed(2))
      .join(' / ')} when the run began`
  );
}

/** `--only lsp`: rows (g)–(i) as a section of their own, with the code and machine they ran on. */
export function lspSection(g, code, loadAtStart) {
  const verdicts = [];
  const target = (ok, yes, no) => (verdicts.push(ok), ok ? `**met**: ${yes}` : `**missed**: ${no}`);
  const rows = lspTableRows(g, target);
  return [
    '## Over LSP: hover and code actions while typing (`node bench/run.mjs --only lsp`)',
    '',
    `Measured on ${new Date().toISOString()}, code at ${code}; ${machineLine(loadAtStart)}.`,
    '',
    '| Row | What is measured | Result | Spread and baseline | Samples | Target | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `**${verdicts.filter(Boolean).length} of ${verdicts.length} targets met.**`,
    '',
    ...lspDetails(g),
    '',
  ].join('\n');
}

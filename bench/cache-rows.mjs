// Rows (j)-(m) of the benchmark, for bench/run.mjs: `check --cache` warm with nothing
// changed and warm after one file changed (whole processes, interleaved with (a) and (b)),
// and the language server's time to a complete index cold and warm (bench/lsp-index.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The file (j)-(k) change: the shared constants module nine DynamoDB files import. */
export const CHANGED_FILE = 'config/dynamo.ts';
export const CACHE_TARGETS = { warmOverFloor: 1.3, changedOverFloor: 1.5, serverWarmOverCold: 0.3 };

/**
 * The CLI rows. `prepare` fills the cache (untimed); `j` checks with nothing changed;
 * `k` appends a comment to CHANGED_FILE (its importers' reads answer the same: only it is
 * analysed), `kMoved` puts a comment line at its top (every declaration moves, so do the
 * answers: it and its importers are analysed); each checks, puts the file back and checks
 * again untimed, so the next row starts from a cache of the unchanged workspace. The
 * report of `j` must equal (a)'s byte for byte, else the run fails.
 */
export function cacheRuns({ NODE, ROOT, WORKSPACE, OUT, timed, fail }) {
  const dir = path.join(OUT, 'check-cache');
  const report = path.join(OUT, 'report-cache.json');
  const args = [
    path.join(ROOT, 'bin', 'shardlens.js'),
    'check',
    WORKSPACE,
    '--format',
    'json',
    '--cache-location',
    dir,
  ];
  const file = path.join(ROOT, WORKSPACE, CHANGED_FILE);
  const original = fs.readFileSync(file, 'utf8');
  let edits = 0;
  const run = () => timed(NODE, args, { stdoutFile: report, okCodes: [0, 1] });
  const same = (expected) => {
    if (fs.readFileSync(report, 'utf8') !== fs.readFileSync(expected, 'utf8'))
      fail(`the warm check's report differs from (a)'s (${report} against ${expected})`);
  };
  return {
    prepare: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await run();
    },
    j: async (expected) => {
      const r = await run();
      same(expected);
      return r.ms;
    },
    k: () => afterEdit(`${original}\n// edit ${++edits}\n`),
    kMoved: () => afterEdit(`// edit ${++edits}\n${original}`),
  };
  async function afterEdit(text) {
    fs.writeFileSync(file, text);
    try {
      return (await run()).ms;
    } finally {
      fs.writeFileSync(file, original);
      await run();
    }
  }
}

/** The server row: bench/lsp-index.ts against dist/server.js, `reps` cold and warm starts alternating. */
export async function serverIndexRow({ NODE, ROOT, WORKSPACE, OUT, timed, reps }) {
  const r = await timed(NODE, [
    '--import',
    'tsx',
    path.join(ROOT, 'bench', 'lsp-index.ts'),
    '--root',
    path.join(ROOT, WORKSPACE),
    '--server',
    path.join(ROOT, 'dist', 'server.js'),
    '--scratch',
    OUT,
    '--reps',
    String(reps),
  ]);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** The Markdown rows (j)-(m), against (b) measured in the same run. */
export function cacheTableRows({ rows, b, server, median, fmt, spread }) {
  const j = median(rows.j);
  const k = median(rows.k);
  const kMoved = median(rows.kMoved);
  const cold = median(server.cold);
  const warm = median(server.warm);
  const verdict = (ratio, target) =>
    ratio <= target ? `met (${ratio.toFixed(2)}×)` : `**missed** (${ratio.toFixed(2)}×)`;
  return [
    `| (j) | \`check --cache\`, warm, nothing changed | **${fmt(j)} ms** median | ${spread(rows.j)} | ${rows.j.length} | ≤ ${CACHE_TARGETS.warmOverFloor} × (b) | ${verdict(j / b, CACHE_TARGETS.warmOverFloor)} |`,
    `| (k) | \`check --cache\`, warm, after a comment was appended to \`${CHANGED_FILE}\` (it analysed; its 9 importers ask their reads again and are restored) | **${fmt(k)} ms** median | ${spread(rows.k)} | ${rows.k.length} | ≤ ${CACHE_TARGETS.changedOverFloor} × (b) | ${verdict(k / b, CACHE_TARGETS.changedOverFloor)} |`,
    `| (k′) | the same after a comment line was put at its top (every declaration moves: it and its 9 importers analysed again) | **${fmt(kMoved)} ms** median | ${spread(rows.kMoved)} | ${rows.kMoved.length} | ≤ ${CACHE_TARGETS.changedOverFloor} × (b) | ${verdict(kMoved / b, CACHE_TARGETS.changedOverFloor)} |`,
    `| (l) | language server, \`initialize\` to a complete index, cold (empty cache) | **${fmt(cold)} ms** median | ${spread(server.cold)} | ${server.cold.length} | — | — |`,
    `| (m) | the same, warm (${server.hits} of ${server.files} files from the cache) | **${fmt(warm)} ms** median | ${spread(server.warm)} | ${server.warm.length} | ≤ ${CACHE_TARGETS.serverWarmOverCold} × (l) | ${verdict(warm / cold, CACHE_TARGETS.serverWarmOverCold)} |`,
  ];
}

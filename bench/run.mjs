#!/usr/bin/env node
// The ShardLens benchmark: every measurement side by side in one run, on one machine,
// against its baselines, printed as a Markdown table and written to bench/results.md.
// `npm run bench` builds first (dist/cli.js), then runs this.
//
//   node bench/run.mjs [--reps N] [--naive-reps N] [--edits N] [--updates N] [--quick]
//                      [--only lsp|peer|cache|infra|libraries] [--lsp-edits N] [--lsp-idle N] [--lsp-baseline REF|none]
//
// --quick generates a 500-file workspace and does 3 repetitions: for trying the harness,
// not for numbers. --only lsp runs rows (g)–(i) alone and prints their section (to stdout
// and to the scratch directory), leaving bench/results.md as it is; --only peer does the
// same for rows (a) and (p), interleaved.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildCliAt } from './baseline-server.mjs';
import { LSP_BASELINE_REF, lspDetails, lspSection, lspTableRows, runLspRow } from './lsp-row.mjs';
import { cacheRuns, cacheTableRows, serverIndexRow } from './cache-rows.mjs';
import { infraRuns, infraTableRows, templateUpdateRow } from './infra-rows.mjs';
import {
  generateLibraries,
  LIBRARY_TARGET,
  libraryDetails,
  libraryReport,
  libraryRun,
  libraryTableRow,
} from './library-rows.mjs';
import { comparePeer, peerCommand, peerDetails, peerTableRow } from './peer/row.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
/** Scratch space outside the repository: baseline bundles (with the grammars beside them), the report. */
const OUT = path.join(os.tmpdir(), 'shardlens-bench');
const WORKSPACE = 'bench/workspace';
const NODE = process.execPath;

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
function flag(name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}
const REPS = flag('--reps', QUICK ? 3 : 5);
const NAIVE_REPS = flag('--naive-reps', REPS);
const RSS_REPS = QUICK ? 1 : 3;
const EDITS = flag('--edits', 300);
const UPDATES = flag('--updates', 200);
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
const LSP_EDITS = flag('--lsp-edits', 200);
const LSP_IDLE = flag('--lsp-idle', 200);
const LSP_BASELINE = argv.includes('--lsp-baseline') ? argv[argv.indexOf('--lsp-baseline') + 1] : LSP_BASELINE_REF;
const LOAD_AT_START = os.loadavg();

// cliOverFloor is the key-model work's target (it was 2 before); modelCost: the key model
// may cost at most 10% in (a) and in (e) against the CLI of the baseline commit.
const TARGETS = { cliOverFloor: 1.6, naiveOverCli: 5, incrementalP99: 10, indexP99: 20, rssMb: 300, modelCost: 1.1 };

const started = performance.now();
if (ONLY !== null && !['lsp', 'peer', 'cache', 'infra', 'libraries'].includes(ONLY)) {
  process.stderr.write(
    `bench: --only takes \`lsp\`, \`peer\`, \`cache\`, \`infra\` or \`libraries\` (the other rows run together)\n`,
  );
  process.exit(1);
}
const log = (msg) => process.stderr.write(`bench: ${msg}\n`);

function fail(msg, detail = '') {
  process.stderr.write(`bench: ${msg}\n${detail}\n`);
  process.exit(1);
}

// ---------------------------------------------------------------- processes

/**
 * Runs one process and measures its wall time from spawn to exit. stdout goes to a
 * file when `stdoutFile` is given (the CLI's report: no pipe to drain), else is kept.
 */
function timed(cmd, args, { stdoutFile = null, okCodes = [0], env = process.env } = {}) {
  return new Promise((resolve) => {
    const fd = stdoutFile ? fs.openSync(stdoutFile, 'w') : null;
    const out = [];
    const err = [];
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', fd ?? 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    let ms = 0;
    let code = null;
    child.on('exit', (c, signal) => {
      ms = performance.now() - t0;
      code = c ?? signal;
    });
    child.on('close', () => {
      if (fd !== null) fs.closeSync(fd);
      const stdout = out.map(String).join('');
      const stderr = err.map(String).join('');
      if (!okCodes.includes(code)) fail(`${cmd} ${args.join(' ')} exited with ${code}`, stderr.slice(-4000));
      resolve({ ms, code, stdout, stderr });
    });
  });
}

function jsonLine(text, what) {
  const line = text.trim().split('\n').pop();
  try {
    return JSON.parse(line);
  } catch {
    return fail(`${what} printed no JSON`, text.slice(-2000));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------- preparation

function generate() {
  const args = [path.join(HERE, 'generate.mjs'), ...(QUICK ? ['--files', '500', '--mb', '6'] : [])];
  const r = spawnSync(NODE, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) fail('bench/generate.mjs failed');
  return JSON.parse(fs.readFileSync(path.join(ROOT, WORKSPACE, '.shardlens-bench.json'), 'utf8'));
}

/**
 * The floor and the naive parser are bundled the way esbuild.mjs bundles the CLI, so
 * all three whole-process rows start the same way (one CommonJS file, no TypeScript
 * loader). Falls back to `node --import tsx` when esbuild cannot be loaded.
 */
async function bundleBaselines() {
  fs.mkdirSync(path.join(OUT, 'grammars'), { recursive: true });
  // parser.ts looks for the grammars in grammars/ beside the bundle, as dist/cli.js has them.
  for (const w of fs.readdirSync(path.join(ROOT, 'dist', 'grammars')))
    fs.copyFileSync(path.join(ROOT, 'dist', 'grammars', w), path.join(OUT, 'grammars', w));
  try {
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: { floor: path.join(HERE, 'floor.ts'), naive: path.join(HERE, 'naive.ts') },
      outdir: OUT,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
      define: { 'import.meta.url': '__importMetaUrl' },
      banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    });
    return {
      how: 'esbuild bundles (CommonJS, grammars beside them), like dist/cli.js',
      floor: [path.join(OUT, 'floor.js')],
      naive: [path.join(OUT, 'naive.js')],
    };
  } catch (e) {
    log(`esbuild unavailable (${e.message}); running the baselines with tsx`);
    return {
      how: '`node --import tsx` (esbuild was unavailable: includes the TypeScript loader start-up)',
      floor: ['--import', 'tsx', path.join(HERE, 'floor.ts')],
      naive: ['--import', 'tsx', path.join(HERE, 'naive.ts')],
    };
  }
}

function gnuTime() {
  const r = spawnSync('/usr/bin/time', ['-v', 'true'], { encoding: 'utf8' });
  return r.status === 0 && /Maximum resident set size/.test(r.stderr ?? '');
}

function gitDescribe() {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'server', 'protocol', 'esbuild.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (head.status !== 0) return 'unknown';
  return `${head.stdout.trim()}${dirty.stdout.trim() ? ' + uncommitted changes under server/' : ''}`;
}

// ---------------------------------------------------------------- the run

/** Rows (g)–(i): the language server over LSP, against the baseline commit's server. */
function lsp(ws) {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server.js'))) fail('dist/server.js is missing: run `npm run build`');
  return runLspRow({
    root: ROOT,
    workspace: path.join(ROOT, WORKSPACE),
    file: ws.incrementalFile,
    out: OUT,
    edits: LSP_EDITS,
    idle: LSP_IDLE,
    baselineRef: LSP_BASELINE,
    log,
  }).catch((e) => fail('the LSP row failed', e.message));
}

/** `--only lsp`: rows (g)–(i) alone, as a section to paste; bench/results.md is left alone. */
async function onlyLsp(ws, code) {
  const g = await lsp(ws);
  const md = await formatMarkdown(lspSection(g, code, LOAD_AT_START));
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'lsp-results.md'), md);
  process.stdout.write('\n' + md);
  log(`wrote ${path.join(OUT, 'lsp-results.md')} (${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
}

/**
 * `--only peer`: rows (a) and (p) alone, interleaved as in the full run after one untimed
 * run of each, as a section to paste; bench/results.md is left alone.
 */
async function onlyPeer(ws, code) {
  const peer = peerCommand(ROOT, WORKSPACE, path.join(OUT, 'peer.jsonl'));
  if (!peer) fail('@ast-grep/cli is not installed: run `npm install`');
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) fail('dist/cli.js is missing: run `npm run build`');
  fs.mkdirSync(OUT, { recursive: true });
  const cli = [path.join(ROOT, 'bin', 'shardlens.js'), 'check', WORKSPACE, '--format', 'json'];
  const report = path.join(OUT, 'report.json');
  const runs = {
    a: async () => (await timed(NODE, cli, { stdoutFile: report, okCodes: [0, 1] })).ms,
    p: async () => (await timed(peer.cmd, peer.args, { stdoutFile: peer.outFile })).ms,
  };
  log('warm-up: CLI and peer once each');
  await runs.a();
  await runs.p();
  const rows = { a: [], p: [] };
  for (let i = 0; i < REPS; i++) {
    for (const row of i % 2 ? ['p', 'a'] : ['a', 'p']) {
      rows[row].push(await runs[row]());
      log(`(${row}) rep ${i + 1}/${REPS}: ${Math.round(rows[row].at(-1))} ms`);
    }
  }
  const a = median(rows.a);
  const lines = [
    `## Rows (a) and (p) alone (\`node bench/run.mjs --only peer\`)`,
    '',
    `${new Date().toISOString()}, code at ${code}; ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; ` +
      `load average ${LOAD_AT_START.map((x) => x.toFixed(1)).join(', ')} at the start. Workspace: seed ${ws.seed}, ` +
      `${ws.sourceFiles.toLocaleString('en-US')} source files, ${mb(ws.sourceBytes)} MB. Interleaved, median of ${REPS}.`,
    '',
    '| Row | What is measured | Result | Spread | Reps | Target | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| (a) | \`shardlens check bench/workspace --format json\`, whole process | **${fmt(a)} ms** median | ${spread(rows.a)} | ${rows.a.length} | — | — |`,
    peerTableRow(rows.p, a, median),
    '',
    peerDetails(comparePeer(report, peer.outFile)),
    '',
  ];
  const md = await formatMarkdown(lines.join('\n'));
  fs.writeFileSync(path.join(OUT, 'peer-results.md'), md);
  process.stdout.write('\n' + md);
  log(`wrote ${path.join(OUT, 'peer-results.md')} (${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
}

/**
 * `--only infra`: rows (q) and (q₀) interleaved after one untimed run of each, then (r);
 * a section to paste, bench/results.md left alone.
 */
async function onlyInfra(ws, code) {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) fail('dist/cli.js is missing: run `npm run build`');
  if (!ws.infraFiles?.length)
    fail('the workspace has no infrastructure files: generate it again (bench/generate.mjs --force)');
  fs.mkdirSync(OUT, { recursive: true });
  const infra = infraRuns({ NODE, ROOT, WORKSPACE, OUT, timed, ws });
  process.on('exit', infra.restore);
  const rows = { q: [], q0: [] };
  await infra.q();
  await infra.q0();
  for (let i = 0; i < REPS; i++) {
    for (const k of i % 2 ? ['q0', 'q'] : ['q', 'q0']) rows[k].push(await infra[k]());
    log(`(q) rep ${i + 1}/${REPS}: ${fmt(rows.q[i])} ms, (q₀) ${fmt(rows.q0[i])} ms`);
  }
  const r = await templateUpdateRow({ NODE, ROOT, WORKSPACE, timed, updates: UPDATES });
  log(`(r) p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms`);
  const lines = [
    `## Rows (q)-(r), infrastructure files (\`node bench/run.mjs --only infra\`)`,
    '',
    `${new Date().toISOString()}, code at ${code}; ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}; ` +
      `load average ${LOAD_AT_START.map((x) => x.toFixed(1)).join(', ')} at the start. Workspace: seed ${ws.seed}, ` +
      `${ws.sourceFiles.toLocaleString('en-US')} source files, ${mb(ws.sourceBytes)} MB, ${ws.infraFiles.length} infrastructure files. (q), (q₀) interleaved, median of ${REPS}; (r) ${r.n} edits over ${r.templates} templates, each re-judging a median of ${r.rejudged.p50} files.`,
    '',
    ...infraTableRows({ rows, r, median, fmt, spread, files: infra.files }),
    '',
  ];
  const md = await formatMarkdown(lines.join('\n'));
  fs.writeFileSync(path.join(OUT, 'infra-results.md'), md);
  process.stdout.write('\n' + md);
}

/**
 * `--only libraries`: rows (a) and (s) interleaved after one untimed run of each; a section
 * to paste, bench/results.md left alone.
 */
async function onlyLibraries(ws, code) {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) fail('dist/cli.js is missing: run `npm run build`');
  fs.mkdirSync(OUT, { recursive: true });
  const libWs = generateLibraries({ NODE, ROOT, quick: QUICK, fail });
  const report = path.join(OUT, 'report.json');
  const cli = [path.join(ROOT, 'bin', 'shardlens.js'), 'check', WORKSPACE, '--format', 'json'];
  const lib = libraryRun({ NODE, ROOT, OUT, timed });
  const runs = { a: async () => (await timed(NODE, cli, { stdoutFile: report, okCodes: [0, 1] })).ms, s: lib.run };
  const rows = { a: [], s: [] };
  await runs.a();
  await runs.s();
  for (let i = 0; i < REPS; i++) {
    for (const k of i % 2 ? ['s', 'a'] : ['a', 's']) rows[k].push(await runs[k]());
    log(`(a) rep ${i + 1}/${REPS}: ${fmt(rows.a[i])} ms, (s) ${fmt(rows.s[i])} ms`);
  }
  const d = libraryReport(lib.report, report, libWs);
  const lines = [
    `## Rows (a) and (s), library files (\`node bench/run.mjs --only libraries\`)`,
    '',
    `${new Date().toISOString()}, code at ${code}; ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; ` +
      `load average ${LOAD_AT_START.map((x) => x.toFixed(1)).join(', ')} at the start, ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')} at the end. ` +
      `Workspace: seed ${ws.seed}, ${ws.sourceFiles.toLocaleString('en-US')} source files, ${mb(ws.sourceBytes)} MB; the library workspace ${libWs.sourceFiles.toLocaleString('en-US')}. ` +
      `(a), (s) interleaved, median of ${REPS}.`,
    '',
    '| Row | What is measured | Result | Spread | Reps | Target | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| (a) | \`shardlens check bench/workspace --format json\` | **${fmt(median(rows.a))} ms** median | ${spread(rows.a)} | ${rows.a.length} | — | — |`,
    libraryTableRow({ s: rows.s, a: rows.a, median, fmt, spread }),
    '',
    libraryDetails(d),
    '',
  ];
  const md = await formatMarkdown(lines.join('\n'));
  fs.writeFileSync(path.join(OUT, 'libraries-results.md'), md);
  process.stdout.write('\n' + md);
}

/**
 * `--only cache`: rows (a), (b), (j), (k) and (k′) interleaved after one untimed run of (a), (b)
 * and the cache's first fill, then (l)-(m); a section to paste, bench/results.md left alone.
 */
async function onlyCache(ws, code) {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) fail('dist/cli.js is missing: run `npm run build`');
  fs.mkdirSync(OUT, { recursive: true });
  const baselines = await bundleBaselines();
  const cli = [path.join(ROOT, 'bin', 'shardlens.js'), 'check', WORKSPACE, '--format', 'json'];
  const report = path.join(OUT, 'report.json');
  const cache = cacheRuns({ NODE, ROOT, WORKSPACE, OUT, timed, fail });
  const runs = {
    a: async () => (await timed(NODE, cli, { stdoutFile: report, okCodes: [0, 1] })).ms,
    b: async () => (await timed(NODE, [...baselines.floor, WORKSPACE])).ms,
    j: () => cache.j(report),
    k: cache.k,
    kMoved: cache.kMoved,
  };
  log('warm-up: CLI, floor and the cache once each');
  await runs.a();
  await runs.b();
  await cache.prepare();
  const rows = { a: [], b: [], j: [], k: [], kMoved: [] };
  const order = ['a', 'b', 'j', 'k', 'kMoved'];
  for (let i = 0; i < REPS; i++) {
    for (const row of order.slice(i % order.length).concat(order.slice(0, i % order.length))) {
      rows[row].push(await runs[row]());
      log(`(${row}) rep ${i + 1}/${REPS}: ${Math.round(rows[row].at(-1))} ms`);
    }
  }
  log(`(l)-(m) language server index, ${REPS} cold and warm starts`);
  const server = await serverIndexRow({ NODE, ROOT, WORKSPACE, OUT, timed, reps: REPS });
  const a = median(rows.a);
  const b = median(rows.b);
  const lines = [
    `## Rows (j)-(m), the analysis cache (\`node bench/run.mjs --only cache\`)`,
    '',
    `${new Date().toISOString()}, code at ${code}; ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; ` +
      `load average ${LOAD_AT_START.map((x) => x.toFixed(1)).join(', ')} at the start. Workspace: seed ${ws.seed}, ` +
      `${ws.sourceFiles.toLocaleString('en-US')} source files, ${mb(ws.sourceBytes)} MB. (a), (b), (j), (k), (k′) interleaved, median of ${REPS}.`,
    '',
    '| Row | What is measured | Result | Spread | Reps | Target | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| (a) | \`shardlens check bench/workspace --format json\`, whole process, no cache | **${fmt(a)} ms** median | ${spread(rows.a)} | ${rows.a.length} | — | — |`,
    `| (b) | floor (\`bench/floor.ts\`) | **${fmt(b)} ms** median | ${spread(rows.b)} | ${rows.b.length} | — | — |`,
    ...cacheTableRows({ rows, b, server, median, fmt, spread }),
    '',
  ];
  const md = await formatMarkdown(lines.join('\n'));
  fs.writeFileSync(path.join(OUT, 'cache-results.md'), md);
  process.stdout.write('\n' + md);
  log(`wrote ${path.join(OUT, 'cache-results.md')} (${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
}

async function main() {
  // Named before the run, like the bundles it measures: others may commit while it goes on.
  const code = gitDescribe();
  const marker = generate();
  const ws = marker.stats;
  if (ONLY === 'lsp') return onlyLsp(ws, code);
  if (ONLY === 'peer') return onlyPeer(ws, code);
  if (ONLY === 'cache') return onlyCache(ws, code);
  if (ONLY === 'infra') return onlyInfra(ws, code);
  if (ONLY === 'libraries') return onlyLibraries(ws, code);
  const libWs = generateLibraries({ NODE, ROOT, quick: QUICK, fail });
  const cliBundle = path.join(ROOT, 'dist', 'cli.js');
  if (!fs.existsSync(cliBundle) || !fs.existsSync(path.join(ROOT, 'dist', 'grammars')))
    fail('dist/cli.js is missing: run `npm run bench` (it builds first)');
  const baselines = await bundleBaselines();
  const cli = [path.join(ROOT, 'bin', 'shardlens.js'), 'check', WORKSPACE, '--format', 'json'];
  const report = path.join(OUT, 'report.json');
  const rows = { a: [], a0: [], b: [], c: [], p: [], s: [] };
  const lib = libraryRun({ NODE, ROOT, OUT, timed });
  const peer = peerCommand(ROOT, WORKSPACE, path.join(OUT, 'peer.jsonl'));
  if (!peer) log('(p) not measured: @ast-grep/cli is not installed (npm install)');
  // The CLI of the baseline commit (the one before the key model), measured beside (a) and (e).
  let oldCli = null;
  if (LSP_BASELINE !== 'none') {
    try {
      const built = await buildCliAt(ROOT, LSP_BASELINE, OUT);
      oldCli = { args: [built.bundle, 'check', WORKSPACE, '--format', 'json'], sha: built.sha };
    } catch (e) {
      log(`(a0) baseline CLI ${LSP_BASELINE} not measured: ${e.message.split('\n')[0]}`);
    }
  }
  const oldReport = path.join(OUT, 'report-baseline.json');
  const last = {};

  // Warm-up (untimed): the page cache holds the workspace before any row is measured.
  log(`warm-up: floor${peer ? ', CLI and peer' : ' and CLI'} once each`);
  last.b = jsonLine((await timed(NODE, [...baselines.floor, WORKSPACE])).stdout, 'floor');
  const warm = await timed(NODE, cli, { stdoutFile: report, okCodes: [0, 1] });
  const sanity = checkReport(report, warm.stderr, last.b);
  if (peer) await timed(peer.cmd, peer.args, { stdoutFile: peer.outFile });
  await lib.run();

  // (a), (b), (c) interleaved, rotating the order each repetition so that drift in the
  // machine's load falls on every row alike.
  const runs = {
    a: async () => (await timed(NODE, cli, { stdoutFile: report, okCodes: [0, 1] })).ms,
    a0: async () => (await timed(NODE, oldCli.args, { stdoutFile: oldReport, okCodes: [0, 1] })).ms,
    b: async () => {
      const r = await timed(NODE, [...baselines.floor, WORKSPACE]);
      last.b = jsonLine(r.stdout, 'floor');
      return r.ms;
    },
    c: async () => {
      const r = await timed(NODE, [...baselines.naive, WORKSPACE]);
      last.c = jsonLine(r.stdout, 'naive');
      return r.ms;
    },
    p: async () => (await timed(peer.cmd, peer.args, { stdoutFile: peer.outFile })).ms,
    s: lib.run,
  };
  const order = [...(oldCli ? ['a', 'a0', 'b', 'c'] : ['a', 'b', 'c']), 's', ...(peer ? ['p'] : [])];
  for (let i = 0; i < REPS; i++) {
    const turn = order.slice(i % order.length).concat(order.slice(0, i % order.length));
    for (const row of turn) {
      if (row === 'c' && i >= NAIVE_REPS) continue;
      const ms = await runs[row]();
      rows[row].push(ms);
      log(`(${row}) rep ${i + 1}/${row === 'c' ? NAIVE_REPS : REPS}: ${Math.round(ms)} ms`);
    }
  }

  // (e) peak RSS of (a), and of the baseline CLI in turn.
  const rss = [];
  const oldRss = [];
  const haveTime = gnuTime();
  const peakRss = async (args, out) => {
    const file = path.join(OUT, 'rss.txt');
    if (haveTime) {
      await timed('/usr/bin/time', ['-v', '-o', file, NODE, ...args], { stdoutFile: out, okCodes: [0, 1] });
      const m = fs.readFileSync(file, 'utf8').match(/Maximum resident set size \(kbytes\): (\d+)/);
      if (!m) fail('no "Maximum resident set size" in /usr/bin/time -v output');
      return Number(m[1]) / 1024;
    }
    const probe = path.join(HERE, 'rss-probe.cjs');
    await timed(NODE, ['--require', probe, ...args], {
      stdoutFile: out,
      okCodes: [0, 1],
      env: { ...process.env, SHARDLENS_RSS_FILE: file },
    });
    return Number(fs.readFileSync(file, 'utf8')) / 1024;
  };
  for (let i = 0; i < RSS_REPS; i++) {
    rss.push(await peakRss(cli, report));
    if (oldCli) oldRss.push(await peakRss(oldCli.args, oldReport));
    log(
      `(e) rep ${i + 1}/${RSS_REPS}: ${Math.round(rss[i])} MB${oldCli ? `, baseline ${Math.round(oldRss[i])} MB` : ''}`,
    );
  }

  // (d) and (f) in process.
  log(`(d) ${EDITS} one-character edits of ${ws.incrementalFile}`);
  const incFile = path.join(WORKSPACE, ws.incrementalFile);
  const d = jsonLine(
    (await timed(NODE, ['--import', 'tsx', path.join(HERE, 'incremental.ts'), incFile, String(EDITS)])).stdout,
    'incremental',
  );
  log(`(d) p50 ${d.p50.toFixed(2)} ms, p99 ${d.p99.toFixed(2)} ms`);
  log(`(f) index of ${ws.sourceFiles} files, ${UPDATES} updates`);
  const f = jsonLine(
    (await timed(NODE, ['--import', 'tsx', path.join(HERE, 'index-update.ts'), WORKSPACE, String(UPDATES)])).stdout,
    'index-update',
  );
  log(`(f) p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms`);
  const g = await lsp(ws);
  log(`(g) p50 ${g.current.afterEdit.p50.toFixed(2)} ms, p99 ${g.current.afterEdit.p99.toFixed(2)} ms`);

  const old = oldCli ? { sha: oldCli.sha, a: rows.a0, rss: oldRss } : null;
  const p = peer ? comparePeer(report, peer.outFile) : null;
  const libs = libraryReport(lib.report, report, libWs);
  const md =
    (await render({ ws, rows, last, rss, haveTime, d, f, g, sanity, baselines, old, code, p, libs })) + labSection();
  fs.writeFileSync(path.join(HERE, 'results.md'), md);
  process.stdout.write('\n' + md);
  log(`wrote bench/results.md (${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
}

/** What the CLI's report says: it must have found the planted traps and skipped what it should. */
function checkReport(file, stderr, floor) {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byRule = {};
  for (const x of r.findings) byRule[x.rule] = (byRule[x.rule] ?? 0) + 1;
  const leaked = [...r.findings, ...(r.accesses ?? [])].filter((x) =>
    /(^|\/)(node_modules|generated)\//.test(x.file),
  ).length;
  if (leaked) fail(`the CLI reported ${leaked} findings/accesses in node_modules/ or the gitignored generated/`);
  if (r.findings.length === 0) fail('the CLI found nothing in the workspace');
  return {
    findings: r.findings.length,
    accesses: r.accesses?.length ?? 0,
    byRule,
    skippedLines: stderr.split('\n').filter((l) => /skipped/.test(l)).length,
    gitignoredLine: stderr.split('\n').find((l) => /gitignore/.test(l)) ?? '',
    files: floor.files,
  };
}

// ---------------------------------------------------------------- the report

const fmt = (ms) => (ms >= 100 ? Math.round(ms).toLocaleString('en-US') : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const spread = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))} ms`;
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

async function render({ ws, rows, last, rss, haveTime, d, f, g, sanity, baselines, old, code, p, libs }) {
  const a = median(rows.a);
  const b = median(rows.b);
  const c = median(rows.c);
  const e = median(rss);
  const verdict = [];
  const target = (ok, yes, no) => {
    verdict.push(ok);
    return ok ? `**met**: ${yes}` : `**missed**: ${no}`;
  };
  const limit = TARGETS.cliOverFloor * b;
  const t1 = target(
    a <= limit,
    `(a) = ${(a / b).toFixed(2)} × (b)`,
    `(a) = ${(a / b).toFixed(2)} × (b); over the ${fmt(limit)} ms limit by ${fmt(a - limit)} ms (${(((a - limit) / limit) * 100).toFixed(0)}%)`,
  );
  const a0 = old ? median(old.a) : null;
  const e0 = old ? median(old.rss) : null;
  const cost = (now, then) => `${((now / then - 1) * 100).toFixed(0)}%`;
  const tA0 = old
    ? target(
        a <= TARGETS.modelCost * a0,
        `(a) costs ${cost(a, a0)} over (a₀)`,
        `(a) costs ${cost(a, a0)} over (a₀); the limit is ${fmt(TARGETS.modelCost * a0)} ms`,
      )
    : null;
  const tS = target(
    median(rows.s) <= LIBRARY_TARGET * a,
    `(s) = ${(median(rows.s) / a).toFixed(2)} × (a)`,
    `(s) = ${(median(rows.s) / a).toFixed(2)} × (a); over the ${fmt(LIBRARY_TARGET * a)} ms limit by ${fmt(median(rows.s) - LIBRARY_TARGET * a)} ms`,
  );
  const t2 = target(
    c / a >= TARGETS.naiveOverCli,
    `(a) is ${(c / a).toFixed(1)}× faster than (c)`,
    `(a) is only ${(c / a).toFixed(1)}× faster than (c); it would need ≤ ${fmt(c / 5)} ms, over by ${fmt(a - c / 5)} ms`,
  );
  const t3 = target(
    d.p99 <= TARGETS.incrementalP99,
    `p99 ${fmt(d.p99)} ms`,
    `p99 ${fmt(d.p99)} ms, ${fmt(d.p99 - TARGETS.incrementalP99)} ms over (${(d.p99 / TARGETS.incrementalP99).toFixed(1)}× the limit)`,
  );
  const t4 = target(
    f.p99 <= TARGETS.indexP99,
    `p99 ${fmt(f.p99)} ms`,
    `p99 ${fmt(f.p99)} ms, ${fmt(f.p99 - TARGETS.indexP99)} ms over (${(f.p99 / TARGETS.indexP99).toFixed(1)}× the limit)`,
  );
  const t5 = target(
    e <= TARGETS.rssMb,
    `${e.toFixed(0)} MB`,
    `${e.toFixed(0)} MB, ${(e - TARGETS.rssMb).toFixed(0)} MB over`,
  );
  const tE0 = old
    ? target(
        e <= TARGETS.modelCost * e0,
        `${e.toFixed(0)} MB, ${cost(e, e0)} over the baseline's ${e0.toFixed(0)} MB`,
        `${e.toFixed(0)} MB, ${cost(e, e0)} over the baseline's ${e0.toFixed(0)} MB (limit ${(TARGETS.modelCost * e0).toFixed(0)} MB)`,
      )
    : null;

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# ShardLens benchmark results',
    '',
    `Generated by \`npm run bench\` (bench/run.mjs) on ${new Date().toISOString()}, code at ${code}.`,
    '',
    `- **Machine:** ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB memory, ` +
      `${os.type()} ${os.release()} (${os.arch()}), Node ${process.version}. Shared and noisy: rows (a)–(c) ran interleaved, ` +
      `median of the repetitions.`,
    `- **Workspace:** \`bench/workspace\` (seed ${ws.seed}, generator v${ws.version}): ${ws.sourceFiles.toLocaleString('en-US')} source files, ` +
      `${mb(ws.sourceBytes)} MB (TS ${ws.byLanguage.ts}, JS ${ws.byLanguage.js}, Python ${ws.byLanguage.py}); ` +
      `${ws.dynamoFiles} DynamoDB files (${((ws.dynamoFiles / ws.sourceFiles) * 100).toFixed(1)}%) with ${ws.dynamoCalls} SDK calls, ` +
      `${ws.crossFilePairs} cross-file writer/reader keys (${ws.mismatchedPairs} with mismatched shard ranges); ` +
      `${last.b.prescanPositives} of the files checked pass the engine's pre-scan (${ws.prescanPositives} pass the generator's looser copy of it, which still takes \`tableName\` and \`add_item(\`); ${ws.bigFiles.length} files of 200–500 KB; ` +
      `${ws.ignoredFiles} files in the gitignored \`generated/\` and in \`node_modules/\` that must be (and were) skipped.`,
    '',
    '| Row | What is measured | Result | Spread | Reps | Target | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| (a) | \`shardlens check bench/workspace --format json\`, whole process, fresh \`node\` each time | **${fmt(a)} ms** median | ${spread(rows.a)} | ${rows.a.length} | (a) ≤ ${TARGETS.cliOverFloor} × (b) | ${t1} |`,
    ...(old
      ? [
          `| (a₀) | the same with the CLI as of ${old.sha} (before the key model), bundled from \`git archive\` | **${fmt(a0)} ms** median | ${spread(old.a)} | ${old.a.length} | (a) ≤ ${TARGETS.modelCost} × (a₀) | ${tA0} |`,
        ]
      : []),
    `| (b) | floor: the same walk, read and literal pre-scan, nothing parsed (\`bench/floor.ts\`) | **${fmt(b)} ms** median | ${spread(rows.b)} | ${rows.b.length} | — | — |`,
    `| (c) | naive: tree-sitter-parse every collected file, no pre-scan (\`bench/naive.ts\`) | **${fmt(c)} ms** median | ${spread(rows.c)} | ${rows.c.length} | (a) ≥ 5× faster than (c) | ${t2} |`,
    ...(p ? [peerTableRow(rows.p, a, median)] : []),
    libraryTableRow({ s: rows.s, a: rows.a, median, fmt, spread, verdict: tS }),
    `| (d) | incremental re-analysis of the ${d.lines.toLocaleString('en-US')}-line file after a one-character edit (\`AnalyzedDocument.applyEdits\`) | p50 **${fmt(d.p50)} ms**, p99 **${fmt(d.p99)} ms** | p90 ${fmt(d.p90)}, max ${fmt(d.max)} ms | ${d.n} | p99 ≤ 10 ms | ${t3} |`,
    `| (e) | peak RSS of (a) (${haveTime ? '`/usr/bin/time -v`' : '`process.resourceUsage().maxRSS`'}) | **${e.toFixed(0)} MB** median | ${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MB | ${rss.length} | ≤ 300 MB | ${t5} |`,
    ...(old
      ? [
          `| (e₀) | peak RSS of (a₀) | **${e0.toFixed(0)} MB** median | ${Math.min(...old.rss).toFixed(0)}–${Math.max(...old.rss).toFixed(0)} MB | ${old.rss.length} | (e) ≤ ${TARGETS.modelCost} × (e₀) | ${tE0} |`,
        ]
      : []),
    `| (f) | index update after one file changes (\`WorkspaceIndex.update\`, ${ws.sourceFiles.toLocaleString('en-US')}-file index) | p50 **${fmt(f.p50)} ms**, p99 **${fmt(f.p99)} ms** | p90 ${fmt(f.p90)}, max ${fmt(f.max)} ms | ${f.n} | p99 ≤ 20 ms | ${t4} |`,
    ...lspTableRows(g, target),
    '',
    `**${verdict.filter(Boolean).length} of ${verdict.length} targets met.**`,
    '',
    '## Details',
    '',
    `- (a) reported ${sanity.findings} findings (${Object.entries(sanity.byRule)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}) over ${sanity.accesses} accesses; ${sanity.skippedLines} file(s) named as skipped on stderr; ` +
      `"${sanity.gitignoredLine.replace(/^shardlens: /, '')}"; nothing from \`node_modules/\` or \`generated/\`.`,
    `- (b) inside the process (last repetition): walk ${fmt(last.b.walkMs)} ms, read ${fmt(last.b.readMs)} ms, ` +
      `pre-scan ${fmt(last.b.prescanMs)} ms over ${last.b.files} files / ${mb(last.b.bytes)} MB; ${last.b.prescanPositives} pass the pre-scan. ` +
      `The rest of the wall time is Node start-up and exit.`,
    `- (c) inside the process: parsers loaded in ${fmt(last.c.initMs)} ms, parsing ${fmt(last.c.parseMs)} ms; ` +
      `slowest file ${last.c.slowest.file.replace(/^bench\/workspace\//, '')} (${fmt(last.c.slowest.ms)} ms); ${last.c.withErrors} trees with syntax errors.`,
    `- (d) ${d.accesses} accesses in the file; opening it (first full parse and analysis) ${fmt(d.openMs)} ms; ` +
      `a fresh full analysis of it ${fmt(d.fullAnalysisMs)} ms (median of 5); mean edit ${fmt(d.mean)} ms. Slowest edits: ` +
      d.slowest
        .slice(0, 4)
        .map((s) => `line ${s.line} col ${s.column} ${s.kind} \`${s.char === '`' ? "'" : s.char}\` ${fmt(s.ms)} ms`)
        .join('; ') +
      '.',
    `- (f) building the index (every file, as the CLI does) ${fmt(f.buildMs)} ms; ${f.dynamoFiles} files with accesses to pick from; ` +
      `the file's analysis alone (analyzeSource) p50 ${fmt(f.analyzeOnly.p50)} ms, p99 ${fmt(f.analyzeOnly.p99)} ms; ` +
      `logical keys re-checked per update p50 ${f.touchedKeys.p50}, max ${f.touchedKeys.max}. Slowest updates: ` +
      f.slowest
        .slice(0, 4)
        .map(
          (s) =>
            `${s.file.replace(/^bench\/workspace\//, '')}:${s.line} (${s.lines} lines, ${s.touched} keys) ${fmt(s.ms)} ms`,
        )
        .join('; ') +
      '.',
    ...(p ? [peerDetails(p)] : []),
    libraryDetails(libs),
    ...lspDetails(g),
    `- Baselines (b) and (c) ran as ${baselines.how}. Rows (d) and (f) ran in process under \`node --import tsx\` ` +
      `after 10 untimed warm-up edits/updates.`,
    '',
    'See bench/README.md for what each row measures and the caveats.',
    '',
  ];
  return formatMarkdown(lines.join('\n'));
}

/** Formats with the project's prettier when it is there, so the file passes `prettier --check`. */
async function formatMarkdown(md) {
  try {
    const prettier = await import('prettier');
    const file = path.join(HERE, 'results.md');
    const config = (await prettier.resolveConfig(file)) ?? {};
    return await prettier.format(md, { ...config, filepath: file });
  } catch {
    return md;
  }
}

await main();

/**
 * The local lab's own bench (`node --import tsx lab/bench.ts`, lab vs dynalite alone) runs
 * apart: it needs the machine for minutes. Its latest results are carried into results.md.
 */
function labSection() {
  const file = path.join(HERE, '..', 'lab', 'bench-results.md');
  if (!fs.existsSync(file)) return '';
  const body = fs
    .readFileSync(file, 'utf8')
    .replace(/^# .*\n/, '')
    .replace(/^## /gm, '### ');
  return `\n## Local lab (from lab/bench-results.md, produced by \`node --import tsx lab/bench.ts\`)\n${body}`;
}

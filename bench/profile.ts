// Where the time goes, for the two latency rows that matter most while typing:
//
//   node --import tsx bench/profile.ts lsp [--edits 200] [--top 15] [--ref REF]
//     the working tree's server (bundled like dist/server.js) under `node --cpu-prof`, driven by bench/lsp.ts (edits with a hover
//     right behind each); only the samples inside the edit blocks are counted.
//   node --import tsx bench/profile.ts incremental [--edits 300] [--top 15] [--ref REF]
//     bench/incremental.ts (row (d)) bundled with a source map and run under
//     `node --cpu-prof`; only the samples under `applyEdits` are counted.
//
// --ref profiles the engine of an earlier commit instead of the working tree's (sources
// from `git archive`, see baseline-server.mjs), to compare the two tables.
// Prints Markdown: the latencies measured under the profiler (slower than without it)
// and tables of self and inclusive time by source file and function. Needs `npm run
// build` (dist/) and the generated workspace (`node bench/generate.mjs`).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { breakdown, breakdownMarkdown } from './cpuprofile';

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(os.tmpdir(), 'shardlens-bench', 'profile');
const WORKSPACE = path.join(ROOT, 'bench', 'workspace');
const argv = process.argv.slice(2);
const what = argv[0];
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const TOP = opt('--top', 15);
const REF = argv.includes('--ref') ? argv[argv.indexOf('--ref') + 1] : null;
const fmt = (ms: number) => (ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

function run(args: string[]): string {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${r.stderr.slice(-3000)}`);
  return r.stdout.trim().split('\n').pop()!;
}

function incrementalFile(): string {
  const marker = JSON.parse(fs.readFileSync(path.join(WORKSPACE, '.shardlens-bench.json'), 'utf8'));
  return path.join(WORKSPACE, marker.stats.incrementalFile);
}

async function profileLsp(): Promise<string> {
  fs.mkdirSync(OUT, { recursive: true });
  // The working tree's server, bundled here with its source map (not dist/, which others rebuild).
  const server = REF ? (await sourcesAt(REF)).bundle : await bundleWorktreeServer();
  const label = REF ? `ref-${REF.replace(/[^\w.-]/g, '_')}` : 'worktree';
  const edits = opt('--edits', 200);
  const r = JSON.parse(
    run([
      '--import',
      'tsx',
      path.join(ROOT, 'bench', 'lsp.ts'),
      '--root',
      WORKSPACE,
      '--file',
      path.relative(WORKSPACE, incrementalFile()),
      '--server',
      `${label}=${server}`,
      '--edits',
      String(edits),
      '--idle',
      '0',
      '--cpu-prof',
      OUT,
    ]),
  );
  const s = r.servers[0];
  const b = breakdown(s.profile, { windows: s.windows, top: TOP });
  return [
    `## Hover right after a one-character edit, over LSP (${REF ? `the server at ${REF}` : "the working tree's server"} under --cpu-prof)`,
    '',
    `${s.afterEdit.n} edits of ${r.file} (${r.lines} lines, ${s.diagnostics} diagnostics), a hover behind each: ` +
      `p50 ${fmt(s.afterEdit.p50)} ms, p99 ${fmt(s.afterEdit.p99)} ms under the profiler; ` +
      `didChange → publishDiagnostics p50 ${fmt(s.publishAfterLastEdit?.p50 ?? NaN)} ms (150 ms of it the debounce). ` +
      `Profile: ${s.profile}.`,
    '',
    breakdownMarkdown('Samples inside the edit blocks (hovers, and the debounced re-publish in the pauses)', b),
    breakdownMarkdown(
      `Samples inside the slowest tenth of the hovers (${s.slowWindows.length}, from didChange to the answer)`,
      breakdown(s.profile, { windows: s.slowWindows, top: TOP }),
    ),
  ].join('\n');
}

async function bundleWorktreeServer(): Promise<string> {
  const { bundleServer } = await import('./baseline-server.mjs');
  return bundleServer(ROOT, ROOT, path.join(OUT, 'server-worktree'));
}

/** The server bundle and unpacked sources of an earlier commit (this bench/'s harness copied in). */
async function sourcesAt(ref: string): Promise<{ bundle: string; src: string; sha: string }> {
  const { buildServerAt } = await import('./baseline-server.mjs');
  const { bundle, sha } = await buildServerAt(ROOT, ref, path.dirname(OUT));
  const src = path.join(path.dirname(bundle), 'src');
  fs.mkdirSync(path.join(src, 'bench'), { recursive: true });
  for (const f of ['incremental.ts', 'stats.ts'])
    fs.copyFileSync(path.join(ROOT, 'bench', f), path.join(src, 'bench', f));
  return { bundle, src, sha };
}

async function profileIncremental(): Promise<string> {
  const at = REF ? await sourcesAt(REF) : null;
  const dir = at ? path.join(OUT, `incremental-${at.sha}`) : OUT;
  fs.mkdirSync(path.join(dir, 'grammars'), { recursive: true });
  for (const w of fs.readdirSync(path.join(ROOT, 'dist', 'grammars')))
    fs.copyFileSync(path.join(ROOT, 'dist', 'grammars', w), path.join(dir, 'grammars', w));
  const esbuild = await import('esbuild');
  // Bundled like dist/ (grammars beside it) so the profile maps back through one source map.
  await esbuild.build({
    entryPoints: { incremental: path.join(at?.src ?? ROOT, 'bench', 'incremental.ts') },
    outdir: dir,
    nodePaths: [path.join(ROOT, 'node_modules')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  });
  const profile = path.join(dir, 'incremental.cpuprofile');
  const edits = opt('--edits', 300);
  const d = JSON.parse(
    run([
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      '--cpu-prof-name=incremental.cpuprofile',
      path.join(dir, 'incremental.js'),
      incrementalFile(),
      String(edits),
    ]),
  );
  const b = breakdown(profile, { within: 'applyEdits', top: TOP });
  const slow = (d.windows as Array<[number, number, number]>)
    .sort((x, y) => y[2] - x[2])
    .slice(0, Math.ceil(d.windows.length / 10))
    .map(([from, to]) => [from, to] as [number, number]);
  return [
    `## Incremental re-analysis after a one-character edit (row (d), ${REF ? `the engine at ${REF}` : "the working tree's engine"}, under --cpu-prof)`,
    '',
    `${d.n} edits of ${d.file} (${d.lines} lines, ${d.accesses} accesses): p50 ${fmt(d.p50)} ms, ` +
      `p99 ${fmt(d.p99)} ms under the profiler. Profile: ${profile}.`,
    '',
    breakdownMarkdown('Samples under AnalyzedDocument.applyEdits', b),
    breakdownMarkdown(
      `Samples inside the slowest tenth of the edits (${slow.length})`,
      breakdown(profile, { windows: slow, within: 'applyEdits', top: TOP }),
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  if (what === 'lsp') process.stdout.write((await profileLsp()) + '\n');
  else if (what === 'incremental') process.stdout.write((await profileIncremental()) + '\n');
  else throw new Error('usage: node --import tsx bench/profile.ts lsp|incremental [--edits N] [--top N]');
}

main().catch((e: Error) => {
  process.stderr.write(`bench/profile.ts: ${e.message}\n`);
  process.exitCode = 1;
});

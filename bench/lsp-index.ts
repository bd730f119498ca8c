// Rows (l)-(m): the language server's time to a complete index of a workspace, from
// `initialize` to the status that says indexing is done, starting cold (an empty cache
// folder) and warm (the cache the cold start wrote), alternating, `reps` of each.
// Prints one JSON line: { cold: ms[], warm: ms[], files, hits }. PROF=DIR: each server under --cpu-prof.
//   node --import tsx bench/lsp-index.ts --root DIR --server BUNDLE --scratch DIR [--reps N]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';

const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback!;
};
const ROOT = path.resolve(arg('--root'));
const BUNDLE = path.resolve(arg('--server'));
const SCRATCH = path.resolve(arg('--scratch'));
const REPS = Number(arg('--reps', '3'));

/** One server start: ms to a complete index, and what its log said of the cache. */
async function indexOnce(cacheDir: string): Promise<{ ms: number; files: number; hits: number }> {
  const child = spawn(
    process.execPath,
    [...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.PROF] : []), BUNDLE, '--stdio'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  let line = '';
  const done = new Promise<void>((resolve) => {
    let indexing = false;
    conn.onNotification('shardlens/status', (s: { indexing: boolean }) => {
      if (indexing && !s.indexing) resolve();
      indexing = s.indexing;
    });
  });
  conn.onNotification('window/logMessage', (m: { message: string }) => {
    if (/from the analysis cache/.test(m.message)) line = m.message;
  });
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('client/registerCapability', () => null);
  conn.onNotification('$/progress', () => undefined);
  conn.onNotification('textDocument/publishDiagnostics', () => undefined);
  conn.listen();
  const uri = pathToFileURL(ROOT).toString();
  const t0 = performance.now();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: uri,
    workspaceFolders: [{ uri, name: 'bench' }],
    capabilities: { workspace: { configuration: true }, window: { workDoneProgress: true } },
    initializationOptions: { cacheDir },
  });
  void conn.sendNotification('initialized', {});
  await done;
  const ms = performance.now() - t0;
  // The cache is written after the index: wait for it before stopping the server.
  const written = () => fs.readdirSync(cacheDir, { recursive: true }).some((f) => String(f).endsWith('server.json'));
  for (let i = 0; i < 600 && !written(); i++) await new Promise((r) => setTimeout(r, 50));
  await conn.sendRequest('shutdown');
  void conn.sendNotification('exit');
  await new Promise((r) => child.once('exit', r));
  conn.dispose();
  const m = line.match(/indexed (\d+) files, (\d+) from/);
  return { ms, files: Number(m?.[1] ?? 0), hits: Number(m?.[2] ?? 0) };
}

async function main(): Promise<void> {
  const cold: number[] = [];
  const warm: number[] = [];
  let last = { files: 0, hits: 0 };
  for (let i = 0; i < REPS; i++) {
    const dir = path.join(SCRATCH, `lsp-cache-${i}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    cold.push((await indexOnce(dir)).ms);
    const w = await indexOnce(dir);
    warm.push(w.ms);
    last = w;
    process.stderr.write(
      `bench: server index rep ${i + 1}/${REPS}: cold ${Math.round(cold[i])} ms, warm ${Math.round(w.ms)} ms (${w.hits}/${w.files} from the cache)\n`,
    );
  }
  process.stdout.write(JSON.stringify({ cold, warm, files: last.files, hits: last.hits }) + '\n');
}

void main();

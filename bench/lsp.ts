// Rows (g)–(i): the language server as an editor drives it, over real LSP on stdio.
// Each server bundle (the built dist/server.js, and optionally an earlier commit's
// server as the baseline) runs as its own process, rooted at the generated workspace,
// with the ~3,000-line file open. A real JSON-RPC client (vscode-languageserver-protocol)
// sends, per measured edit, a one-character incremental `didChange` and right behind it
// a `hover` (timed from send to answer); then it waits a typing pause, so that some
// hovers land while the server's debounced re-publish runs, as they do for a user.
// Then, with no edits, hovers and `codeAction` requests at a diagnostic's line (the
// cursor on it, the line's diagnostics in the context, as Neovim sends them).
// Several servers are measured in interleaved blocks over the same seeded plan, so a
// change in the machine's load falls on all of them alike.
//
//   node --import tsx bench/lsp.ts --root DIR --file REL --server LABEL=BUNDLE [--server ...]
//        [--edits 200] [--idle 200] [--block 20] [--seed 7] [--cpu-prof DIR] [--deadline 300]
//
// Prints one JSON line. Every server is stopped by its PID (shutdown/exit first, so a
// CPU profile gets written), also when the deadline passes.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { plan, type Pos, type Step } from './lsp-plan';
import { rng, summary } from './stats';

interface Sample {
  ms: number;
  line: number;
  column: number;
  kind: string;
  char: string;
  onKey: boolean;
  /** A publishDiagnostics (any file) arrived while this hover was pending: it may have waited behind the re-publish. */
  behindPublish: boolean;
  /** From the didChange to the hover's answer, CLOCK_MONOTONIC µs (for the CPU profile). */
  window: [number, number];
}

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const ROOT = path.resolve(opt('--root', 'bench/workspace'));
const FILE = path.join(ROOT, opt('--file', 'services/ledger/src/ledger-store.ts'));
const URI = pathToFileURL(FILE).toString();
const EDITS = Number(opt('--edits', '200'));
const IDLE = Number(opt('--idle', '200'));
const BLOCK = Number(opt('--block', '20'));
/** The pause between the edits and the requests with no edits. */
const QUIET_MS = 3000;
const SEED = Number(opt('--seed', '7'));
const CPU_PROF = argv.includes('--cpu-prof') ? path.resolve(opt('--cpu-prof', '')) : null;
const DEADLINE_S = Number(opt('--deadline', '300'));
const SERVERS = argv.flatMap((a, i) => (argv[i - 1] === '--server' ? [a.split('=')] : [])) as Array<[string, string]>;
const REQUEST_TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CLOCK_MONOTONIC in microseconds: the clock V8 stamps CPU profile samples with. */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

class Session {
  readonly child: ChildProcess;
  readonly conn: ProtocolConnection;
  readonly stderr: string[] = [];
  diagnostics: Diagnostic[] = [];
  publishes = 0;
  /** publishDiagnostics for any file: the server republishes every file sharing a key with the edited one. */
  anyPublishes = 0;
  lastAnyPublishAt = 0;
  /** Per debounced update: from the last didChange to its last publishDiagnostics, and how many it sent. */
  readonly bursts: Array<{ ms: number; messages: number }> = [];
  private burst = 0;
  indexing: boolean | null = null;
  indexed = false;
  version = 1;
  lastChangeAt = 0;
  awaitingPublish = false;
  readonly publishMs: number[] = [];
  readonly afterEdit: Sample[] = [];
  /** The first edits after opening (the warm-up): JIT compilation and first-use costs show here. */
  readonly cold: number[] = [];
  readonly idleHover: number[] = [];
  readonly codeAction: number[] = [];
  readonly windows: Array<[number, number]> = [];
  keyHovers = 0;
  keyHoverHits = 0;
  emptyActions = 0;
  indexMs = 0;
  openMs = 0;
  openDiagnostics = 0;
  private waiters: Array<() => void> = [];

  constructor(
    readonly label: string,
    readonly bundle: string,
  ) {
    const prof = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`, `--cpu-prof-name=${label}.cpuprofile`] : [];
    this.child = spawn(process.execPath, [...prof, bundle, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d) => this.stderr.push(String(d)));
    this.conn = createProtocolConnection(
      new StreamMessageReader(this.child.stdout!),
      new StreamMessageWriter(this.child.stdin!),
    );
    this.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.anyPublishes++;
      this.lastAnyPublishAt = performance.now();
      this.burst++;
      if (p.uri !== URI) return;
      this.diagnostics = p.diagnostics;
      this.publishes++;
      if (this.awaitingPublish) this.publishMs.push(performance.now() - this.lastChangeAt);
      this.awaitingPublish = false;
      this.wake();
    });
    this.conn.onNotification('shardlens/status', (s: { indexing: boolean }) => {
      if (this.indexing && !s.indexing) this.indexed = true;
      this.indexing = s.indexing;
      this.wake();
    });
    // Each start indexes cold, as before the analysis cache: these rows measure typing, not start-up.
    this.conn.onRequest('workspace/configuration', (p: { items: unknown[] }) =>
      p.items.map(() => ({ cache: { enabled: false } })),
    );
    this.conn.onRequest('window/workDoneProgress/create', () => null);
    this.conn.onRequest('client/registerCapability', () => null);
    this.conn.onNotification('$/progress', () => undefined);
    this.conn.onNotification('window/logMessage', () => undefined);
    this.conn.listen();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves when `check` holds, re-checked on every notification; rejects after `ms`. */
  async until(what: string, check: () => boolean, ms: number): Promise<void> {
    const deadline = performance.now() + ms;
    while (!check()) {
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(`${this.label}: timed out waiting for ${what}; stderr: ${this.stderr.join('').slice(-2000)}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => (clearTimeout(t), r()));
      });
    }
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return Promise.race([
      this.conn.sendRequest(method, params) as Promise<T>,
      sleep(REQUEST_TIMEOUT_MS).then(() => {
        throw new Error(`${this.label}: ${method} unanswered after ${REQUEST_TIMEOUT_MS} ms`);
      }),
    ]);
  }

  async start(): Promise<void> {
    const t0 = performance.now();
    const root = pathToFileURL(ROOT).toString();
    await this.request('initialize', {
      processId: process.pid,
      rootUri: root,
      workspaceFolders: [{ uri: root, name: 'bench' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        window: { workDoneProgress: true },
        textDocument: { publishDiagnostics: { relatedInformation: true } },
      },
    });
    void this.conn.sendNotification('initialized', {});
    await this.until('the workspace index', () => this.indexed, 180_000);
    this.indexMs = performance.now() - t0;
    const t1 = performance.now();
    const before = this.publishes;
    const text = fs.readFileSync(FILE, 'utf8');
    void this.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: URI, languageId: 'typescript', version: this.version, text },
    });
    await this.until('diagnostics of the opened file', () => this.publishes > before, 60_000);
    this.openMs = performance.now() - t1;
    this.openDiagnostics = this.diagnostics.length;
  }

  async hover(at: Pos): Promise<{ ms: number; found: boolean }> {
    const t = performance.now();
    const r = await this.request<{ contents?: unknown } | null>('textDocument/hover', {
      textDocument: { uri: URI },
      position: at,
    });
    return { ms: performance.now() - t, found: !!r?.contents };
  }

  /** One keystroke (typed or deleted) and a hover right behind it. */
  async editAndHover(step: Step): Promise<void> {
    const { line, character } = step.at;
    const end = { line, character: character + (step.kind === 'delete' ? 1 : 0) };
    this.endBurst();
    const from = monoUs();
    void this.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: ++this.version },
      contentChanges: [{ range: { start: step.at, end }, text: step.kind === 'type' ? step.char : '' }],
    });
    this.lastChangeAt = performance.now();
    this.awaitingPublish = true;
    const before = this.anyPublishes;
    const { ms, found } = await this.hover(step.hover);
    if (step.hover.onKey) {
      this.keyHovers++;
      if (found) this.keyHoverHits++;
    }
    this.afterEdit.push({
      ms,
      line: line + 1,
      column: character,
      kind: step.kind,
      char: step.char,
      onKey: step.hover.onKey,
      behindPublish: this.anyPublishes > before,
      window: [from, monoUs()],
    });
  }

  /** Waits for the debounced re-publish after the last edit, and a quiet moment after it. */
  async settle(): Promise<void> {
    await this.until('the re-publish after the last edit', () => !this.awaitingPublish, 30_000);
    // The rest of the burst (other files sharing a key) follows the edited file's message.
    while (performance.now() - this.lastAnyPublishAt < 100) await sleep(50);
    this.endBurst();
  }

  /** Records the publish burst of the update since the last didChange, if there was one. */
  private endBurst(): void {
    if (this.burst > 0 && this.lastChangeAt > 0 && this.lastAnyPublishAt > this.lastChangeAt)
      this.bursts.push({ ms: this.lastAnyPublishAt - this.lastChangeAt, messages: this.burst });
    this.burst = 0;
  }

  async codeActionAt(d: Diagnostic): Promise<number> {
    const line = d.range.start.line;
    const t = performance.now();
    const r = await this.request<unknown[] | null>('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: { start: d.range.start, end: d.range.start },
      context: { diagnostics: this.diagnostics.filter((x) => x.range.start.line === line) },
    });
    if (!r?.length) this.emptyActions++;
    return performance.now() - t;
  }

  /** shutdown + exit (the server writes its CPU profile on exit), then the PID if it lingers. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), sleep(5000)]);
      await this.conn.sendNotification('exit');
    } catch {
      // The connection may already be gone; the PID below still stops the process.
    }
    await Promise.race([exited, sleep(15_000)]);
    if (this.child.exitCode === null && this.child.signalCode === null) process.kill(this.child.pid!, 'SIGKILL');
    this.conn.dispose();
  }
}

async function main(): Promise<void> {
  if (SERVERS.length === 0) throw new Error('no --server LABEL=BUNDLE given');
  const sessions: Session[] = [];
  const deadline = setTimeout(() => {
    process.stderr.write(`bench/lsp.ts: over the ${DEADLINE_S} s deadline; stopping the servers\n`);
    for (const s of sessions) if (s.child.exitCode === null) process.kill(s.child.pid!, 'SIGKILL');
    process.exit(1);
  }, DEADLINE_S * 1000);
  try {
    for (const [label, bundle] of SERVERS) {
      const s = new Session(label, bundle);
      sessions.push(s);
      await s.start();
    }
    const text = fs.readFileSync(FILE, 'utf8');
    const keys = sessions[0].diagnostics.map((d) => d.range.start);
    if (keys.length === 0) throw new Error('the opened file has no diagnostics to hover or act on');
    const steps = plan(text, keys, SEED, EDITS);
    const next = rng(SEED + 1);
    const idlePlan = Array.from({ length: IDLE }, () => {
      const k = keys[Math.floor(next() * keys.length)];
      const onKey = next() < 0.5;
      const line = onKey ? k.line : Math.floor(next() * text.split('\n').length);
      return { line, character: onKey ? k.character + 1 : Math.floor(next() * 30), onKey };
    });
    const actionPlan = Array.from({ length: IDLE }, () => Math.floor(next() * keys.length));

    // Warm-up (kept apart): the first edits after opening pay for JIT compilation.
    for (const s of sessions) {
      for (const step of plan(text, keys, SEED + 2, 10)) await s.editAndHover({ ...step, pauseMs: 0 });
      s.cold.push(...s.afterEdit.map((x) => x.ms));
      s.afterEdit.length = 0;
      s.keyHovers = s.keyHoverHits = 0;
      await s.settle();
      s.publishMs.length = 0;
      s.bursts.length = 0;
    }
    // Each block goes to the servers in turn, the first of them alternating from block to block: whatever
    // a server leaves running after its block (a collection when it goes idle) falls on the next one
    // in turn, and a fixed order put it on the same server every time (an A/A run of one commit against
    // itself showed 3.7 against 9.4 ms of code-action p99, and 3.9 against 20 ms of idle-hover p99).
    const inTurn = (b: number) => ((b / BLOCK) % 2 === 0 ? sessions : [...sessions].reverse());
    // Edits, in interleaved blocks (a block ends on a delete, so the text is back to the original).
    for (let b = 0; b < steps.length; b += BLOCK) {
      for (const s of inTurn(b)) {
        const from = monoUs();
        for (const step of steps.slice(b, b + BLOCK)) {
          await s.editAndHover(step);
          await sleep(step.pauseMs);
        }
        s.windows.push([from, monoUs()]);
        await s.settle();
      }
    }
    // The servers' work after the last edits (a re-publish, collections) ends before the requests with no
    // edits start: run on two identical servers, the one that went on right after its last edit block
    // answered its first code actions in 10-36 ms, the other in under 4.
    await sleep(QUIET_MS);
    // No edits: hovers, then code actions, interleaved the same way.
    for (let b = 0; b < IDLE; b += BLOCK) {
      for (const s of inTurn(b)) {
        for (const at of idlePlan.slice(b, b + BLOCK)) {
          s.idleHover.push((await s.hover(at)).ms);
          await sleep(10);
        }
        for (const i of actionPlan.slice(b, b + BLOCK)) {
          s.codeAction.push(await s.codeActionAt(s.diagnostics[i % s.diagnostics.length]));
          await sleep(10);
        }
      }
    }
    const result = sessions.map((s) => report(s));
    for (const s of sessions) await s.stop();
    process.stdout.write(
      JSON.stringify({ file: path.relative(process.cwd(), FILE), lines: text.split('\n').length, servers: result }) +
        '\n',
    );
  } finally {
    for (const s of sessions) await s.stop();
    clearTimeout(deadline);
  }
}

function report(s: Session) {
  const quiet = s.afterEdit.filter((x) => !x.behindPublish).map((x) => x.ms);
  const behind = s.afterEdit.filter((x) => x.behindPublish).map((x) => x.ms);
  return {
    label: s.label,
    bundle: path.relative(process.cwd(), s.bundle),
    pid: s.child.pid,
    indexMs: s.indexMs,
    openMs: s.openMs,
    diagnostics: s.openDiagnostics,
    diagnosticsAfter: s.diagnostics.length,
    cold: s.cold,
    afterEdit: summary(s.afterEdit.map((x) => x.ms)),
    afterEditQuiet: quiet.length ? summary(quiet) : null,
    afterEditBehindPublish: behind.length ? summary(behind) : null,
    keyHovers: s.keyHovers,
    keyHoverHits: s.keyHoverHits,
    publishAfterLastEdit: s.publishMs.length ? summary(s.publishMs) : null,
    burstAfterLastEdit: s.bursts.length ? summary(s.bursts.map((b) => b.ms)) : null,
    burstMessages: s.bursts.length ? summary(s.bursts.map((b) => b.messages)) : null,
    idleHover: summary(s.idleHover),
    codeAction: summary(s.codeAction),
    emptyActions: s.emptyActions,
    slowest: [...s.afterEdit]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6)
      .map(({ window: _, ...x }) => x),
    // The slowest tenth of the hovers' windows, for the CPU profile.
    slowWindows: [...s.afterEdit]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, Math.ceil(s.afterEdit.length / 10))
      .map((x) => x.window),
    windows: s.windows,
    profile: CPU_PROF ? path.join(CPU_PROF, `${s.label}.cpuprofile`) : null,
  };
}

main().catch((e: Error) => {
  process.stderr.write(`bench/lsp.ts: ${e.stack ?? e.message}\n`);
  process.exitCode = 1;
});

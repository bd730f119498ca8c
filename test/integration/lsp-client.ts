/**
 * A real LSP client for the language-server tests: it spawns the built server bundle
 * (dist/server.js) over stdio, answers what the server asks of a client, and keeps
 * what the server publishes. No part of the server is mocked.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type DataCallback,
  type Diagnostic,
  type Message,
  type MessageReader,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';

export const ROOT = path.resolve(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'server.js');

export interface Status {
  indexing: boolean;
  errors: number;
  warnings: number;
  infos: number;
}

export interface Session {
  conn: ProtocolConnection;
  /** The last diagnostics published per URI. */
  diagnostics: Map<string, Diagnostic[]>;
  statuses: Status[];
  /** Errors the server logged (`window/logMessage` of type Error): a handler that threw shows here. */
  errors: string[];
  /** Every line the server logged (`window/logMessage`), as `[type] message`. */
  logs: string[];
  /** What the server wrote on stderr (also passed through to the test's stderr). */
  stderr: string;
  /** How long the client takes to answer `workspace/configuration` (a busy editor is not instant). */
  configurationDelayMs: number;
  /** The server's exit code or signal once it has exited (it never should while a test runs). */
  exited: string | null;
  /** What `workspace/configuration` answers; tests change it, then notify the server. */
  settings: Record<string, unknown>;
  /**
   * Sends a request exactly as given, `params: null` included (the connection would
   * wrap a null in an array), and resolves with the raw response message.
   */
  rawRequest(method: string, params: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
  /** `shardlens/heatStatus` notifications, in order. */
  heatStatuses: Array<{ state: string; label: string | null; lastRefresh: string | null; problem: unknown }>;
  /** `workspace/applyEdit` requests the server sent; each is answered with `applyEdits` (default: applied). */
  appliedEdits: Array<{ label?: string; edit: unknown }>;
  applyEdits: boolean;
  /**
   * Sends `initialize` (with `folder` as the workspace) and `initialized`; `options` adds
   * `initializationOptions` and client capabilities (merged into `workspace`).
   */
  initialize(options?: { initializationOptions?: unknown; workspace?: Record<string, unknown> }): Promise<unknown>;
  stop(): void;
}

function newestMtime(dir: string): { file: string; mtime: number } {
  let newest = { file: dir, mtime: 0 };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const mtime = fs.statSync(file).mtimeMs;
    if (mtime > newest.mtime) newest = { file, mtime };
  }
  return newest;
}

/**
 * These tests drive the bundle, not the sources: one older than a source file tests
 * old code and passes or fails for the wrong reason. Throws, naming the newer file.
 */
export function assertFreshBundle(): void {
  // dist/server.js is the entry that loads this one, the server's code.
  const main = path.join(ROOT, 'dist', 'server-main.js');
  for (const f of [BUNDLE, main]) if (!fs.existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
  const built = fs.statSync(main).mtimeMs;
  for (const dir of ['server/src', 'protocol/src']) {
    const newest = newestMtime(path.join(ROOT, dir));
    if (newest.mtime > built) {
      throw new Error(
        `dist/server-main.js is older than ${path.relative(ROOT, newest.file)}: run npm run build, then the tests again`,
      );
    }
  }
}

/**
 * Starts the server on `folder`; `initialize()` is left to the test, which may race it.
 * `testRequests` sets SHARDLENS_TEST_REQUESTS=1, which registers the server's test-only
 * requests (`shardlens/test/documentText`: the text it holds for a document).
 */
export function startServer(
  folder: string,
  options: { testRequests?: boolean; env?: NodeJS.ProcessEnv } = {},
): Session {
  assertFreshBundle();
  const base = options.env ?? process.env;
  const env = options.testRequests ? { ...base, SHARDLENS_TEST_REQUESTS: '1' } : base;
  const server = spawn(process.execPath, [BUNDLE, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env });
  const writer = new StreamMessageWriter(server.stdin!);
  const raw = new Map<string, (m: Message) => void>();
  const conn = createProtocolConnection(tap(new StreamMessageReader(server.stdout!), raw), writer);
  let rawIds = 0;
  let stopped = false;
  const session: Session = {
    conn,
    diagnostics: new Map(),
    statuses: [],
    errors: [],
    logs: [],
    stderr: '',
    configurationDelayMs: 0,
    exited: null,
    settings: {},
    heatStatuses: [],
    appliedEdits: [],
    applyEdits: true,
    rawRequest(method, params) {
      const id = `raw-${++rawIds}`;
      const answered = new Promise<Message>((resolve) => raw.set(id, resolve));
      // The connection's own writer: its lock keeps this message whole between others.
      void writer.write({ jsonrpc: '2.0', id, method, params } as Message);
      return answered as Promise<{ result?: unknown; error?: { code: number; message: string } }>;
    },
    async initialize(options = {}) {
      const root = pathToFileURL(folder).toString();
      const result = await conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: root,
        workspaceFolders: [{ uri: root, name: path.basename(folder) }],
        capabilities: {
          workspace: {
            configuration: true,
            didChangeConfiguration: { dynamicRegistration: true },
            ...options.workspace,
          },
          window: { workDoneProgress: true },
        },
        ...(options.initializationOptions !== undefined
          ? { initializationOptions: options.initializationOptions }
          : {}),
      });
      await conn.sendNotification('initialized', {});
      return result;
    },
    stop() {
      stopped = true;
      conn.dispose();
      server.kill();
    },
  };
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    session.diagnostics.set(p.uri, p.diagnostics);
  });
  conn.onNotification('shardlens/status', (s: Status) => {
    session.statuses.push(s);
  });
  conn.onNotification('shardlens/heatStatus', (s: Session['heatStatuses'][number]) => {
    session.heatStatuses.push(s);
  });
  conn.onRequest('workspace/applyEdit', (p: unknown): { applied: boolean; failureReason?: string } => {
    session.appliedEdits.push(p as { label?: string; edit: unknown });
    return session.applyEdits ? { applied: true } : { applied: false, failureReason: 'refused by the test' };
  });
  conn.onRequest('workspace/codeLens/refresh', () => null);
  conn.onRequest('workspace/configuration', async (p: { items: unknown[] }) => {
    if (session.configurationDelayMs) await new Promise((r) => setTimeout(r, session.configurationDelayMs));
    return p.items.map(() => session.settings);
  });
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('client/registerCapability', () => null);
  conn.onNotification('$/progress', () => undefined);
  conn.onNotification('window/logMessage', (m: { type: number; message: string }) => {
    if (m.type === 1) session.errors.push(m.message);
    session.logs.push(`[${['', 'error', 'warning', 'info', 'log'][m.type] ?? m.type}] ${m.message}`);
  });
  server.stderr!.on('data', (chunk: Buffer) => {
    session.stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  // A server that dies under a test would leave its requests pending for ever, and the test
  // counted as cancelled ("the event loop has already resolved") instead of failed: disposing
  // the connection rejects them, and the line says why.
  server.on('exit', (code, signal) => {
    session.exited = `exit ${code ?? signal}`;
    if (stopped) return;
    process.stderr.write(`[lsp-client] the language server stopped (${session.exited}) while a test ran\n`);
    conn.dispose();
  });
  conn.listen();
  return session;
}

/** The server's messages, with the responses to `rawRequest` taken out before the connection sees them. */
function tap(reader: MessageReader, raw: Map<string, (m: Message) => void>): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    dispose: () => reader.dispose(),
    listen(callback: DataCallback) {
      return reader.listen((m) => {
        const id = (m as { id?: unknown }).id;
        const waiting = typeof id === 'string' ? raw.get(id) : undefined;
        if (!waiting) return callback(m);
        raw.delete(id as string);
        waiting(m);
      });
    },
  };
}

/** Polls until `check` holds (never a fixed sleep); fails with `last()` when it does not. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false,
  last: () => unknown = () => undefined,
  ms = 20000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last())}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The servers a test file starts and the folders it makes, stopped and removed after it:
 * `started` starts a server on a folder, `tmp` makes a folder named `<prefix>-<name>-…`.
 */
export function scratch(prefix: string): { started(folder: string): Session; tmp(name: string): string } {
  const sessions: Session[] = [];
  const dirs: string[] = [];
  after(() => {
    for (const s of sessions) s.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  return {
    started(folder) {
      const s = startServer(folder);
      sessions.push(s);
      return s;
    },
    tmp(name) {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-${name}-`));
      dirs.push(d);
      return d;
    },
  };
}

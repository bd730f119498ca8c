// Helpers to run the extension in a real VS Code: code-server (VS Code's server build,
// full workbench, real Node extension host) driven in Debian's Chromium through
// playwright-core. See docs/testing.md.
//
// Everything here is private to one run: a free 127.0.0.1 port, its own
// user-data-dir, extensions-dir and empty config file. The server is spawned
// detached and stopped by killing its process group (server + extension host +
// language server), never by name.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser } from 'playwright-core';

/** The last code-server release that runs on Node 20 (VS Code 1.100.3). */
export const CODE_SERVER_VERSION = '4.100.3';
export const ROOT = path.resolve(__dirname, '..', '..');
/** Git-ignored install folder; a second run reuses it. */
export const CODE_SERVER_DIR = process.env.SHARDLENS_CODE_SERVER_DIR ?? path.join(ROOT, '.cache', 'code-server');
const MARKER = path.join(CODE_SERVER_DIR, `.installed-${CODE_SERVER_VERSION}`);
export const CHROMIUM = process.env.SHARDLENS_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// @vscode/ripgrep (a dependency of VS Code) downloads rg from GitHub in its postinstall unless its
// cache already holds this archive; we seed it from Debian's rg.
const RIPGREP_PACKAGE_VERSION = '1.15.11';
const RIPGREP_ARCHIVE = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

const log = (msg: string) => process.stderr.write(`[vscode] ${msg}\n`);

/** Path of the code-server launcher once installed. */
export function codeServerBin(): string {
  return path.join(CODE_SERVER_DIR, 'node_modules', '.bin', 'code-server');
}

/** Throws an error naming every missing system prerequisite and the command that installs it. */
export function checkSystemPrerequisites({ forInstall }: { forInstall: boolean }): void {
  const missing: string[] = [];
  if (!existsSync(CHROMIUM)) missing.push(`chromium (${CHROMIUM}): the browser the workbench runs in`);
  if (forInstall) {
    if (!existsSync('/usr/bin/rg')) missing.push('ripgrep (/usr/bin/rg): seeds @vscode/ripgrep, which else downloads');
    const krb = spawnSync('dpkg', ['-s', 'libkrb5-dev'], { stdio: 'ignore' });
    if (krb.status !== 0 && !existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/gssapi/gssapi.h')) {
      missing.push('libkrb5-dev: headers for VS Code\'s "kerberos" native module');
    }
  }
  if (missing.length) {
    throw new Error(
      `Real-VS-Code tests need system packages that are missing:\n  - ${missing.join('\n  - ')}\n` +
        'Install them (as root) with:\n' +
        '  apt-get update && apt-get install -y --no-install-recommends chromium libkrb5-dev ripgrep',
    );
  }
}

/** Whether code-server CODE_SERVER_VERSION is completely installed in CODE_SERVER_DIR. */
export function codeServerInstalled(): boolean {
  return existsSync(MARKER) && existsSync(codeServerBin());
}

/**
 * Installs code-server into the git-ignored cache folder unless it is already there (a few
 * minutes: its postinstall runs a nested `npm install` of VS Code and compiles native modules).
 * Returns the launcher's path.
 */
export async function ensureCodeServer(): Promise<string> {
  if (codeServerInstalled()) {
    checkSystemPrerequisites({ forInstall: false });
    return codeServerBin();
  }
  checkSystemPrerequisites({ forInstall: true });
  const lock = `${CODE_SERVER_DIR}.lock`;
  mkdirSync(path.dirname(CODE_SERVER_DIR), { recursive: true });
  await acquireLock(lock, 20 * 60_000);
  try {
    if (codeServerInstalled()) return codeServerBin(); // another run installed it while we waited
    const t0 = Date.now();
    log(`installing code-server@${CODE_SERVER_VERSION} into ${CODE_SERVER_DIR} (takes a few minutes)`);
    seedRipgrepCache();
    rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
    mkdirSync(CODE_SERVER_DIR, { recursive: true });
    writeFileSync(
      path.join(CODE_SERVER_DIR, 'package.json'),
      JSON.stringify({ name: 'shardlens-code-server', private: true, version: '0.0.0' }, null, 2) + '\n',
    );
    const logFile = path.join(CODE_SERVER_DIR, 'install.log');
    const fd = openSync(logFile, 'w');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      npm_config_yes: 'true', // node-pty's postinstall calls `npx node-gyp`
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    // Do not let an enclosing `npm run` leak its project-specific config into the nested install.
    for (const k of Object.keys(env)) if (/^npm_(package|lifecycle)_|^npm_config_local_prefix$/.test(k)) delete env[k];
    const child = spawn('npm', ['install', '--unsafe-perm', '--no-save', `code-server@${CODE_SERVER_VERSION}`], {
      cwd: CODE_SERVER_DIR,
      env,
      stdio: ['ignore', fd, fd],
    });
    const code: number | null = await new Promise((resolve) => child.on('exit', resolve));
    closeSync(fd);
    if (code !== 0 || !existsSync(codeServerBin())) {
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
      throw new Error(`npm install code-server@${CODE_SERVER_VERSION} failed (exit ${code}); see ${logFile}:\n${tail}`);
    }
    writeFileSync(MARKER, new Date().toISOString() + '\n');
    log(`code-server installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    return codeServerBin();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function seedRipgrepCache(): void {
  const cache = path.join(os.tmpdir(), `vscode-ripgrep-cache-${RIPGREP_PACKAGE_VERSION}`);
  const archive = path.join(cache, RIPGREP_ARCHIVE);
  if (existsSync(archive)) return;
  const pack = path.join(os.tmpdir(), 'rgpack');
  mkdirSync(pack, { recursive: true });
  mkdirSync(cache, { recursive: true });
  execFileSync('cp', ['/usr/bin/rg', path.join(pack, 'rg')]);
  execFileSync('tar', ['czf', archive, '-C', pack, 'rg']);
}

async function acquireLock(dir: string, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return;
    } catch {
      // A lock left by a process that no longer exists is stale.
      let owner = NaN;
      try {
        owner = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
      } catch {
        /* being created */
      }
      if (Number.isInteger(owner) && !processAlive(owner)) rmSync(dir, { recursive: true, force: true });
      else if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${dir}`);
      else await sleep(1000);
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers HTTP 200. */
export async function waitForHttp(url: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get(url, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.setTimeout(2000, () => req.destroy());
    });
    if (ok) return;
    if (!isAlive()) throw new Error(`the server exited before ${url} answered`);
    if (Date.now() - t0 > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await sleep(250);
  }
}

export interface CodeServer {
  port: number;
  /** `127.0.0.1:<port>`: the authority of the workbench and of `vscode-remote://` URIs. */
  authority: string;
  baseUrl: string;
  /** The private state folder: user-data-dir `ud/`, extensions-dir `ext/`, `config.yaml`, `server.log`. */
  stateDir: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  process: ChildProcess;
  /** A `vscode-remote://` URI for a path on this machine, as the workbench page must use. */
  remoteUri(p: string): string;
  /** The workbench URL opening `folder`, with an optional test `payload`. */
  workbenchUrl(folder: string, payload?: Array<[string, string]>): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** State folder; a fresh temp dir when omitted. Its `ext/` is the extensions dir. */
  stateDir?: string;
  /** User settings written to `ud/User/settings.json` (merged over test defaults). */
  settings?: Record<string, unknown>;
  /** Extra environment for the server (the extension host inherits it). */
  env?: NodeJS.ProcessEnv;
  /** Extra code-server arguments, e.g. `['--disable-extension', 'vscode.git']`. */
  args?: string[];
  startTimeoutMs?: number;
}

/** Settings for an unattended workbench. */
export const TEST_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.colorTheme': 'Default Dark Modern',
};

/** Creates a private state folder for code-server (user data, extensions, config). */
export function makeStateDir(prefix = 'shardlens-vscode-'): string {
  const dir = path.join(os.tmpdir(), `${prefix}${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Installs a VSIX into `extensionsDir` with code-server's CLI. */
export function installVsix(vsix: string, extensionsDir: string, userDataDir: string): void {
  if (!existsSync(vsix)) throw new Error(`no VSIX at ${vsix}`);
  const r = spawnSync(
    codeServerBin(),
    ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', path.resolve(vsix)],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (r.status !== 0 || !/successfully installed/i.test(r.stdout + r.stderr)) {
    throw new Error(`installing ${vsix} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
}

/** Starts a private code-server on a free 127.0.0.1 port and waits for /healthz. */
export async function startCodeServer(opts: StartOptions = {}): Promise<CodeServer> {
  const bin = codeServerBin();
  if (!existsSync(bin)) throw new Error('code-server is not installed: call ensureCodeServer() first');
  const stateDir = opts.stateDir ?? makeStateDir();
  const userDataDir = path.join(stateDir, 'ud');
  const extensionsDir = path.join(stateDir, 'ext');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...TEST_SETTINGS, ...opts.settings }, null, 2),
  );
  const config = path.join(stateDir, 'config.yaml');
  writeFileSync(config, ''); // never read ~/.config/code-server/config.yaml
  const port = await freePort();
  const authority = `127.0.0.1:${port}`;
  const logFile = path.join(stateDir, 'server.log');
  const out = openSync(logFile, 'a');
  const child = spawn(
    bin,
    [
      '--config',
      config,
      '--auth',
      'none',
      '--bind-addr',
      authority,
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...(opts.args ?? []),
    ],
    { detached: true, stdio: ['ignore', out, out], env: { ...process.env, ...opts.env } },
  );
  closeSync(out);
  let exited = false;
  const exitPromise = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const server: CodeServer = {
    port,
    authority,
    baseUrl: `http://${authority}`,
    stateDir,
    userDataDir,
    extensionsDir,
    logFile,
    process: child,
    remoteUri: (p) => `vscode-remote://${authority}${path.resolve(p)}`,
    workbenchUrl(folder, payload) {
      let url = `http://${authority}/?folder=${encodeURIComponent(path.resolve(folder))}`;
      if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return url;
    },
    async stop() {
      if (!exited && child.pid) {
        killGroup(child.pid, 'SIGTERM');
        const t = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 5000);
        await exitPromise;
        clearTimeout(t);
      }
      // The extension host and language server are in the same group; make sure none outlives us.
      if (child.pid) killGroup(child.pid, 'SIGKILL');
    },
  };
  try {
    await waitForHttp(`${server.baseUrl}/healthz`, opts.startTimeoutMs ?? 60_000, () => !exited);
  } catch (e) {
    await server.stop();
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-3000) : '';
    throw new Error(`${(e as Error).message}\n--- ${logFile} ---\n${tail}`);
  }
  return server;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** Launches Debian's Chromium headless (never a downloaded browser). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: process.env.SHARDLENS_HEADED ? false : true,
    args: CHROMIUM_ARGS,
  });
}

/** Runs `npm run package` and returns the VSIX path. */
export function packageVsix(): string {
  const vsix = path.join(ROOT, 'dist', 'shardlens.vsix');
  const r = spawnSync('npm', ['run', 'package'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    // eslint-disable-next-line no-control-regex -- strip vsce's colours
    const out = `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
    const hint = /"files" property/.test(out)
      ? '\nvsce refuses a package.json "files" list next to the .vscodeignore allowlist: remove "files" ' +
        '(`npm pkg delete files`; the package is private, so npm never publishes it).'
      : '';
    throw new Error(`npm run package failed (exit ${r.status}):\n${out}${hint}`);
  }
  if (!existsSync(vsix)) throw new Error(`npm run package did not produce ${vsix}`);
  return vsix;
}

/** Size of a file in KB, one decimal. */
export function sizeKb(file: string): string {
  return (statSync(file).size / 1024).toFixed(1);
}

// `node --import tsx test/e2e/vscode.ts install` installs code-server (for CI caches and warm-up).
if (require.main === module) {
  const cmd = process.argv[2];
  if (cmd === 'install') {
    ensureCodeServer().then(
      (bin) => console.log(bin),
      (e) => {
        console.error(e instanceof Error ? e.message : e);
        process.exit(1);
      },
    );
  } else {
    console.error('usage: node --import tsx test/e2e/vscode.ts install');
    process.exit(2);
  }
}

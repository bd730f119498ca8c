// Runs the extension-host suite (out/test/extension, built by build.mjs) inside a real VS Code:
// a private code-server opened in Chromium with a `payload` URL that carries
// extensionDevelopmentPath (this repository) and extensionTestsPath. The workbench calls
// `codeAutomationExit(code)` when the suite ends: 0 when run() resolved, 1 when it threw.
// Exit code: the suite's (0 or 1); 2 when the harness failed; 3 on timeout.
//
//   npm run test:extension        (builds the extension and the suite first)
//   SHARDLENS_TEST_GREP=hover npm run test:extension
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ROOT, ensureCodeServer, launchChromium, startCodeServer, type CodeServer } from '../e2e/vscode';
import type { SuiteResult } from './index';

const TESTS = path.join(ROOT, 'out', 'test', 'extension');
const ARTIFACTS = path.join(ROOT, 'test-output', 'extension');
const TIMEOUT_MS = Number(process.env.SHARDLENS_TEST_TIMEOUT_TOTAL_MS ?? 300_000);

async function main(): Promise<number> {
  const t0 = Date.now();
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  for (const [f, how] of [
    [path.join(ROOT, 'dist', 'extension.js'), 'npm run build'],
    [path.join(ROOT, 'dist', 'server.js'), 'npm run build'],
    [path.join(TESTS, 'index.js'), 'node test/extension/build.mjs'],
  ]) {
    if (!existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing: run \`${how}\` first`);
  }
  await ensureCodeServer();

  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  const resultFile = path.join(ARTIFACTS, 'result.json');
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'shardlens-ext-ws-'));
  cpSync(path.join(ROOT, 'examples'), workspace, { recursive: true });

  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let code: number;
  try {
    server = await startCodeServer({ env: { SHARDLENS_TEST_RESULT: resultFile } });
    console.log(`code-server ${server.baseUrl} up after ${secs()}; workspace ${workspace}`);
    const payload: Array<[string, string]> = [
      ['extensionDevelopmentPath', server.remoteUri(ROOT)],
      ['extensionTestsPath', server.remoteUri(path.join(TESTS, 'index'))],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    browser = await launchChromium();
    const page = await browser.newPage();
    page.on('console', (m) => {
      const noise = /open-vsx\.org|ERR_NAME_NOT_RESOLVED|status of 404|extension test\(s\) failed/;
      if (process.env.SHARDLENS_TEST_VERBOSE || (m.type() === 'error' && !noise.test(m.text()))) {
        console.log(`[page ${m.type()}] ${m.text()}`);
      }
    });
    const exited = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (c: number) => resolve(Number(c)));
    });
    await page.goto(server.workbenchUrl(workspace, payload));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS)));
    const r = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (r === 'timeout') {
      console.error(`the suite did not finish within ${TIMEOUT_MS / 1000} s`);
      await page.screenshot({ path: path.join(ARTIFACTS, 'timeout.png') }).catch(() => undefined);
      code = 3;
    } else {
      code = r;
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (server) {
      cpSync(server.logFile, path.join(ARTIFACTS, 'code-server.log'));
      copyExtensionLogs(server.userDataDir);
      rmSync(server.stateDir, { recursive: true, force: true });
    }
    rmSync(workspace, { recursive: true, force: true });
  }

  const result = existsSync(resultFile) ? (JSON.parse(readFileSync(resultFile, 'utf8')) as SuiteResult) : undefined;
  if (!result) {
    console.error(`no result file: the suite did not start (see ${path.relative(ROOT, ARTIFACTS)}/code-server.log)`);
    return code === 0 ? 2 : code;
  }
  console.log(`\nShardLens extension-host suite in VS Code ${result.vscode} (code-server)`);
  for (const p of result.passes) console.log(`  ✔ ${p.title} (${p.ms} ms)`);
  for (const p of result.pending) console.log(`  - ${p} (skipped)`);
  for (const f of result.failures) console.log(`  ✘ ${f.title}\n      ${f.error.split('\n').join('\n      ')}`);
  console.log(
    `\n${result.passes.length} passing, ${result.failures.length} failing, ${result.pending.length} skipped; ` +
      `codeAutomationExit(${code}) after ${secs()}`,
  );
  // The workbench's verdict and the result file must agree.
  if (code === 0 && (result.failures.length > 0 || !result.end)) return 1;
  return code;
}

/** Keeps the extension host's logs (ShardLens output channel included) as artifacts. */
function copyExtensionLogs(userDataDir: string): void {
  const logs = path.join(userDataDir, 'logs');
  if (!existsSync(logs)) return;
  cpSync(logs, path.join(ARTIFACTS, 'logs'), { recursive: true });
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);

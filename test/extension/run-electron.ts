// Runs the same extension-host suite in desktop VS Code with @vscode/test-electron, which
// downloads VS Code (version `SHARDLENS_VSCODE_VERSION`, default 1.100.3 — the version
// code-server 4.100.3 embeds) into .vscode-test/. For machines that can reach
// update.code.visualstudio.com; on these build machines use run-code-server.ts instead.
//
//   npm run build && node test/extension/build.mjs && node --import tsx test/extension/run-electron.ts
// On a headless Linux box, wrap it in `xvfb-run -a`.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const ROOT = path.resolve(__dirname, '..', '..');
const TESTS = path.join(ROOT, 'out', 'test', 'extension');

async function main(): Promise<number> {
  if (!existsSync(path.join(TESTS, 'index.js'))) throw new Error('run `node test/extension/build.mjs` first');
  if (!existsSync(path.join(ROOT, 'dist', 'extension.js'))) throw new Error('run `npm run build` first');
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'shardlens-ext-ws-'));
  cpSync(path.join(ROOT, 'examples'), workspace, { recursive: true });
  const resultFile = path.join(ROOT, 'test-output', 'extension', 'result-electron.json');
  const version = process.env.SHARDLENS_VSCODE_VERSION ?? '1.100.3';
  let vscodeExecutablePath: string;
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode(version);
  } catch (e) {
    rmSync(workspace, { recursive: true, force: true });
    throw new Error(
      `cannot download VS Code ${version} (${e instanceof Error ? e.message : String(e)}); ` +
        'without internet access run the same suite in code-server: npm run test:extension',
    );
  }
  try {
    // runTests resolves with the exit code when the suite passed and rejects when it failed.
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: path.join(TESTS, 'index'),
      extensionTestsEnv: { SHARDLENS_TEST_RESULT: resultFile },
      launchArgs: [
        workspace,
        '--disable-extensions', // other installed extensions; the one under development still loads
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
    console.log(`extension-host suite passed (results in ${path.relative(ROOT, resultFile)})`);
    return 0;
  } catch (e) {
    console.error(`extension-host suite failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);

// The extension-host test entry (`extensionTestsPath`): VS Code loads this module inside
// the extension host, with the extension under development loaded, and awaits `run()`.
// It runs every bundled `suite/*.test.js` with Mocha and rejects when one fails, which
// VS Code turns into exit code 1 (desktop) or `codeAutomationExit(1)` (code-server).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export interface SuiteResult {
  start: string;
  end?: string;
  vscode: string;
  /** The tests Mocha loaded from the suite and meant to run (after any grep). */
  declared: number;
  passes: Array<{ title: string; ms: number }>;
  failures: Array<{ title: string; error: string }>;
  pending: string[];
}

export async function run(): Promise<void> {
  const out = process.env.SHARDLENS_TEST_RESULT ?? path.join(__dirname, 'result.json');
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: Number(process.env.SHARDLENS_TEST_TIMEOUT_MS ?? 60_000),
    color: false,
    reporter: 'spec',
    grep: process.env.SHARDLENS_TEST_GREP || undefined,
  });
  const dir = path.join(__dirname, 'suite');
  for (const f of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(dir, f));

  const result: SuiteResult = {
    start: new Date().toISOString(),
    vscode: vscode.version,
    declared: 0,
    passes: [],
    failures: [],
    pending: [],
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const write = () => fs.writeFileSync(out, JSON.stringify(result, null, 2));
  write();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    result.declared = runner.total;
    runner.on('pass', (t) => {
      result.passes.push({ title: t.fullTitle(), ms: t.duration ?? 0 });
      write();
    });
    runner.on('fail', (t, err: Error) => {
      result.failures.push({ title: t.fullTitle(), error: String(err?.stack ?? err) });
      write();
    });
    runner.on('pending', (t) => result.pending.push(t.fullTitle()));
  });
  result.end = new Date().toISOString();
  write();
  if (result.failures.length) throw new Error(`${result.failures.length} extension test(s) failed`);
  if (!result.passes.length) throw new Error('no extension test ran');
}

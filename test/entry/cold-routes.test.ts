/**
 * Routes the team marks cold in the project config (`entryPoints.cold: ["* /admin/**"]`):
 * how often an admin page or a back-office route is called is not in the code, so the
 * project says it. A hot-key finding reached only from marked routes is info and says
 * which and where; a key also reached from an unmarked route stays as it was; a method
 * names only its own routes. The fixture (test/fixtures/entry/flask-admin) is a Flask
 * shop whose admin views sit behind a role decorator beside public views, and an Express
 * back office behind a staff middleware. Run through the CLI (the config read from disk)
 * and through the language server's settings (`withProjectConfig` → `toDiagnostic`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { DEFAULT_SETTINGS } from '../../protocol/src/settings';
import { withProjectConfig } from '../../server/src/config/merge';
import { configFor } from '../../server/src/config/project-config';
import { toDiagnostic } from '../../server/src/lsp/diagnostics';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import { FIXTURES, findingsOf, fixture } from './helpers';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'shardlens.js');
const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The fixture copied with `config` as its shardlens.config.json. */
function withConfig(config: unknown): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cold-routes-')));
  dirs.push(dir);
  fs.cpSync(path.join(FIXTURES, 'flask-admin'), dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'shardlens.config.json'), JSON.stringify(config));
  return dir;
}

/** `file:line severity` of each SL001 finding of a CLI check, and the messages by the same id. */
function check(dir: string): { found: string[]; message: (id: string) => string } {
  const r = spawnSync(process.execPath, [BIN, 'check', '.', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  const findings = (
    JSON.parse(r.stdout) as {
      findings: Array<{ file: string; line: number; rule: string; severity: string; message: string }>;
    }
  ).findings.filter((f) => f.rule === 'SL001');
  const id = (f: { file: string; line: number }) => `${f.file}:${f.line}`;
  return {
    found: findings.map((f) => `${id(f)} ${f.severity}`).sort(),
    message: (want) => findings.find((f) => id(f) === want)?.message ?? '',
  };
}

test('CLI: keys reached only from routes the config marks cold are info; a public route keeps its key hot', () => {
  const { found, message } = check(withConfig({ entryPoints: { cold: ['* /admin/**', '* /backoffice/**'] } }));
  assert.deepEqual(found, [
    'shop/store.py:13 error', // BANNER, read by GET /home
    'shop/store.py:17 info', // FEATURED, read by GET /admin/featured only
    'shop/store.py:21 info', // FEATURED, written by PUT /admin/featured only
    'web/server.ts:17 info',
    'web/server.ts:25 info',
  ]);
  assert.match(
    message('shop/store.py:21'),
    /Cold path: reached only from PUT \/admin\/featured, which shardlens\.config\.json marks cold \(entryPoints\.cold\)\.$/,
  );
  assert.match(message('shop/store.py:13'), /Reached from GET \/home/);
  assert.doesNotMatch(message('shop/store.py:13'), /Cold path/);
});

test('CLI: a method names only its own routes, and without the config every key is as hot as before', () => {
  const { found } = check(withConfig({ entryPoints: { cold: ['PUT /admin/**', 'GET /backoffice/*'] } }));
  assert.deepEqual(found, [
    'shop/store.py:13 error',
    'shop/store.py:17 error', // GET /admin/featured is not PUT
    'shop/store.py:21 info',
    'web/server.ts:17 info', // GET /backoffice/report
    'web/server.ts:25 error', // POST /backoffice/report/refresh: neither GET nor one segment
  ]);
  assert.deepEqual(check(withConfig({ entryPoints: { cold: ['tools/**'] } })).found, [
    'shop/store.py:13 error',
    'shop/store.py:17 error',
    'shop/store.py:21 error',
    'web/server.ts:17 error',
    'web/server.ts:25 error',
  ]);
});

test('language server: the nearest config marks the routes for the diagnostics too', async () => {
  const dir = withConfig({ entryPoints: { cold: ['* /admin/**'] } });
  const settings = withProjectConfig(DEFAULT_SETTINGS, configFor(path.join(dir, 'shop', 'store.py')));
  assert.deepEqual(settings.coldEntries?.patterns, ['* /admin/**']);
  const findings = await findingsOf(fixture('flask-admin'));
  const severityAt = (at: string) =>
    findings
      .filter((f) => f.rule === 'SL001' && f.at === at)
      .map((f) => toDiagnostic(f, settings)?.severity)
      .join();
  assert.equal(severityAt('shop/store.py:21'), String(DiagnosticSeverity.Information));
  assert.equal(severityAt('shop/store.py:13'), String(DiagnosticSeverity.Error));
  assert.equal(severityAt('web/server.ts:17'), String(DiagnosticSeverity.Error), '/backoffice is not marked here');
  // The hover lists each entry point and says which the config marks.
  const hover = (at: string) => {
    const f = findings.find((x) => x.rule === 'SL001' && x.at === at)!;
    return hoverMarkdown(f.access, findings, settings).value;
  };
  assert.match(hover('shop/store.py:21'), /`PUT \/admin\/featured` \([^)]*, cold in shardlens\\?\.config\\?\.json\)/);
  assert.doesNotMatch(hover('shop/store.py:13'), /cold in/);
});

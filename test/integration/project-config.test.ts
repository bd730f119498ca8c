import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT, startServer, until, type Session } from './lsp-client';

/**
 * The project config, read by the CLI (a real process over temp folders) and by the
 * language server alike: nearest file wins, exclusions, entry points, rule severities,
 * key facts, and a malformed file reported at its line and column with defaults used.
 */

const BIN = path.join(ROOT, 'bin', 'shardlens.js');

const HANDLER = `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from({} as never);

export async function handler(event: { playerId: string; status: string }) {
  await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: 'LEADERBOARD#GLOBAL', SK: event.playerId } }));
  await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: \`STATUS#\${event.status}\`, SK: event.playerId } }));
}
`;

const folders: string[] = [];
function project(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-config-')));
  folders.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}
let session: Session | undefined;
after(() => {
  session?.stop();
  for (const d of folders) fs.rmSync(d, { recursive: true, force: true });
});

function check(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'check', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const found = (stdout: string) =>
  (
    JSON.parse(stdout) as { findings: Array<{ file: string; rule: string; severity: string; message: string }> }
  ).findings.map((f) => `${f.file} ${f.rule} ${f.severity}`);

test('CLI: the nearest config of each package applies to its files, the defaults where there is none', () => {
  const dir = project({
    'packages/a/src/h.ts': HANDLER,
    'packages/a/tools/backfill.ts': HANDLER,
    'packages/a/legacy/old.ts': HANDLER,
    'packages/a/shardlens.config.json': JSON.stringify({
      rules: { SL003: 'off' },
      exclude: ['legacy/**'],
      entryPoints: { cold: ['tools/**'] },
      keys: { 'LEADERBOARD#GLOBAL': { peakWritesPerSecond: 200, reason: 'one tournament at a time' } },
    }),
    'packages/b/src/h.ts': HANDLER,
    'packages/b/package.json': JSON.stringify({ name: 'b', shardlens: { rules: { SL001: 'warning' } } }),
    'packages/c/src/h.ts': HANDLER,
    'packages/c/pyproject.toml': '[tool.shardlens]\ncontexts = ["test"]\n',
    'packages/d/src/h.ts': HANDLER,
  });
  const r = check(dir, '.', '--format', 'json');
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(found(r.stdout).sort(), [
    'packages/a/src/h.ts SL001 info',
    'packages/a/tools/backfill.ts SL001 info',
    'packages/b/src/h.ts SL001 warning',
    'packages/b/src/h.ts SL003 warning',
    'packages/d/src/h.ts SL001 error',
    'packages/d/src/h.ts SL003 warning',
  ]);
  const a = (JSON.parse(r.stdout) as { findings: Array<{ file: string; message: string }> }).findings;
  assert.match(
    a.find((f) => f.file === 'packages/a/src/h.ts')!.message,
    /under 200 writes\/s \(one tournament at a time\)/,
  );
  assert.match(a.find((f) => f.file === 'packages/a/tools/backfill.ts')!.message, /Context: a script/);
  assert.match(r.stderr, /left out 1 files the project config excludes/);

  const printed = JSON.parse(check(dir, '--print-config', 'packages/b/src/h.ts').stdout);
  assert.equal(printed.configFile, 'packages/b/package.json');
  assert.equal(printed.source, 'package.json "shardlens"');
  assert.deepEqual(printed.config.rules, { SL001: 'warning' });
  const legacy = JSON.parse(check(dir, '--print-config', 'packages/a/legacy/old.ts').stdout);
  assert.equal(legacy.excluded, true);
  assert.equal(JSON.parse(check(dir, '--print-config', 'packages/d/src/h.ts').stdout).configFile, null);
});

test('CLI: a malformed config is one stderr line with its line and column, and the defaults apply', () => {
  const dir = project({ 'src/h.ts': HANDLER, 'shardlens.config.json': '{\n  "rules": { "SL001": "off", }\n}\n' });
  const r = check(dir, '.', '--format', 'json');
  assert.match(
    r.stderr,
    /^shardlens: shardlens\.config\.json:2:30: expected a property name in double quotes \(the default is used instead\)$/m,
  );
  assert.deepEqual(found(r.stdout).sort(), ['src/h.ts SL001 error', 'src/h.ts SL003 warning']);
  assert.equal(r.code, 1);
});

test('language server: config problems are diagnostics on the file, and a changed config re-judges', async () => {
  const dir = project({ 'src/h.ts': HANDLER, 'shardlens.config.json': '{ "rules": { "SL001": "loud" } }\n' });
  session = startServer(dir);
  await session.initialize();
  const s = session;
  const uri = (rel: string) => pathToFileURL(path.join(dir, rel)).toString();
  const codes = () => (s.diagnostics.get(uri('src/h.ts')) ?? []).map((d) => `${d.code} ${d.severity}`).sort();
  await until('the handler findings', () => codes().length === 2, codes);
  assert.deepEqual(codes(), ['SL001 1', 'SL003 2']);
  const onConfig = await until('the config diagnostic', () => s.diagnostics.get(uri('shardlens.config.json'))?.[0]);
  assert.deepEqual(onConfig.range.start, { line: 0, character: 22 });
  assert.match(String(onConfig.message), /SL001 must be one of error, warning, info, off/);

  fs.writeFileSync(path.join(dir, 'shardlens.config.json'), '{ "rules": { "SL001": "off" } }\n');
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: uri('shardlens.config.json'), type: 2 }],
  });
  await until('SL001 to be off', () => codes().join() === 'SL003 2', codes);
  await until('the config diagnostic to clear', () => s.diagnostics.get(uri('shardlens.config.json'))?.length === 0);
});

test('CLI --cache: a changed project config is part of the cache key, so entry points apply at once', () => {
  const dir = project({
    'tools/load.ts': HANDLER,
    'shardlens.config.json': JSON.stringify({ rules: { SL003: 'off' } }),
  });
  const cached = () => found(check(dir, '.', '--cache', '--format', 'json').stdout);
  assert.deepEqual(cached(), ['tools/load.ts SL001 error']);
  assert.deepEqual(cached(), ['tools/load.ts SL001 error'], 'the same from the cache');
  fs.writeFileSync(
    path.join(dir, 'shardlens.config.json'),
    JSON.stringify({ rules: { SL003: 'off' }, entryPoints: { cold: ['tools/**'] } }),
  );
  assert.deepEqual(cached(), ['tools/load.ts SL001 info']);
});

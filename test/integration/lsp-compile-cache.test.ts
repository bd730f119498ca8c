import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { ROOT, startServer, until, type Session } from './lsp-client';

/**
 * The server's entry (dist/server.js) loads its bundle through V8's code cache, written
 * when the server exits as the client ends it (`shutdown`, then `exit`): the next start
 * takes the compiled code, and publishes what a start without it publishes.
 */

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = (name: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `shardlens-lsp-cc-${name}-`));
  dirs.push(d);
  return d;
};

/** One start on `folder` with `tmpdir` as its TMPDIR, ended as a client ends it; its sorted diagnostics. */
async function start(folder: string, tmpdir: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const s: Session = startServer(folder, {
    env: { ...process.env, SHARDLENS_NO_COMPILE_CACHE: '', TMPDIR: tmpdir, ...env },
  });
  try {
    await s.initialize({ initializationOptions: { cacheDir: tmp('storage') } });
    await until('the index done', () => s.statuses.some((x) => !x.indexing));
    await until('diagnostics', () => s.diagnostics.size > 0);
    const diagnostics = JSON.stringify([...s.diagnostics].sort(([a], [b]) => a.localeCompare(b)));
    await s.conn.sendRequest('shutdown');
    void s.conn.sendNotification('exit');
    await until('the server gone', () => s.exited);
    return diagnostics;
  } finally {
    s.stop();
  }
}

const codeCaches = (tmpdir: string) => {
  const dir = fs.readdirSync(tmpdir).find((d) => d.startsWith('shardlens-compile-'));
  return dir ? fs.readdirSync(path.join(tmpdir, dir)).map((f) => path.join(tmpdir, dir, f)) : [];
};

test('the server writes its code cache at exit, and starts from it with the same diagnostics', async () => {
  const folder = tmp('ws');
  fs.cpSync(path.join(ROOT, 'examples'), folder, { recursive: true });
  const tmpdir = tmp('tmp');
  const plain = await start(folder, tmpdir, { SHARDLENS_NO_COMPILE_CACHE: '1' });
  assert.deepEqual(codeCaches(tmpdir), [], 'turned off: nothing written');
  const first = await start(folder, tmpdir);
  const files = codeCaches(tmpdir);
  assert.equal(files.length, 1, files.join(', '));
  assert.match(path.basename(files[0]), /^server-main\.js-[0-9a-f]+\.bin$/);
  assert.ok(fs.statSync(files[0]).size > 100_000, 'the compiled code of the bundle');
  const written = fs.statSync(files[0]).mtimeMs;
  const second = await start(folder, tmpdir);
  assert.equal(fs.statSync(files[0]).mtimeMs, written, 'a cache V8 took is not written again');
  assert.ok(plain.includes('BOARD#global'));
  assert.equal(first, plain);
  assert.equal(second, plain);
});

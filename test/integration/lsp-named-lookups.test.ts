import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT, scratch, until, type Session } from './lsp-client';

/**
 * A service takes TypeDORM's default connection with `getEntityManager()`; the app's entry
 * module, which no service imports, makes it. The language server must judge the service
 * again when that module is created or deleted (its table named, then not), and a server
 * starting from its analysis cache must not restore the service's older analysis.
 */

const { started, tmp } = scratch('shardlens-lsp-lookups');

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'libraries', 'typedorm-bootstrap-later');
/** The app's entry module, created and deleted below (kept beside the fixture's sources, not in them). */
const BOOTSTRAP = fs.readFileSync(path.join(FIXTURE, 'bootstrap.ts.txt'), 'utf8');

function workspace(name: string): string {
  const folder = tmp(name);
  fs.cpSync(FIXTURE, folder, { recursive: true });
  return folder;
}

async function indexed(folder: string, storage?: string): Promise<Session> {
  const s = started(folder);
  await s.initialize(storage ? { initializationOptions: { cacheDir: storage } } : {});
  await until('the index done', () => s.statuses.some((x) => !x.indexing) && s.logs.some((l) => /indexed/.test(l)));
  return s;
}

/** The SL001 messages published for the service, once `done` holds of them (or after 20 s). */
async function serviceFindings(s: Session, folder: string, done: (m: string[]) => boolean): Promise<string[]> {
  const uri = pathToFileURL(path.join(folder, 'src', 'services', 'lead-service.ts')).toString();
  const messages = () => (s.diagnostics.get(uri) ?? []).filter((d) => d.code === 'SL001').map((d) => String(d.message));
  for (const end = Date.now() + 20_000; !done(messages()) && Date.now() < end;)
    await new Promise((r) => setTimeout(r, 100));
  return messages();
}

const namesTable = (m: string[]) => m.length === 2 && m.every((x) => x.includes('of table "crm-leads"'));
const namesNone = (m: string[]) => m.length === 2 && m.every((x) => x.includes('of this table'));

test('the entry module making the connection, created and deleted, re-judges the service', async () => {
  const folder = workspace('live');
  const s = await indexed(folder);
  assert.ok(namesNone(await serviceFindings(s, folder, namesNone)));

  const file = path.join(folder, 'src', 'index.ts');
  fs.writeFileSync(file, BOOTSTRAP);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(file).toString(), type: 1 }],
  });
  const made = await serviceFindings(s, folder, namesTable);
  assert.ok(namesTable(made), JSON.stringify(made));

  fs.rmSync(file);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(file).toString(), type: 3 }],
  });
  const gone = await serviceFindings(s, folder, namesNone);
  assert.ok(namesNone(gone), JSON.stringify(gone));
  assert.deepEqual(s.errors, []);
});

test('a start from the cache after the entry module was added publishes what a start without one does', async () => {
  const folder = workspace('restart');
  const storage = tmp('storage');
  const cold = await indexed(folder, storage);
  assert.ok(namesNone(await serviceFindings(cold, folder, namesNone)));
  await until('the cache written', () =>
    fs.readdirSync(storage, { recursive: true }).find((f) => String(f).endsWith('server.json')),
  );
  cold.stop();

  fs.writeFileSync(path.join(folder, 'src', 'index.ts'), BOOTSTRAP);
  const warm = await indexed(folder, storage);
  const fresh = await indexed(folder);
  const restored = await serviceFindings(warm, folder, namesTable);
  assert.ok(namesTable(restored), JSON.stringify(restored));
  assert.deepEqual(restored, await serviceFindings(fresh, folder, namesTable));
  const hits = warm.logs.find((l) => /indexed \d+ files/.test(l))!.match(/indexed (\d+) files, (\d+) from/)!;
  // The added module, the service and the routes calling it (through the service's summary) analysed;
  // the entity and the table restored.
  assert.equal(Number(hits[2]), Number(hits[1]) - 3, hits[0]);
});

test('the Nest feature module registering a model, deleted and created again, re-judges the service', async () => {
  const folder = tmp('nest');
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'libraries', 'nestjs-dynamoose'), folder, { recursive: true });
  const s = await indexed(folder);
  const uri = pathToFileURL(path.join(folder, 'src', 'loans', 'loans.service.ts')).toString();
  const outHot = () =>
    (s.diagnostics.get(uri) ?? []).some((d) => d.code === 'SL001' && String(d.message).includes('"OUT" on index'));
  await until('the constant state key reported', outHot);

  const file = path.join(folder, 'src', 'loans', 'loans.module.ts');
  const text = fs.readFileSync(file, 'utf8');
  fs.rmSync(file);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(file).toString(), type: 3 }],
  });
  // Without the registration the service's model, its table and its indexes are unknown.
  await until('the finding gone with the model', () => !outHot());

  fs.writeFileSync(file, text);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(file).toString(), type: 1 }],
  });
  await until('the finding back with the model', outHot);
  assert.deepEqual(s.errors, []);
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT, scratch, until } from './lsp-client';
import { writeServices } from '../unit/services-workspace';

/**
 * The language server starts from its analysis cache: a second start on an unchanged
 * workspace restores every file and publishes exactly the first start's diagnostics; a
 * file changed on disk in between is analysed again, with the files that read it.
 */

const { started, tmp } = scratch('shardlens-lsp-cache');

/** Starts a server on `folder` with `storage` as its cache folder; resolves once the index is done and logged. */
async function indexed(folder: string, storage: string) {
  const s = started(folder);
  await s.initialize({ initializationOptions: { cacheDir: storage } });
  const line = await until(
    'the index line',
    () => s.logs.find((l) => /indexed \d+ files/.test(l)),
    () => s.logs,
  );
  await until('the index done', () => s.statuses.some((x) => !x.indexing));
  const [, files, hits] = line.match(/indexed (\d+) files, (\d+) from the analysis cache/)!;
  const [, restored = '0', templates = '0'] = line.match(/; (\d+) of (\d+) infrastructure files from it/) ?? [];
  const diagnostics = JSON.stringify([...s.diagnostics].sort(([a], [b]) => a.localeCompare(b)));
  return {
    s,
    files: Number(files),
    hits: Number(hits),
    diagnostics,
    restored: Number(restored),
    templates: Number(templates),
  };
}

test('a second start restores every file from the cache and publishes the same diagnostics', async () => {
  const folder = tmp('ws');
  fs.cpSync(path.join(ROOT, 'examples'), folder, { recursive: true });
  const storage = tmp('storage');
  const cold = await indexed(folder, storage);
  assert.equal(cold.hits, 0);
  assert.ok(cold.files >= 6);
  // Written after the diagnostics went out: wait for it, then stop.
  const cacheFile = () => fs.readdirSync(storage, { recursive: true }).find((f) => String(f).endsWith('server.json'));
  await until('the cache written', cacheFile);
  cold.s.stop();
  const warm = await indexed(folder, storage);
  assert.equal(warm.hits, warm.files);
  assert.equal(warm.diagnostics, cold.diagnostics);
  assert.ok(warm.diagnostics.includes('BOARD#global'));
  warm.s.stop();
  // Nothing of the cache in the workspace folder itself.
  assert.ok(!fs.existsSync(path.join(folder, '.shardlens-cache')));

  // A sharded writer edited on disk to a constant key: its finding appears at the next start.
  const scores = path.join(folder, 'leaderboard', 'src', 'scores.ts');
  const text = fs.readFileSync(scores, 'utf8');
  fs.writeFileSync(scores, text.replace(/'FEED#recent'/, `'FEED#latest'`));
  const edited = await indexed(folder, storage);
  assert.equal(edited.hits, edited.files - 1);
  assert.ok(edited.diagnostics.includes('FEED#latest'));
  assert.ok(!edited.diagnostics.includes('FEED#recent'));
});

test('a second start restores the templates from the cache and publishes the same diagnostics', async () => {
  const folder = tmp('infra');
  for (const f of ['sam-app', 'orders-included'])
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'infra', f), path.join(folder, f), { recursive: true });
  const storage = tmp('infra-storage');
  const cold = await indexed(folder, storage);
  // The template, the Serverless service and the resources file it includes.
  assert.equal(cold.restored, 0);
  assert.ok(cold.templates >= 2, `${cold.templates} infrastructure files read`);
  // Findings that need the templates: a table named by them, an entry point they declare, SL013 on the definition.
  assert.ok(cold.diagnostics.includes('{$Stage}-poll-votes'));
  assert.ok(cold.diagnostics.includes('template.yaml'));
  const cacheFile = () => fs.readdirSync(storage, { recursive: true }).find((f) => String(f).endsWith('server.json'));
  await until('the cache written', cacheFile);
  cold.s.stop();
  const warm = await indexed(folder, storage);
  assert.equal(warm.templates, cold.templates);
  assert.equal(warm.restored, warm.templates);
  assert.equal(warm.hits, warm.files);
  assert.equal(warm.diagnostics, cold.diagnostics);
  warm.s.stop();

  // A template edited on disk is read again, and what it names now shows.
  const template = path.join(folder, 'sam-app', 'template.yaml');
  fs.writeFileSync(template, fs.readFileSync(template, 'utf8').replaceAll('poll-votes', 'ballots'));
  const edited = await indexed(folder, storage);
  assert.equal(edited.restored, edited.templates - 1);
  assert.ok(edited.diagnostics.includes('{$Stage}-ballots'));
  assert.ok(!edited.diagnostics.includes('{$Stage}-poll-votes'));
});

test('a start after a module was added that an import now names analyses the importer again', async () => {
  // `../league` names src/league/index.ts until src/league.ts is added beside the folder; the
  // importer's text and the module it read are unchanged, only resolving the import again tells.
  const folder = tmp('added');
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), text);
  };
  put('src/league/index.ts', `export const BOARD_KEY = 'LEAGUE#global';\n`);
  put(
    'src/handlers/submit.ts',
    [
      `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
      `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';`,
      `import { BOARD_KEY } from '../league';`,
      ``,
      `const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
      ``,
      `export async function submit(score: number): Promise<void> {`,
      `  await db.send(new PutCommand({ TableName: 'scores', Item: { pk: BOARD_KEY, score } }));`,
      `}`,
      ``,
    ].join('\n'),
  );
  const storage = tmp('added-storage');
  const cold = await indexed(folder, storage);
  assert.ok(cold.diagnostics.includes('LEAGUE#global'), cold.diagnostics);
  await until('the cache written', () =>
    fs.readdirSync(storage, { recursive: true }).find((f) => String(f).endsWith('server.json')),
  );
  cold.s.stop();
  put('src/league.ts', `export const BOARD_KEY = 'LEAGUE#weekly';\n`);
  const warm = await indexed(folder, storage);
  const fresh = await indexed(folder, tmp('added-fresh'));
  // The module added and its importer analysed, the folder's index restored.
  assert.equal(warm.hits, warm.files - 2);
  assert.ok(warm.diagnostics.includes('LEAGUE#weekly'), warm.diagnostics);
  assert.equal(warm.diagnostics, fresh.diagnostics);
  warm.s.stop();
  fresh.s.stop();
});

test('a start after a comment was added to a module others read keeps the importers from the cache; a changed constant does not', async () => {
  const folder = tmp('reads');
  writeServices(folder);
  const storage = tmp('reads-storage');
  const written = () => fs.readdirSync(storage, { recursive: true }).find((f) => String(f).endsWith('server.json'));
  const cold = await indexed(folder, storage);
  assert.ok(cold.diagnostics.includes('STATUS#PENDING'), cold.diagnostics);
  await until('the cache written', written);
  cold.s.stop();
  const tables = path.join(folder, 'src', 'config', 'tables.ts');
  const text = fs.readFileSync(tables, 'utf8');
  fs.writeFileSync(tables, `${text}// Shard counts are reviewed with each capacity plan.\n`);
  const commented = await indexed(folder, storage);
  // Only tables.ts is analysed: the three files reading it ask what they read, and it answers the same.
  assert.equal(commented.hits, commented.files - 1);
  assert.equal(commented.diagnostics, cold.diagnostics);
  commented.s.stop();
  fs.writeFileSync(tables, text.replace("STATUS_PENDING = 'PENDING'", "STATUS_PENDING = 'OPEN'"));
  const changed = await indexed(folder, storage);
  const fresh = await indexed(folder, tmp('reads-fresh'));
  assert.ok(changed.diagnostics.includes('STATUS#OPEN'), changed.diagnostics);
  assert.equal(changed.diagnostics, fresh.diagnostics);
  assert.ok(changed.hits < changed.files - 1);
  changed.s.stop();
  fresh.s.stop();
});

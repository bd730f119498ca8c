// The cache fix is refused where a cached value would be written back over newer ones:
// a handler that reads a settings item or a stats item through one repository method and
// writes it through another (docs/fixes.md, "Read-hot keys: the cache fix"). The read and
// the write are in different functions, often different files; the function that calls
// both is what makes them a read-modify-write.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { collectFiles, initParsers, WorkspaceIndex } from '../../server/src/engine';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { fixtureCopier } from './helpers-write';

const copy = fixtureCopier(path.join(__dirname, 'fixtures', 'cache'));

/** Every file below `dir` indexed as `shardlens check` indexes it; the titles each read's light bulb offers. */
async function readTitles(dir: string): Promise<Map<string, string[]>> {
  await initParsers();
  const index = new WorkspaceIndex({ root: dir });
  index.analyzeAll(collectFiles([dir]).files);
  const ctx = fixContextOf(index);
  const out = new Map<string, string[]>();
  for (const f of index.results().flatMap((r) => r.findings)) {
    if (f.access.kind !== 'read' || f.severity === 'info') continue;
    const at = `${path.relative(dir, f.file)}:${f.span.startLine + 1}`;
    out.set(
      at,
      allFixes(f, ctx).map((a) => a.title),
    );
  }
  return out;
}

const blocked = (write: string, meet: string, calls: string) =>
  `No cache fix: the PutItem at ${write} writes the item back in ${meet}, which calls ${calls}: a value read up to 30 s old would be written over newer ones`;

test('TypeScript: a handler that loads the stats through the repository and stores them plus one refuses the cache fix on the load', async () => {
  const dir = copy('rmw-repository-ts');
  const titles = await readTitles(dir);
  assert.deepEqual(Object.fromEntries(titles), {
    'src/repositories/stats-repository.ts:17': [blocked('line 22', 'handler (track-visit.ts:7)', 'load and store')],
  });
  // The same tree without the write back: the load is cached.
  const handler = path.join(dir, 'src', 'handlers', 'track-visit.ts');
  fs.writeFileSync(handler, fs.readFileSync(handler, 'utf8').replace(/^\s*await stats\.store\(.*\n/m, ''));
  assert.deepEqual(Object.fromEntries(await readTitles(dir)), {
    'src/repositories/stats-repository.ts:17': [
      "Cache reads of 'SITE#stats' for 30 s (readers may see values up to 30 s old)",
    ],
  });
});

test('Python: a flag toggle that loads the settings and saves them changed refuses the cache fix on load_settings', async () => {
  const dir = copy('rmw-settings-py');
  const titles = await readTitles(dir);
  assert.deepEqual(Object.fromEntries(titles), {
    'app/store/settings.py:9': [
      blocked('line 14', 'lambda_handler (toggle_flag.py:7)', 'load_settings and save_settings'),
    ],
  });
  // A test that saves and loads is not a handler: it does not refuse the fix.
  const tests = path.join(dir, 'tests');
  fs.mkdirSync(tests);
  fs.writeFileSync(
    path.join(tests, 'test_settings.py'),
    [
      'from app.store.settings import load_settings, save_settings',
      '',
      '',
      'def test_round_trip():',
      '    save_settings({"pk": "SETTINGS#global", "flags": {"beta": True}})',
      '    assert load_settings()["flags"] == {"beta": True}',
      '',
    ].join('\n'),
  );
  fs.rmSync(path.join(dir, 'app', 'handlers', 'toggle_flag.py'));
  assert.deepEqual(Object.fromEntries(await readTitles(dir)), {
    'app/store/settings.py:9': ["Cache reads of 'SETTINGS#global' for 30 s (readers may see values up to 30 s old)"],
  });
});

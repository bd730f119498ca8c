import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { Connection } from 'vscode-languageserver';
import { forgetConfigs } from '../../server/src/config/project-config';
import { pathToUri } from '../../server/src/lsp/convert';
import { SettingsStore } from '../../server/src/lsp/settings';

/**
 * A file's settings are its folder's over its nearest project config, merged once per
 * (folder, config) and shared by every file they apply to; asked by path or by URI, the
 * same. A config is told of once per merge, and again after `clear`.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-settings-'));
after(() => {
  forgetConfigs();
  fs.rmSync(root, { recursive: true, force: true });
});

test('files under one config share their settings; a nested config gives its files others', async () => {
  fs.mkdirSync(path.join(root, 'svc', 'api'), { recursive: true });
  fs.writeFileSync(path.join(root, 'shardlens.config.json'), '{ "severity": { "SL001": "warning" } }');
  fs.writeFileSync(path.join(root, 'svc', 'api', 'shardlens.config.json'), '{ "exclude": ["gen/**"] }');
  forgetConfigs();
  const told: Array<string | null> = [];
  const store = new SettingsStore(
    {} as Connection,
    false,
    (loaded) => told.push(loaded.file),
    () => [root],
  );
  const a = path.join(root, 'svc', 'a.ts');
  const b = path.join(root, 'b.ts');
  const nested = path.join(root, 'svc', 'api', 'c.ts');
  const [sa, sb, sUri, sNested] = await Promise.all([
    store.forFile(a),
    store.forFile(b),
    store.get(pathToUri(a)),
    store.forFile(nested),
  ]);
  assert.equal(sa, sb, 'one merge for the files of one config');
  assert.equal(sUri, sa, 'by URI as by path');
  assert.notEqual(sNested, sa);
  assert.deepEqual(told.sort(), [
    path.join(root, 'shardlens.config.json'),
    path.join(root, 'svc', 'api', 'shardlens.config.json'),
  ]);
  store.clear();
  const again = await store.forFile(a);
  assert.notEqual(again, sa, 'merged again after clear');
  assert.equal(told.length, 3);
});

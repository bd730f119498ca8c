import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { engineSourceHash } from '../../scripts/engine-hash.mjs';
import { assertFreshBundle } from './lsp-client';

const ROOT = path.join(__dirname, '..', '..');

/** A copy of the engine's sources in a fresh folder laid out as the project is. */
function copyEngine(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-engine-hash-'));
  fs.cpSync(path.join(ROOT, 'server', 'src', 'engine'), path.join(dir, 'server', 'src', 'engine'), { recursive: true });
  return dir;
}

test('the engine hash follows the sources: same text, same hash; one character changed, another', () => {
  const copy = copyEngine();
  try {
    const original = engineSourceHash(ROOT);
    assert.equal(engineSourceHash(copy), original, 'a copy (new mtimes, new folder) hashes the same');
    const rule = path.join(copy, 'server', 'src', 'engine', 'rules', 'SL001-constant-partition-key.ts');
    fs.appendFileSync(rule, ' ');
    assert.notEqual(engineSourceHash(copy), original, 'an edit to one rule changes it');
    fs.writeFileSync(rule, fs.readFileSync(path.join(ROOT, 'server', 'src', 'engine', 'rules', path.basename(rule))));
    assert.equal(engineSourceHash(copy), original, 'undone, it is the same again');
    fs.renameSync(rule, rule.replace('SL001-', 'SL001-renamed-'));
    assert.notEqual(engineSourceHash(copy), original, 'a renamed file changes it');
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

test('the bundles carry the hash of the sources they were built from, which keys the analysis cache', () => {
  assertFreshBundle();
  const hash = engineSourceHash(ROOT);
  for (const bundle of ['cli.js', 'server-main.js']) {
    const text = fs.readFileSync(path.join(ROOT, 'dist', bundle), 'utf8');
    assert.ok(text.includes(`"${hash}"`), `dist/${bundle} was built from these engine sources`);
  }
});

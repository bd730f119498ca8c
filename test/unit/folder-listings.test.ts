import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { FolderListings } from '../../server/src/engine/workspace/folder-listings';

/**
 * A folder's listing is read once; one a walk already made (`seed`) is taken as it is,
 * so the cache's look for path-alias configs in every folder costs no stat.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-listings-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

test('a seeded folder is answered from its listing; another is read from disk once', () => {
  const seeded = path.join(root, 'seeded');
  const other = path.join(root, 'other');
  for (const dir of [seeded, other]) {
    fs.mkdirSync(path.join(dir, 'tsconfig.json', 'inner'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'jsconfig.json'), '{}');
  }
  const listings = new FolderListings();
  listings.seed(seeded, fs.readdirSync(seeded, { withFileTypes: true }));
  // Gone from disk after the walk listed it: the listing (what the walk saw) answers.
  fs.rmSync(path.join(seeded, 'jsconfig.json'));
  assert.equal(listings.exists(path.join(seeded, 'jsconfig.json')), true);
  // A folder by a config's name is not a config file.
  assert.equal(listings.exists(path.join(seeded, 'tsconfig.json')), false);
  assert.equal(listings.exists(path.join(seeded, 'package.json')), false);
  // Not seeded: read from disk when first asked, then kept.
  assert.equal(listings.exists(path.join(other, 'jsconfig.json')), true);
  fs.rmSync(path.join(other, 'jsconfig.json'));
  assert.equal(listings.exists(path.join(other, 'jsconfig.json')), true);
  listings.forget(path.join(other, 'jsconfig.json'));
  assert.equal(listings.exists(path.join(other, 'jsconfig.json')), false);
});

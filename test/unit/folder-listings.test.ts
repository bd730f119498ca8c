import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { FolderListings } from '../../server/src/engine/workspace/folder-listings';
import {
  forgetWalkListings,
  noteWalkedFolder,
  walkedFileExists,
  walkedKind,
} from '../../server/src/engine/file-roles/walk-listings';

/**
 * A folder's listing is read once; one the walk made (`noteWalkedFolder`) answers for the
 * run, so the cache's look for path-alias configs in every folder costs no stat.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-listings-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

test('a walked folder is answered from its listing; another from the disk', () => {
  const walked = path.join(root, 'walked');
  const other = path.join(root, 'other');
  for (const dir of [walked, other]) {
    fs.mkdirSync(path.join(dir, 'tsconfig.json', 'inner'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'jsconfig.json'), '{}');
  }
  fs.symlinkSync(path.join(walked, 'jsconfig.json'), path.join(walked, 'linked.json'));
  try {
    noteWalkedFolder(walked, fs.readdirSync(walked, { withFileTypes: true }));
    // Gone from disk after the walk listed it: the listing (what the walk saw) answers.
    fs.rmSync(path.join(walked, 'jsconfig.json'));
    fs.writeFileSync(path.join(walked, 'package.json'), '{}');
    assert.equal(walkedFileExists(path.join(walked, 'jsconfig.json')), true);
    assert.equal(walkedFileExists(path.join(walked, 'package.json')), false);
    // A folder by a config's name is not a config file.
    assert.equal(walkedKind(path.join(walked, 'tsconfig.json')), 'dir');
    assert.equal(walkedFileExists(path.join(walked, 'tsconfig.json')), false);
    // A link is followed on disk: its target is gone.
    assert.equal(walkedFileExists(path.join(walked, 'linked.json')), false);
    // Not walked: the disk answers, each time.
    assert.equal(walkedKind(path.join(other, 'jsconfig.json')), undefined);
    assert.equal(walkedFileExists(path.join(other, 'jsconfig.json')), true);
    assert.equal(walkedFileExists(path.join(other, 'tsconfig.json')), false);
    forgetWalkListings();
    assert.equal(walkedFileExists(path.join(walked, 'jsconfig.json')), false);
    assert.equal(walkedFileExists(path.join(walked, 'package.json')), true);
  } finally {
    forgetWalkListings();
  }
});

test('FolderListings reads a folder once and again after a file in it changed', () => {
  const dir = path.join(root, 'lazy');
  fs.mkdirSync(path.join(dir, 'tsconfig.json'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'jsconfig.json'), '{}');
  const listings = new FolderListings();
  assert.equal(listings.exists(path.join(dir, 'jsconfig.json')), true);
  assert.equal(listings.exists(path.join(dir, 'tsconfig.json')), false);
  fs.rmSync(path.join(dir, 'jsconfig.json'));
  assert.equal(listings.exists(path.join(dir, 'jsconfig.json')), true);
  listings.forget(path.join(dir, 'jsconfig.json'));
  assert.equal(listings.exists(path.join(dir, 'jsconfig.json')), false);
});

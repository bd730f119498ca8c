import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { resolveModule } from '../../server/src/engine/frontends/python/module-shape';
import type { ModuleFinder } from '../../server/src/engine/model/frontend';
import { projectRootOf, forgetProjects } from '../../server/src/engine/file-roles/project';
import { noteWalkedFolder } from '../../server/src/engine/file-roles/walk-listings';

/**
 * A Python name is searched from the importing file's folder up to the root, and what a
 * search found from each folder is kept for the next file: a nearer module must still
 * win, whichever file is resolved first.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-pysearch-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function put(rel: string, text = ''): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const finder = (): ModuleFinder => ({
  root,
  exists: (f) => fs.existsSync(f),
  aliasCandidates: () => [],
  searched: new Map(),
});

test('a nearer module wins over the one a sibling folder found further up, in either order', () => {
  const near = put('svc/a/b/config.py');
  const far = put('svc/config.py');
  const inB = put('svc/a/b/handler.py');
  const inC = put('svc/a/c/handler.py');
  put('svc/a/pkg/__init__.py');
  for (const order of [
    [inC, inB],
    [inB, inC],
  ]) {
    const f = finder();
    const found = new Map(order.map((file) => [file, resolveModule(file, 'config', f)]));
    assert.equal(found.get(inB), near);
    assert.equal(found.get(inC), far);
    assert.equal(resolveModule(inC, 'pkg', f), path.join(root, 'svc/a/pkg/__init__.py'));
    assert.equal(resolveModule(inB, 'missing', f), null);
    assert.equal(resolveModule(inC, 'missing', f), null);
    assert.ok(f.searched!.size > 0);
  }
});

test('a folder the walk listed answers whether it holds a project manifest; others are listed when asked', () => {
  forgetProjects();
  const listedDir = path.join(root, 'listed');
  put('listed/src/app.ts');
  put('listed/package.json', '{}');
  put('other/src/app.ts');
  put('other/pyproject.toml');
  noteWalkedFolder(listedDir, fs.readdirSync(listedDir, { withFileTypes: true }));
  noteWalkedFolder(path.join(listedDir, 'src'), fs.readdirSync(path.join(listedDir, 'src'), { withFileTypes: true }));
  // What the walk saw stands for the run: the manifest removed since is still this project's.
  fs.rmSync(path.join(listedDir, 'package.json'));
  assert.equal(projectRootOf(path.join(listedDir, 'src', 'app.ts')), listedDir);
  assert.equal(projectRootOf(path.join(root, 'other', 'src', 'app.ts')), path.join(root, 'other'));
  forgetProjects();
  assert.notEqual(projectRootOf(path.join(listedDir, 'src', 'app.ts')), listedDir);
});

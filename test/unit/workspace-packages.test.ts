/**
 * Which files a monorepo's package names lead to (`WorkspacePackages.candidates`), for the
 * forms package.json files take: `exports` patterns and conditions, subpaths a package does
 * not export, `!` exclusions, `**` globs, lerna.json, and a package's own `#` imports.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspacePackages } from '../../server/src/engine/workspace/workspace-packages';

function tree(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-packages-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const relative = (dir: string, paths: string[]) => paths.map((p) => path.relative(dir, p));

test('exports: an exact subpath before a pattern, the longest pattern prefix, source conditions before builds', () => {
  const dir = tree({
    'package.json': { workspaces: ['packages/*'] },
    'packages/core/package.json': {
      name: '@app/core',
      exports: {
        '.': { import: './dist/index.mjs', types: './dist/index.d.ts', source: './src/index.ts' },
        './db/*': './src/dynamo/*.ts',
        './*': './src/*.ts',
        './config': './src/settings/config.ts',
      },
    },
    'services/api/handler.ts': '',
  });
  const p = new WorkspacePackages(dir);
  const from = path.join(dir, 'services/api/handler.ts');
  assert.deepEqual(relative(dir, p.candidates(from, '@app/core')), [
    'packages/core/src/index.ts',
    'packages/core/dist/index',
  ]);
  assert.deepEqual(relative(dir, p.candidates(from, '@app/core/config')), ['packages/core/src/settings/config.ts']);
  assert.deepEqual(relative(dir, p.candidates(from, '@app/core/db/votes')), ['packages/core/src/dynamo/votes.ts']);
  assert.deepEqual(relative(dir, p.candidates(from, '@app/core/votes')), ['packages/core/src/votes.ts']);
  // Not a package of the monorepo, or one of its names with a different scope.
  assert.deepEqual(p.candidates(from, '@aws-sdk/lib-dynamodb'), []);
  assert.deepEqual(p.candidates(from, '@other/core'), []);
});

test('a subpath an exports map leaves out is not followed; without exports, the folder and its src', () => {
  const dir = tree({
    'package.json': { workspaces: ['packages/*'] },
    'packages/closed/package.json': { name: 'closed', exports: { '.': './src/index.ts' } },
    'packages/open/package.json': { name: 'open', main: 'lib/main.js' },
    'app.ts': '',
  });
  const p = new WorkspacePackages(dir);
  const from = path.join(dir, 'app.ts');
  assert.deepEqual(p.candidates(from, 'closed/internal'), []);
  assert.deepEqual(relative(dir, p.candidates(from, 'open')), [
    'packages/open/lib/main',
    'packages/open/index',
    'packages/open/src/index',
  ]);
  assert.deepEqual(relative(dir, p.candidates(from, 'open/util')), ['packages/open/util', 'packages/open/src/util']);
});

test('globs: `!` excludes a folder, `**` reaches nested packages, lerna.json lists them too', () => {
  const dir = tree({
    'package.json': { workspaces: ['packages/**', '!packages/legacy'] },
    'packages/legacy/package.json': { name: 'legacy' },
    'packages/services/billing/package.json': { name: '@app/billing' },
    'src.ts': '',
  });
  const p = new WorkspacePackages(dir);
  const from = path.join(dir, 'src.ts');
  assert.deepEqual(p.candidates(from, 'legacy'), []);
  assert.equal(p.candidates(from, '@app/billing').length > 0, true);

  const lerna = tree({
    'package.json': { name: 'root' },
    'lerna.json': { packages: ['modules/*'] },
    'modules/db/package.json': { name: 'db', main: 'index.js' },
    'x.ts': '',
  });
  assert.deepEqual(
    relative(lerna, new WorkspacePackages(lerna).candidates(path.join(lerna, 'x.ts'), 'db')).at(0),
    'modules/db/index',
  );
});

test("a package's `imports` map (`#db/*`) is read from the importing file's own package.json", () => {
  const dir = tree({
    'package.json': { name: 'svc', imports: { '#db/*': './src/db/*.ts', '#dep': 'some-package' } },
    'src/handlers/vote.ts': '',
  });
  const p = new WorkspacePackages(dir);
  const from = path.join(dir, 'src/handlers/vote.ts');
  assert.deepEqual(relative(dir, p.candidates(from, '#db/votes')), ['src/db/votes.ts']);
  // A target naming another package is no path of this one.
  assert.deepEqual(p.candidates(from, '#dep'), []);
});

test('forget: a package added after the first lookup is found once the manifests are read again', () => {
  const dir = tree({ 'package.json': { workspaces: ['packages/*'] }, 'a.ts': '' });
  const p = new WorkspacePackages(dir);
  const from = path.join(dir, 'a.ts');
  assert.deepEqual(p.candidates(from, 'late'), []);
  fs.mkdirSync(path.join(dir, 'packages/late'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'packages/late/package.json'), JSON.stringify({ name: 'late' }));
  assert.deepEqual(p.candidates(from, 'late'), [], 'read once until forgotten');
  p.forget();
  assert.equal(p.candidates(from, 'late').length > 0, true);
});

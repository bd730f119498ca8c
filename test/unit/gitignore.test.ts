import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { collectFiles } from '../../server/src/engine/workspace/files';

/**
 * The folder walk used when git is not there honours .gitignore files as git does. Each case
 * writes a tree twice: once in a plain temp folder (walked by collectFiles) and once in a
 * `git init` folder, where `git ls-files --others --exclude-standard` is the oracle.
 */

type Tree = Record<string, string>;

function write(root: string, tree: Tree): void {
  for (const [rel, text] of Object.entries(tree)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

const SOURCE = /\.(ts|js|py)$/;

function walked(tree: Tree): string[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-gitignore-walk-'));
  try {
    write(root, tree);
    // The temp folder is outside any work tree, so collectFiles walks it.
    return collectFiles([root])
      .files.map((f) => path.relative(root, f).split(path.sep).join('/'))
      .sort();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function gitSees(tree: Tree): string[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-gitignore-git-'));
  try {
    write(root, tree);
    execFileSync('git', ['init', '-q'], { cwd: root });
    const out = execFileSync(
      'git',
      ['-c', 'core.excludesFile=/dev/null', 'ls-files', '--others', '--exclude-standard'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    return out
      .split('\n')
      .filter((f) => SOURCE.test(f))
      .sort();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function sameAsGit(tree: Tree, expected: string[]): void {
  const ours = walked(tree);
  assert.deepEqual(gitSees(tree), expected, 'the expectation itself must be what git says');
  assert.deepEqual(ours, expected);
}

const SRC = 'export const x = 1;\n';

test('negation: a later `!pattern` re-includes a file an earlier pattern left out', () => {
  sameAsGit(
    {
      '.gitignore': 'gen-*.ts\n!gen-keep.ts\n',
      'gen-a.ts': SRC,
      'gen-keep.ts': SRC,
      'app.ts': SRC,
    },
    ['app.ts', 'gen-keep.ts'],
  );
});

test('a file stays out when a parent folder is excluded, whatever a `!` says', () => {
  sameAsGit(
    {
      '.gitignore': 'vendor/\n!vendor/keep.ts\n',
      'vendor/keep.ts': SRC,
      'vendor/lib.ts': SRC,
      'app.ts': SRC,
    },
    ['app.ts'],
  );
});

test('directory-only patterns (`name/`) match folders, never a file of that name', () => {
  sameAsGit(
    {
      '.gitignore': 'tmp.ts/\nout-*/\n',
      'tmp.ts/inner.ts': SRC, // a folder named like a file
      'lib/tmp.ts': SRC, // a file of that name: kept
      'out-cjs/a.js': SRC,
      'lib/out-cjs.js': SRC,
    },
    ['lib/out-cjs.js', 'lib/tmp.ts'],
  );
});

test('anchoring: a leading or inner slash ties a pattern to its .gitignore folder', () => {
  sameAsGit(
    {
      '.gitignore': '/local.ts\nscripts/seed.py\n',
      'local.ts': SRC,
      'pkg/local.ts': SRC,
      'scripts/seed.py': 'x = 1\n',
      'pkg/scripts/seed.py': 'x = 1\n',
    },
    ['pkg/local.ts', 'pkg/scripts/seed.py'],
  );
});

test('`**`, character classes and escapes', () => {
  sameAsGit(
    {
      '.gitignore': 'docs/**/draft.ts\nv[0-9].ts\n\\#notes.ts\n**/snapshots\n',
      'docs/a/b/draft.ts': SRC,
      'docs/draft.ts': SRC,
      'draft.ts': SRC,
      'v1.ts': SRC,
      'vx.ts': SRC,
      '#notes.ts': SRC,
      'deep/x/snapshots/s.ts': SRC,
    },
    ['draft.ts', 'vx.ts'],
  );
});

test('nested .gitignore files: the deepest one with a pattern for the path decides', () => {
  sameAsGit(
    {
      '.gitignore': '*.gen.ts\nfixtures/\n',
      'a.gen.ts': SRC,
      'app.ts': SRC,
      'pkg/.gitignore': '!keep.gen.ts\nlocal/\n/only-here.ts\n',
      'pkg/keep.gen.ts': SRC, // re-included by the nested file
      'pkg/other.gen.ts': SRC,
      'pkg/local/x.ts': SRC,
      'pkg/only-here.ts': SRC,
      'pkg/sub/only-here.ts': SRC, // anchored to pkg/, not to pkg/sub/
      'pkg/sub/local/y.ts': SRC, // unanchored `local/` matches below pkg/ too
      'pkg/fixtures/f.ts': SRC, // the root's pattern reaches into pkg/
      'local/z.ts': SRC, // pkg's pattern does not reach the root
    },
    ['app.ts', 'local/z.ts', 'pkg/keep.gen.ts', 'pkg/sub/only-here.ts'],
  );
});

test('patterns are case-sensitive, as git is on Linux', () => {
  sameAsGit(
    {
      '.gitignore': 'Generated.ts\n',
      'Generated.ts': SRC,
      'generated.ts': SRC,
    },
    ['generated.ts'],
  );
});

test('the walk counts what .gitignore left out', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-gitignore-count-'));
  try {
    write(root, { '.gitignore': 'gen/\n*.tmp.ts\n', 'gen/a.ts': SRC, 'b.tmp.ts': SRC, 'c.ts': SRC });
    const list = collectFiles([root]);
    assert.equal(list.gitignored, 2);
    assert.deepEqual(
      list.files.map((f) => path.basename(f)),
      ['c.ts'],
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

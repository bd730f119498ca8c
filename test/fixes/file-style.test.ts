// The layout of what fixes write follows the file's own: its indentation step (a copy of
// each library's fixture re-indented to four spaces gets only four-space lines from every
// fix), the width its lines keep to (ElectroDB's shard attribute and per-shard query are
// wrapped as prettier would, not one 170-character line), and its imports (a name added to
// an import of the module it comes from, never a second import of that module; a helper
// already imported is not defined again).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { definesHashHelper } from '../../server/src/features/fixes/hash-helper';
import { allFixes } from '../../server/src/features/fixes/index';
import { envConstant, indentUnitOf, lineWidthOf } from '../../server/src/features/fixes/reader-conventions';
import { importOf } from '../../server/src/features/fixes/shard-count';
import type { FixAction } from '../../server/src/features/fixes/fix-model';
import type { Access, ImportInfo } from '../../server/src/engine';
import { cleanup, textsAfter } from './helpers-write';

const LIBRARIES = path.join(__dirname, '..', 'fixtures', 'libraries');
const OUT = path.join(__dirname, '..', '..', 'test-output', 'file-style');

const walk = (d: string): string[] =>
  fs
    .readdirSync(d)
    .flatMap((f) => (fs.statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));

/** A copy of a fixture with every leading run of spaces doubled: the same code, four-space indented. */
function fourSpaceCopy(from: string): string {
  const dir = path.join(OUT, `${path.basename(from)}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const f of walk(from)) {
    const to = path.join(dir, path.relative(from, f));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const text = fs.readFileSync(f, 'utf8');
    // A doc comment's ` * ` lines keep their one space past the doubled step.
    const doubled = text.replace(/^( +)/gm, (s) => (s.length % 2 ? `${s.slice(1)}${s.slice(1)} ` : s + s));
    fs.writeFileSync(to, /\.(ts|js)$/.test(f) ? doubled : text);
  }
  return dir;
}

/** Every fix of every finding in the folder, with the texts it would leave. */
async function everyFix(dir: string): Promise<Array<{ action: FixAction; after: Map<string, string> }>> {
  await initParsers();
  const index = new WorkspaceIndex({ root: dir });
  index.analyzeAll(walk(dir).filter((f) => /\.(ts|js)$/.test(f)));
  const ctx = fixContextOf(index);
  const out: Array<{ action: FixAction; after: Map<string, string> }> = [];
  for (const finding of index.results().flatMap((r) => r.findings)) {
    for (const action of allFixes(finding, ctx)) {
      if (action.changes.length === 0) continue;
      out.push({ action, after: textsAfter(ctx, action) });
    }
  }
  return out;
}

/** The lines a fix added to a file (not in its text before). */
const added = (before: string, after: string) => {
  const had = new Set(before.split('\n'));
  return after.split('\n').filter((l) => !had.has(l));
};

for (const fixture of [
  'electrodb-fixes',
  'dynamodb-toolbox-fixes',
  'dynamodb-toolbox-v0-fixes',
  'dynamoose-fix',
  'typedorm-fix',
  'onetable-fix',
]) {
  test(`${fixture}, four-space indented: every line a fix adds is in four-space steps`, async () => {
    const dir = fourSpaceCopy(path.join(LIBRARIES, fixture));
    try {
      const fixes = await everyFix(dir);
      assert.ok(fixes.length > 0, 'fixes offered');
      for (const { action, after } of fixes) {
        for (const [file, text] of after) {
          const odd = added(fs.readFileSync(file, 'utf8'), text).filter(
            (l) => /^( *)/.exec(l)![1].length % 4 !== 0 && !/^ +\*/.test(l),
          );
          assert.deepEqual(odd, [], `${action.id} in ${path.basename(file)}`);
        }
      }
    } finally {
      cleanup(dir);
    }
  });
}

test("ElectroDB: the shard attribute and the query of every shard keep to the file's 120 columns", async () => {
  const fixes = await everyFix(path.join(LIBRARIES, 'electrodb-fixes'));
  const electro = fixes.filter((f) => /^add-(random|hash)-shard$/.test(f.action.id));
  assert.ok(electro.length >= 6, 'random and calculated fixes offered');
  for (const { action, after } of electro) {
    for (const [file, text] of after) {
      const lines = added(fs.readFileSync(file, 'utf8'), text);
      // Calls rewritten in place (`Score.get({ ..., shard: ... })`) keep their own line.
      const long = lines.filter((l) => l.length > 120 && !/\.(get|patch|update|delete|remove)\(/.test(l));
      assert.deepEqual(long, [], `${action.id} in ${path.basename(file)}`);
      if (/entit|announcement/.test(path.basename(file)) && lines.some((l) => /^\s*shard: \{$/.test(l)))
        assert.ok(
          lines.some((l) => /^\s*readOnly: true,$/.test(l)),
          'one property a line',
        );
    }
  }
});

const access = (file: string, language: Access['language'] = 'typescript') => ({ file, language }) as Access;
const importAt = (module: string, line: number, endLine = line, endColumn = 0): ImportInfo =>
  ({ module, names: [], span: { startLine: line, startColumn: 0, endLine, endColumn } }) as unknown as ImportInfo;

test('a name joins the import of its module: default, one-line and one-a-line braces; never `import type`', () => {
  const apply = (text: string, imports: ImportInfo[]) => {
    const change = importOf(access('/p/db.ts'), imports, text, 'SCORE_SHARDS', '/p/schema.ts');
    return typeof change === 'string' || change === null ? change : applyChanges(text, [change]);
  };
  assert.equal(
    apply("import schema from './schema';\n", [importAt('./schema', 0)]),
    "import schema, { SCORE_SHARDS } from './schema';\n",
  );
  assert.equal(
    apply("import { Schema } from './schema';\n", [importAt('./schema', 0)]),
    "import { Schema, SCORE_SHARDS } from './schema';\n",
  );
  assert.equal(
    apply("import {\n    Schema,\n    Models,\n} from './schema';\n", [importAt('./schema', 0, 3)]),
    "import {\n    Schema,\n    Models,\n    SCORE_SHARDS,\n} from './schema';\n",
  );
  // A value added to `import type` would be a type only: a line of its own instead.
  assert.equal(
    apply("import type { Schema } from './schema';\n", [importAt('./schema', 0)]),
    'import { SCORE_SHARDS } from "./schema";',
  );
});

test('the hash helper is not defined again where the file imports it', () => {
  assert.ok(definesHashHelper('typescript', "import { shardlensHash } from './shard-hash';"));
  assert.ok(definesHashHelper('javascript', "const { shardlensHash } = require('./shard-hash');"));
  assert.ok(definesHashHelper('python', 'from app.hashing import (\n    shardlens_hash,\n)'));
  assert.ok(!definesHashHelper('typescript', "import { shardlensHashes } from './shard-hash';"));
  assert.ok(!definesHashHelper('python', 'import shardlens_hash_tools'));
});

test("a file's step, width and environment constants, as its author wrote them", () => {
  // Doc comments' ` * ` lines are not a one-space step.
  assert.equal(indentUnitOf('/**\n * doc\n */\nfunction f() {\n    return 1;\n}\n', false), '    ');
  // Nor a comment line set off by three spaces in a four-space body.
  assert.equal(indentUnitOf('def handler(event, context):\n   # read the list\n    return 1\n', true), '    ');
  assert.equal(indentUnitOf('function f() {\n   // read the list\n    return 1;\n}\n', false), '    ');
  assert.equal(lineWidthOf('const a = 1;\n'), 80);
  assert.equal(lineWidthOf(`const a = '${'x'.repeat(100)}';\n`), 120);
  assert.equal(
    envConstant("export const TABLE: string = process.env['TABLE_NAME'] ?? 'votes';", 'TABLE_NAME', false),
    'TABLE',
  );
  assert.equal(envConstant("const T = process.env.TABLE_NAME ?? 'votes';", 'TABLE_NAME', false, true), null);
  assert.equal(envConstant('const T = process.env.TABLE_NAME_OLD;', 'TABLE_NAME', false), null);
  assert.equal(envConstant('TABLE = os.environ["TABLE_NAME"]', 'TABLE_NAME', true, true), 'TABLE');
  assert.equal(envConstant("TABLE: str = os.getenv('TABLE_NAME')", 'TABLE_NAME', true), 'TABLE');
});

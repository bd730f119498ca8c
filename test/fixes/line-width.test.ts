/**
 * The width fixes keep to comes from the project's formatter or linter settings, nearest
 * first, and a shard suffix that would pass it is computed on a line of its own before the
 * statement — only where that computes the same value at the same time.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { hoistShard } from '../../server/src/features/fixes/hoisted-shard';
import { projectLineWidth } from '../../server/src/features/fixes/line-width';

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-width-'));
  fs.mkdirSync(path.join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const SHORT = 'x = 1\n';

test('prettier, black, ruff, flake8 and .editorconfig widths, nearest first', () => {
  const dir = project({
    '.prettierrc': '{ "singleQuote": true, "printWidth": 100 }\n',
    'pyproject.toml': '[project]\nname = "svc"\n\n[tool.black]\nline-length = 79\n',
    'web/package.json': '{ "name": "web", "prettier": { "printWidth": 90 } }\n',
    'tools/pyproject.toml': '[tool.ruff]\nline-length = 110\n[tool.black]\nline-length = 79\n',
    'legacy/setup.cfg': '[metadata]\nname = legacy\n\n[flake8]\nmax-line-length = 99\n',
    'plain/pyproject.toml': '[tool.black]\ntarget-version = ["py311"]\n',
    'edit/.editorconfig': 'root = true\n\n[*]\nindent_style = space\n\n[*.py]\nmax_line_length = 72\n',
  });
  assert.equal(projectLineWidth(path.join(dir, 'src/app.ts'), SHORT), 100);
  assert.equal(projectLineWidth(path.join(dir, 'web/src/app.ts'), SHORT), 90);
  assert.equal(projectLineWidth(path.join(dir, 'svc/app.py'), SHORT), 79);
  assert.equal(projectLineWidth(path.join(dir, 'tools/gen.py'), SHORT), 110, 'ruff before black');
  assert.equal(projectLineWidth(path.join(dir, 'legacy/job.py'), SHORT), 99);
  assert.equal(projectLineWidth(path.join(dir, 'plain/job.py'), SHORT), 88, "black's default");
  assert.equal(projectLineWidth(path.join(dir, 'edit/job.py'), SHORT), 72);
  // `root = true` stops the search: the .prettierrc above does not speak for edit/.
  assert.equal(projectLineWidth(path.join(dir, 'edit/app.ts'), SHORT), 80);
});

test('without settings, the narrowest common width the file fits; the search stops at the repository root', () => {
  const outer = project({ '.prettierrc': '{ "printWidth": 140 }\n' });
  const dir = path.join(outer, 'repo');
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  const file = path.join(dir, 'app.ts');
  assert.equal(projectLineWidth(file, `const a = '${'x'.repeat(80)}';\n`), 100);
  assert.equal(projectLineWidth(file, SHORT), 80);
  assert.equal(projectLineWidth(path.join(dir, 'job.py'), `x = "${'y'.repeat(75)}"\n`), 88);
});

test('a setting written, added or removed between two asks is the one the next ask reads', () => {
  const dir = project({ 'svc/.prettierrc': '{ "printWidth": 100 }\n' });
  const file = path.join(dir, 'svc/src/app.ts');
  assert.equal(projectLineWidth(file, SHORT), 100);
  // Written in place with the same length: the folder's listing is unchanged, the file's time moved.
  fs.writeFileSync(path.join(dir, 'svc/.prettierrc'), '{ "printWidth": 120 }\n');
  assert.equal(projectLineWidth(file, SHORT), 120);
  // A nearer setting added, in a folder listed before.
  fs.mkdirSync(path.join(dir, 'svc/src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'svc/src/package.json'), '{ "prettier": { "printWidth": 90 } }\n');
  assert.equal(projectLineWidth(file, SHORT), 90);
  fs.rmSync(path.join(dir, 'svc/src/package.json'));
  fs.rmSync(path.join(dir, 'svc/.prettierrc'));
  assert.equal(projectLineWidth(file, SHORT), 80, 'no setting left: the width the file keeps to');
});

/** Where the key `k` is written in `text` (its first mention), as a source range. */
function rangeOf(file: string, text: string, k: string) {
  const i = text.indexOf(k);
  const line = text.slice(0, i).split('\n').length - 1;
  const column = i - (text.lastIndexOf('\n', i - 1) + 1);
  return { file, span: { startLine: line, startColumn: column, endLine: line, endColumn: column + k.length } };
}

test('the shard goes before the statement only where the key is in its own expression', async () => {
  await initParsers();
  const hoist = (file: string, text: string, k: string, width = 80) =>
    hoistShard(text, file.endsWith('.py') ? 'python' : 'typescript', rangeOf(file, text, k), 'rand()', new Set(), {
      width,
      unit: '  ',
    });
  const ts = [
    'export async function save(e: Ev) {',
    "  await doc.send(new PutCommand({ TableName: T, Item: { pk: 'FEED', sk: e.id } }));",
    "  items.forEach((i) => doc.send(new PutCommand({ TableName: T, Item: { pk: 'LIST', sk: i } })));",
    "  if (e.ok) await doc.send(new PutCommand({ TableName: T, Item: { pk: 'OK', sk: e.id } }));",
    "  return e.x ? put({ pk: 'A' }) : null;",
    '}',
    '',
  ].join('\n');
  const h = hoist('a.ts', ts, "'FEED'");
  assert.equal(h?.name, 'shard');
  assert.deepEqual(h?.declaration.span, { startLine: 1, startColumn: 0, endLine: 1, endColumn: 0 });
  assert.equal(h?.declaration.newText, '  const shard = rand();\n');
  // Past the width the declaration breaks after `=`, as prettier lays it out.
  assert.equal(hoist('a.ts', ts, "'FEED'", 22)?.declaration.newText, '  const shard =\n    rand();\n');
  assert.equal(
    hoist('a.ts', ts, "'FEED'", 23)?.declaration.newText,
    '  const shard = rand();\n',
    'one that fits stays',
  );
  assert.equal(hoist('a.ts', ts, "'LIST'"), null, 'inside a callback: per item, not before the loop');
  assert.equal(hoist('a.ts', ts, "'OK'"), null, "an if's unbraced body");
  assert.equal(hoist('a.ts', ts, "'A'"), null, 'behind a condition');
  const py = [
    'def save(e, shard):',
    '    for r in e.rows:',
    '        table.put_item(Item={"pk": "FEED", "sk": r})',
    '    [table.put_item(Item={"pk": "LIST", "sk": i}) for i in e.items]',
    '',
  ].join('\n');
  const p = hoist('a.py', py, '"FEED"');
  assert.equal(p?.name, 'shard2', '`shard` is a parameter there');
  assert.equal(p?.declaration.newText, '        shard2 = rand()\n');
  assert.equal(hoist('a.py', py, '"LIST"'), null, 'a comprehension');
});

test('generated prose is wrapped at the width, a word longer than a line kept whole', async () => {
  const { wrapWords } = await import('../../server/src/features/generate/wrap-words');
  const text =
    'Counter items with ids 420..429 (ARTICLE_ID * N + shard); no other item of the table may use these ids.';
  const lines = wrapWords(text, 60, ' * ');
  assert.ok(lines.length > 1 && lines.every((l) => l.length <= 60 && l.startsWith(' * ')), JSON.stringify(lines));
  assert.equal(lines.map((l) => l.slice(3)).join(' '), text);
  assert.deepEqual(wrapWords('short', 80, '# '), ['# short']);
  assert.deepEqual(wrapWords(`a ${'x'.repeat(30)} b`, 10, ''), ['a', 'x'.repeat(30), 'b']);
});

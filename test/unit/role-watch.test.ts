import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { RoleWatch } from '../../server/src/engine/file-roles/role-watch';
import { contentRole } from '../../server/src/engine/file-roles/role';

/** Text that makes or unmakes a role when written into a file, in both languages. */
const SNIPPETS = [
  "describe('orders', () => {\n",
  "  it('saves', async () => {\n",
  "import { vi } from 'vitest';\n",
  'import pytest\n',
  'def test_saves():\n',
  'export const handler = async (event) => {\n',
  "app.get('/orders', list);\n",
  '(\n  req: Request,\n  res: Response,\n) => {}\n',
  'def handler(event, context):\n',
  'from flask import Flask\n',
  "if __name__ == '__main__':\n    main()\n",
  'main()\n',
  'require.main === module',
  'await run();\n',
  'export class OrderRepository {\n',
  'module.exports = { save };\n',
  'def save(item):\n',
  'class Repo:\n',
  '\n',
  ' ',
  '(',
  "'",
  'e',
];

const FILES = [
  'examples/leaderboard/src/scores.ts',
  'examples/leaderboard/py/leaderboard.py',
  'test/fixtures/wrapper-callers/home-handler.ts',
  'test/fixtures/wrapper-callers/home_view.py',
  'test/fixtures/incremental/orders.py',
];

test('an edited document keeps the content role a fresh reading of its text gives', () => {
  const sources = FILES.map((f) => [fs.readFileSync(f, 'utf8'), f.endsWith('.py')] as const);
  const edit = fc.record({
    at: fc.nat(),
    cut: fc.nat({ max: 40 }),
    insert: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 3 })),
  });
  fc.assert(
    fc.property(
      fc.constantFrom(...sources),
      fc.array(edit, { minLength: 1, maxLength: 12 }),
      ([start, python], edits) => {
        const watch = new RoleWatch(python ? 'python' : 'js');
        let text = start;
        assert.equal(watch.roleOf(text), contentRole(text, python ? 'python' : 'js'));
        for (const e of edits) {
          const from = e.at % (text.length + 1);
          const to = Math.min(text.length, from + e.cut);
          text = text.slice(0, from) + e.insert + text.slice(to);
          watch.edit(from, to, e.insert.length, text);
          assert.equal(
            watch.roleOf(text),
            contentRole(text, python ? 'python' : 'js'),
            JSON.stringify(text.slice(0, 200)),
          );
        }
      },
    ),
    { numRuns: Number(process.env.SHARDLENS_PROPERTY_RUNS ?? 400) },
  );
});

test('roles change with the edits that make them', () => {
  const watch = new RoleWatch('js');
  let text = "import { save } from './db';\n\nexport async function run(id: string) {\n  await save(id);\n}\n";
  assert.equal(watch.roleOf(text), 'library');
  const add = "\ndescribe('run', () => {});\n";
  watch.edit(text.length, text.length, add.length, (text += add));
  assert.equal(watch.roleOf(text), 'test');
  const at = text.indexOf('describe');
  watch.edit(at, at + 1, 0, (text = text.slice(0, at) + text.slice(at + 1)));
  assert.equal(watch.roleOf(text), 'library');
});

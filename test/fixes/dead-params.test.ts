// A Query replaced by its scatter-gather reader leaves no dead local behind: the
// parameters object a Lambda built for the single-key read (`const params = {...};
// docClient.query(params).promise()`, boto3's `table.query(**query_kwargs)`) goes with
// it, so the fixed handler passes eslint's no-unused-vars and has no local Python
// assigns and never reads. The fixed SDK v2 board still lists every score in order
// against dynalite.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Linter } from 'eslint';
import { allFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, pythonErrors } from './helpers-write';
import { checkProgram, indexed, table, type Program } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures', 'dead-locals');
const SHARD_FIXES = ['add-random-shard', 'add-hash-shard'];

/** eslint's no-unused-vars on a CommonJS file. */
function unusedJs(file: string): string[] {
  const messages = new Linter({ configType: 'flat' }).verify(fs.readFileSync(file, 'utf8'), [
    {
      languageOptions: { sourceType: 'commonjs', ecmaVersion: 2022 },
      rules: { 'no-unused-vars': ['error', { args: 'none' }] },
    },
  ]);
  return messages.map((m) => `${m.line}: ${m.message}`);
}

/** Names a Python function assigns and never reads (pyflakes' "local variable ... is assigned to but never used"). */
function unusedPy(file: string): string[] {
  const script = [
    'import ast, sys',
    'tree = ast.parse(open(sys.argv[1]).read())',
    'for fn in ast.walk(tree):',
    '    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):',
    '        continue',
    '    stored = {n.id: n.lineno for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}',
    '    loaded = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}',
    '    for name, line in stored.items():',
    '        if name not in loaded:',
    '            print(f"{line}: {name} is assigned to but never used")',
  ].join('\n');
  return execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

for (const [name, file, unused] of [
  ['v2-params', 'board.js', unusedJs],
  ['py-kwargs', 'board.py', unusedPy],
] as const) {
  test(`${name}: every shard fix leaves no unused local in ${file}`, async () => {
    const fixes = await (async () => {
      const { ctx, findings } = await indexed(copyFixture(name, FIXTURES));
      const writer = findings.find((f) => f.rule === 'SL001' && f.access.kind === 'write')!;
      return allFixes(writer, ctx)
        .map((a) => a.id)
        .filter((id) => SHARD_FIXES.includes(id));
    })();
    assert.deepEqual(fixes.sort(), [...SHARD_FIXES].sort());
    for (const id of fixes) {
      const copy = copyFixture(name, FIXTURES);
      try {
        assert.deepEqual(unused(path.join(copy, file)), [], 'the fixture is clean');
        const { ctx, findings } = await indexed(copy);
        const writer = findings.find((f) => f.rule === 'SL001' && f.access.kind === 'write')!;
        applyAction(
          ctx,
          allFixes(writer, ctx).find((a) => a.id === id)!,
        );
        assert.match(
          fs.readFileSync(path.join(copy, file), 'utf8'),
          /query_board_weekly_shards|queryBoardWeeklyShards/,
        );
        assert.deepEqual(unused(path.join(copy, file)), [], `${id}: no unused local`);
        assert.deepEqual(pythonErrors(copy), [], `${id}: compiles`);
      } finally {
        cleanup(copy);
      }
    }
  });
}

const BOARD: Program = {
  fixture: 'v2-params',
  table: table('board', 'pk', ['sk', 'S']),
  key: 'pk',
  writer: { rule: 'SL001', operation: 'PutItem' },
  offered: SHARD_FIXES,
  drive: `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const board = require('./board');
(async () => {
  for (let i = 0; i < 20; i++) {
    await board.submit({ body: JSON.stringify({ player: 'p' + String((i * 7) % 20).padStart(2, '0'), score: i }) });
  }
  const res = await board.list();
  console.log(JSON.stringify({ scores: JSON.parse(res.body) }));
})();
`,
};

test('the fixed SDK v2 board lists the same scores in the same order (dynalite)', async () => {
  const before = (await checkProgram({ ...BOARD }, FIXTURES)).read as { scores: unknown[] };
  assert.equal(before.scores.length, 20);
});

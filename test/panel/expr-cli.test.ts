// `shardlens expr` option parsing and output, through the real entry (main) where it matters.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { exprMain, parseExprArgs } from '../../server/src/cli/expr';
import { parseShardValues } from '../../server/src/features/expressions/index';

function run(argv: string[]): { code: number; out: string; err: string } {
  const out = new PassThrough();
  const err = new PassThrough();
  const code = exprMain(argv, out, err);
  return { code, out: String(out.read() ?? ''), err: String(err.read() ?? '') };
}

const BASE = ['--pk-attr', 'status', '--template', 'LOGS#2026-11-30#{shard}'];

test('--shards N is 0..N-1; --shard-values takes ranges and lists', () => {
  const a = parseExprArgs([...BASE, '--shards', '3']);
  assert.ok(!a.help);
  assert.deepEqual(a.spec.shards, [0, 1, 2]);
  assert.deepEqual(parseShardValues('1..10'), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(parseShardValues('7, 0..2,1'), [0, 1, 2, 7]);
  assert.throws(() => parseShardValues('5..1'), /backwards/);
  assert.throws(() => parseShardValues('a'), /not a shard number/);
});

test('JSON: one query per shard, the reserved pk aliased, a sort value that starts with "-"', () => {
  const r = run([...BASE, '--shard-values', '1..2', '--sk-attr', 'n', '--sk-op', '<', '--sk', '-5', '--sk-type', 'N']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out), {
    queries: [1, 2].map((shard) => ({
      shard,
      KeyConditionExpression: '#pk = :pk AND n < :sk',
      ExpressionAttributeNames: { '#pk': 'status' },
      ExpressionAttributeValues: { ':pk': `LOGS#2026-11-30#${shard}`, ':sk': -5 },
    })),
  });
});

test('a plain attribute is not aliased and the names map is left out (DynamoDB rejects an empty one)', () => {
  const r = run([
    '--pk-attr',
    'pk',
    '--template',
    'A#{shard}',
    '--shards',
    '1',
    '--sk-attr',
    'sk',
    '--sk-op',
    'begins_with',
    '--sk',
    '2026-',
  ]);
  const q = JSON.parse(r.out).queries[0];
  assert.equal(q.KeyConditionExpression, 'pk = :pk AND begins_with(sk, :sk)');
  assert.equal('ExpressionAttributeNames' in q, false);
});

test('usage errors exit 2 and say what to change', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--pk-attr', 'pk', '--template', 'A#1', '--shards', '2'], /\{shard\}/],
    [[...BASE], /exactly one of --shards/],
    [[...BASE, '--shards', '2', '--shard-values', '1..2'], /exactly one of --shards/],
    [[...BASE, '--shards', '0'], /whole number from 1/],
    [[...BASE, '--shards', '2', '--sk-attr', 'sk', '--sk-op', 'like', '--sk', 'a'], /--sk-op must be one of/],
    [[...BASE, '--shards', '2', '--sk-attr', 'sk', '--sk-op', 'between', '--sk', 'a'], /needs a second value/],
    [[...BASE, '--shards', '2', '--sk-attr', 'sk', '--sk-op', '=', '--sk', 'a', '--sk2', 'b'], /only for between/],
    [
      [...BASE, '--shards', '2', '--sk-attr', 'sk', '--sk-op', 'begins_with', '--sk', '1', '--sk-type', 'N'],
      /string sort keys/,
    ],
    [[...BASE, '--shards', '2', '--sk-attr', 'sk', '--sk-op', '>', '--sk', 'x', '--sk-type', 'N'], /not a number/],
    [[...BASE, '--shards', '2', '--format', 'java'], /--format must be/],
    [[...BASE, '--shards', '2', '--bogus'], /unknown option/],
  ];
  for (const [argv, message] of cases) {
    const r = run(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, message);
    assert.equal(r.out, '');
  }
});

test('the code formats print a function for each SDK', () => {
  const ts = run([...BASE, '--shards', '4', '--format', 'ts']).out;
  assert.match(ts, /export async function queryAllShards\(client: DynamoDBDocumentClient, tableName: string\)/);
  assert.match(ts, /Array\.from\(\{ length: 4 \}, \(_, i\) => i\)/);
  const py = run([...BASE, '--shard-values', '1,3', '--format', 'python']).out;
  assert.match(py, /for shard in \[1, 3\]:/);
  assert.match(py, /":pk": f"LOGS#2026-11-30#\{shard\}"/);
});

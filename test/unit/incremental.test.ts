import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeSource } from '../../server/src/engine/analyze';
import { AnalyzedDocument } from '../../server/src/engine/incremental/document';
import type { SourceLanguage } from '../../server/src/engine/model';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { observable } from './helpers';

const FILES: Array<[string, SourceLanguage]> = [
  ['examples/leaderboard/src/scores.ts', 'typescript'],
  ['examples/event-log/src/events.ts', 'typescript'],
  ['examples/leaderboard/src/top-players.ts', 'typescript'],
  ['examples/leaderboard/py/leaderboard.py', 'python'],
  ['examples/event-log/py/events.py', 'python'],
  // Helpers whose parameters feed keys, results named `out`/`res`, arrow callbacks, computed keys.
  ['test/fixtures/incremental/orders.ts', 'typescript'],
  ['test/fixtures/incremental/orders.py', 'python'],
  // Operations picked by name (`new COMMANDS[action](`), and `new X(` calls that are no DynamoDB call.
  ['test/fixtures/incremental/dispatch.ts', 'typescript'],
  // Awaited calls with type arguments (`await getOne<T>(...)`), parsed from rewritten text.
  ['test/fixtures/incremental/generics.ts', 'typescript'],
];

/** Edits that change what keys mean: renames, new declarations, changed numbers and strings. */
const SNIPPETS = [
  'function topScores(shard: number) {\n',
  'def query_shard(shard_id):\n',
  'SHARDS',
  '10',
  '1',
  'const x = 1;\n',
  'x = 2\n',
  "'GLOBAL'",
  '"#"',
  ' ',
  '\n',
  'shard',
  '(',
  '}',
  'Date.now()',
  'random.randint(1, 10)',
  "import { X } from './x';\n",
  'from settings import SHARDS\n',
  // New callers of a helper, and names only called or used as keys.
  "\nrecordDaily('GLOBAL', 1);\n",
  '\nrecord_daily("GLOBAL", 1)\n',
  'recordDaily(',
  'record_daily(',
  'saveOrder(',
  '\ncounterKey(process.env.NAME);\n',
  '\ncounter_key(os.environ["NAME"])\n',
  'counterKey(',
  'counter_key(',
  '(day) => ',
  '[ORDERS_TABLE]: ',
  'const out = ',
  'res = ',
  'ORDERS_TABLE',
  'customerId',
  'new ',
  '<string>',
  '>(',
  // A top-level `await` makes a JS module a script; a Python one is read by Python's patterns.
  'await ',
  'COMMANDS',
  "['put']",
  '[action](',
  'const Command = COMMANDS;\n',
  'const COMMANDS = { put: PutCommand };\n',
  'new Map(',
  ';',
  'Command',
  '.put(',
  '.put_item(',
];

test('incremental re-analysis after each edit equals a full analysis', async () => {
  await initParsers();
  const sources = FILES.map(([f, lang]) => [fs.readFileSync(f, 'utf8'), lang] as const);
  const edit = fc.record({
    at: fc.nat(),
    cut: fc.nat({ max: 12 }),
    insert: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 4 })),
  });
  fc.assert(
    fc.property(fc.constantFrom(...sources), fc.array(edit, { minLength: 1, maxLength: 8 }), ([text, lang], edits) => {
      const doc = new AnalyzedDocument('doc', lang, text);
      try {
        for (const e of edits) {
          const start = e.at % (doc.content.length + 1);
          const end = Math.min(doc.content.length, start + e.cut);
          const incremental = doc.applyEdits([{ start, end, text: e.insert }]);
          // Reusing call sites must not change the result for the same tree...
          assert.equal(observable(incremental), observable(doc.analyzeWithoutReuse()));
          // ...and, where the text parses cleanly, the incremental tree is the fresh one.
          // (With syntax errors, tree-sitter's error recovery may differ between the two.)
          if (!incremental.syntaxErrors)
            assert.equal(observable(incremental), observable(analyzeSource('doc', doc.content, lang)));
        }
      } finally {
        doc.dispose();
      }
    }),
    { numRuns: Number(process.env.SHARDLENS_PROPERTY_RUNS ?? 150) },
  );
});

test('edits shift the positions of call sites after them', async () => {
  await initParsers();
  const text = fs.readFileSync('examples/leaderboard/src/scores.ts', 'utf8');
  const doc = new AnalyzedDocument('scores.ts', 'typescript', text);
  const before = doc.analysis.findings.map((f) => f.span.startLine);
  doc.applyEdits([{ start: 0, end: 0, text: '// a\n// b\n' }]);
  assert.deepEqual(
    doc.analysis.findings.map((f) => f.span.startLine),
    before.map((l) => l + 2),
  );
  doc.dispose();
});

test('a keyword at the end of a line that names the next line re-binds that name', async () => {
  await initParsers();
  // Error recovery reads `def` at a line's end and a call on the next line as a definition
  // of the called name; in JS `function` may name its declaration on the next line.
  const python = [
    'import boto3',
    'TABLE = boto3.resource("dynamodb").Table("orders")',
    '',
    'def shard_of(order_id):',
    '    return sum(ord(c) for c in order_id) % 8',
    '',
    'def count_order():',
    '    TABLE.update_item(Key={"pk": counter_key("orders")}, UpdateExpression="ADD n :one")',
    '',
  ].join('\n');
  const js = [
    "import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';",
    'const ddb = DynamoDBDocumentClient.from(client);',
    'export async function count() {',
    "  await ddb.send(new UpdateCommand({ TableName: 't', Key: { pk: counterKey('orders') } }));",
    '}',
    '',
    "counterKey(name) { return 'GLOBAL'; }",
    '',
  ].join('\n');
  const cases: Array<[string, SourceLanguage, (text: string) => { start: number; end: number; text: string }]> = [
    // The edit's own lines hold the name after the keyword.
    [
      python,
      'python',
      (t) => ({ start: t.indexOf('def shard_of') + 3, end: t.indexOf('def shard_of') + 4, text: '\ncounter_key(x)\n' }),
    ],
    // The keyword is typed at the end of the line before the name's line.
    [
      js,
      'typescript',
      (t) => ({ start: t.indexOf('\ncounterKey(name)'), end: t.indexOf('\ncounterKey(name)'), text: '\nfunction' }),
    ],
  ];
  for (const [text, lang, edit] of cases) {
    const doc = new AnalyzedDocument('doc', lang, text);
    try {
      const incremental = doc.applyEdits([edit(doc.content)]);
      assert.equal(observable(incremental), observable(doc.analyzeWithoutReuse()), doc.content);
    } finally {
      doc.dispose();
    }
  }
});

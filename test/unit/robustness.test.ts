import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';

const EXAMPLES = [
  ['examples/leaderboard/src/scores.ts', 'typescript'],
  ['examples/event-log/src/events.ts', 'typescript'],
  ['examples/leaderboard/py/leaderboard.py', 'python'],
  ['examples/event-log/py/events.py', 'python'],
] as const;

const LANGS = ['typescript', 'tsx', 'javascript', 'python'] as const;

test('arbitrary text never throws and always returns a result', async () => {
  await initParsers();
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom(...LANGS), (text, lang) => {
      const r = analyzeSource('f', `// DynamoDB\n${text}`, lang);
      assert.ok(Array.isArray(r.accesses));
      assert.ok(r.skipped === null || typeof r.skipped === 'string');
      assert.ok(!r.skipped?.startsWith('analysis failed'), r.skipped ?? '');
    }),
    { numRuns: 300 },
  );
});

test('garbled real code (random cuts and insertions) never throws', async () => {
  await initParsers();
  const sources = EXAMPLES.map(([file, lang]) => [fs.readFileSync(file, 'utf8'), lang] as const);
  const edit = fc.record({ at: fc.nat(), cut: fc.nat({ max: 40 }), insert: fc.string({ maxLength: 8 }) });
  fc.assert(
    fc.property(fc.constantFrom(...sources), fc.array(edit, { maxLength: 12 }), ([text, lang], edits) => {
      let s = text;
      for (const e of edits) {
        const at = e.at % (s.length + 1);
        s = s.slice(0, at) + e.insert + s.slice(at + e.cut);
      }
      const r = analyzeSource('f', s, lang);
      assert.ok(!r.skipped?.startsWith('analysis failed'), r.skipped ?? '');
      for (const a of r.accesses) assert.ok(a.span.startLine >= 0);
    }),
    { numRuns: 200 },
  );
});

test('pathological nesting is analysed without overflowing the stack', async () => {
  await initParsers();
  const depth = 5000;
  const ts = `ddb.put({ TableName: 't', Item: { pk: ${'('.repeat(depth)}'X'${')'.repeat(depth)}, v: ${'['.repeat(depth)}${']'.repeat(depth)} } });`;
  const py = `table.put_item(Item={"pk": ${'('.repeat(depth)}"X"${')'.repeat(depth)}, "v": ${'['.repeat(depth)}${']'.repeat(depth)}})`;
  const objects = `ddb.put({ TableName: 't', Item: { pk: 'X', v: ${'{a:'.repeat(depth)}1${'}'.repeat(depth)} } });`;
  for (const [text, lang] of [
    [ts, 'typescript'],
    [py, 'python'],
    [objects, 'javascript'],
  ] as const) {
    const r = analyzeSource('deep', text, lang);
    assert.ok(!r.skipped?.startsWith('analysis failed'), `${lang}: ${r.skipped}`);
    assert.equal(r.skipped, null);
  }
});

test('a 5 MB minified bundle is skipped with a reason, quickly', async () => {
  await initParsers();
  const chunk =
    'var a=function(){return new DynamoDBClient({}).send(new PutItemCommand({TableName:"t",Item:{pk:{S:"X"}}}))};';
  const bundle = chunk.repeat(Math.ceil((5 * 1024 * 1024) / chunk.length));
  const big = analyzeSource('bundle.js', bundle, 'javascript');
  assert.match(big.skipped ?? '', /larger than 2\.0 MB/);
  const minified = analyzeSource('bundle.js', bundle, 'javascript', { maxBytes: 10 * 1024 * 1024 });
  assert.match(minified.skipped ?? '', /minified or generated/);
});

test('a file that exceeds the parse budget is skipped, and the parser keeps working', async () => {
  await initParsers();
  const line = "await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: `U#${userId}` } }));\n";
  const text = line.repeat(20000);
  const slow = analyzeSource('slow.ts', text, 'typescript', { budgetMs: 1, maxBytes: 100 * 1024 * 1024 });
  assert.match(slow.skipped ?? '', /1 ms budget/);
  const next = analyzeSource('next.ts', line, 'typescript');
  assert.equal(next.accesses.length, 1);
});

test('binary content is skipped', async () => {
  await initParsers();
  const r = analyzeSource('b.py', 'boto3\u0000\u0001\u0002', 'python');
  assert.equal(r.skipped, 'binary file');
});

test("names of Object.prototype's members, wherever code puts a name, fail no file", async () => {
  await initParsers();
  // A table of known names indexed by a name from the source answered `toString` with a function.
  for (const n of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']) {
    const js = `import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const TABLES = { ${n}: 'x' };
export class Repo {
  ${n}(a) { return a; }
  async save(${n}, id) {
    await doc.send(new PutCommand({ TableName: process.env.${n}, Item: { pk: \`\${${n}}#\${id}\`, ${n}: 1 } }));
    await doc.send(new UpdateCommand({ TableName: TABLES.${n}, Key: { pk: '${n}' }, UpdateExpression: 'ADD ${n} :one' }));
    const m = { ${n}: PutCommand };
    await doc.send(new m[${n}]({ TableName: 'y', Item: { pk: '${n}' } }));
    return [new ${n}({ TableName: 'z' }), ${n}.${n}({ TableName: 'z', Key: { pk: 1 } }), doc.${n}({ TableName: 'z' })];
  }
}`;
    const py = `import boto3
table = boto3.resource("dynamodb").Table("${n}")
class ${n}:
    def ${n}(self, ${n}):
        table.put_item(Item={"pk": f"{${n}}#1", "${n}": ${n}})
        return getattr(table, "${n}")(Key={"pk": ${n}})
`;
    for (const [file, text, lang] of [
      ['repo.js', js, 'javascript'],
      ['repo.ts', js, 'typescript'],
      ['repo.py', py, 'python'],
    ] as const) {
      const r = analyzeSource(file, text, lang);
      assert.equal(r.skipped, null, `${n} in ${file}`);
      assert.ok(r.accesses.length >= (lang === 'python' ? 1 : 2), `${n} in ${file}: ${r.accesses.length} accesses`);
    }
  }
});

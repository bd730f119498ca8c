import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeSource } from '../../server/src/engine/analyze';
import { AnalyzedDocument } from '../../server/src/engine/incremental/document';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { observable } from './helpers';

/**
 * Functions that each declare the same local names (`out`, `key`, `pk`) next to
 * module-level constants of those names, and a function whose key is its caller's
 * argument: the shapes where an edit's declarations may or may not reach another
 * function's call site.
 */
const SOURCE = `import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from({} as never);
const PREFIX = 'BOARD#';
let pk = 'GLOBAL#all';
const key = 'CONFIG';

export async function readOne(id: string) {
  const out = await ddb.send(new GetCommand({ TableName: 'boards', Key: { PK: PREFIX + id } }));
  return out.Item;
}

export async function writeGlobal(score: number) {
  const out = await ddb.send(new PutCommand({ TableName: 'boards', Item: { PK: pk, score } }));
  if (score > 10) {
    const key = 'HIGH';
    await ddb.send(new PutCommand({ TableName: 'boards', Item: { PK: key, score } }));
  }
  return out;
}

export async function listConfig() {
  const out = await ddb.send(new QueryCommand({
    TableName: 'boards',
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': key },
  }));
  await touch(key);
  return out.Items;
}

async function touch(id: string) {
  await ddb.send(new PutCommand({ TableName: 'boards', Item: { PK: 'TOUCH#' + id } }));
}
`;

/** Declarations of the shared names, and edits that move code in and out of blocks. */
const SNIPPETS = [
  "const out = 'X';\n",
  "const key = 'LOCAL';\n",
  "let pk = 'P#' + Date.now();\n",
  "var PREFIX = 'OTHER#';\n",
  "const PREFIX = 'SHADOW#';\n",
  'pk = key;\n',
  '{\n',
  '}\n',
  '}',
  'function f() {\n',
  'if (x) {',
  ' ',
  'c',
];

test('declarations typed inside and outside blocks: incremental re-analysis equals a full analysis', async () => {
  await initParsers();
  const edit = fc.record({
    at: fc.nat(),
    cut: fc.nat({ max: 6 }),
    insert: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 3 })),
    // Half the edits land at a line's start, where a declaration makes a statement.
    lineStart: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
      const doc = new AnalyzedDocument('boards.ts', 'typescript', SOURCE);
      try {
        for (const e of edits) {
          let start = e.at % (doc.content.length + 1);
          if (e.lineStart) start = doc.content.lastIndexOf('\n', start - 1) + 1;
          // Below the import line: text before the file's first token moves where the
          // evaluators look for a function's callers (a separate bug), which is not what
          // this test is about.
          start = Math.max(start, doc.content.indexOf('\n') + 1);
          const end = Math.min(doc.content.length, start + (e.lineStart ? 0 : e.cut));
          const incremental = doc.applyEdits([{ start, end, text: e.insert }]);
          assert.equal(observable(incremental), observable(doc.analyzeWithoutReuse()));
          if (!incremental.syntaxErrors)
            assert.equal(observable(incremental), observable(analyzeSource('boards.ts', doc.content, 'typescript')));
        }
      } finally {
        doc.dispose();
      }
    }),
    { numRuns: Number(process.env.SHARDLENS_PROPERTY_RUNS ?? 200) },
  );
});

test("typing on a line that declares a local keeps other functions' call sites; a module-level declaration does not", async () => {
  await initParsers();
  const doc = new AnalyzedDocument('boards.ts', 'typescript', SOURCE);
  const sitesOf = (fn: string) => {
    const line = doc.content.split('\n').findIndex((l) => l.includes(`function ${fn}(`));
    return doc.analysis.accesses.filter((a) => a.span.startLine > line && a.span.startLine < line + 3);
  };
  const before = { readOne: sitesOf('readOne'), listConfig: sitesOf('listConfig') };
  assert.equal(before.readOne.length, 1);
  assert.equal(before.listConfig.length, 1);

  // `  const out = await ...` in writeGlobal: a local of writeGlobal's body.
  const local = doc.content.indexOf('  const out = await ddb.send(new PutCommand');
  doc.applyEdits([{ start: local + 8, end: local + 8, text: 'x' }]);
  assert.ok(sitesOf('readOne')[0] === before.readOne[0], "readOne's site was kept");
  assert.ok(sitesOf('listConfig')[0] === before.listConfig[0], "listConfig's site was kept");
  doc.applyEdits([{ start: local + 8, end: local + 9, text: '' }]);
  assert.equal(observable(doc.analysis), observable(analyzeSource('boards.ts', SOURCE, 'typescript')));

  // `const key = 'CONFIG'` at module level: listConfig resolves it, so its site is re-evaluated.
  const kept = sitesOf('listConfig')[0];
  const global = doc.content.indexOf("const key = 'CONFIG'");
  doc.applyEdits([{ start: global + 14, end: global + 14, text: 'X' }]);
  assert.ok(sitesOf('listConfig')[0] !== kept, "listConfig's site was re-evaluated");
  assert.equal(observable(doc.analysis), observable(analyzeSource('boards.ts', doc.content, 'typescript')));
  doc.dispose();
});

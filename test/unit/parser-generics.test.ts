import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSource } from '../../server/src/engine/analyze';
import { awaitedGenericsForParsing, initParsers, parse } from '../../server/src/engine/syntax/parser';

// tree-sitter's TypeScript grammar takes `await` into the callee of a call with type
// arguments (`await repo.get<User>(id)` is a call of `await repo.get`); the text is
// parsed with those type arguments blanked, so the call keeps its callee and offsets.

test('the type arguments of awaited calls are blanked, every offset kept', () => {
  const cases: Array<[string, string]> = [
    ['await getItem<Flags>(TABLE)', '<Flags>'],
    ['await this.repo.get<Record<string, number>>(id)', '<Record<string, number>>'],
    ['await db?.query<{ pk: string }>(q)', '<{ pk: string }>'],
    ['await repo.get<\n  User\n>(id)', '<\n  User\n>'],
  ];
  for (const [text, args] of cases) {
    const blank = args.replace(/[^\n]/g, ' ');
    assert.equal(awaitedGenericsForParsing(text), text.replace(args, blank));
  }
});

test('comparisons, function types and calls without await are left as written', () => {
  for (const text of [
    'if (await count < 10) go();',
    'await a < b && c > d;',
    'await run<(x: string) => void>(f)',
    'const x = getItem<Flags>(TABLE);',
    'await new Repo<User>(db)',
  ])
    assert.equal(awaitedGenericsForParsing(text), text);
});

test('the awaited generic call is read as a call of its own name', async () => {
  await initParsers();
  const tree = parse('typescript', "async function f() { const a = await repo.get<User>('x'); }");
  const call = tree.rootNode.descendantsOfType('call_expression')[0]!;
  assert.equal(call.childForFieldName('function')?.text, 'repo.get');
  assert.equal(call.parent?.type, 'await_expression');
  tree.delete();
});

test('a same-file wrapper called with type arguments feeds its key', async () => {
  await initParsers();
  const text = [
    "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';",
    'declare const doc: DynamoDBDocumentClient;',
    'async function getOne<T>(pk: string): Promise<T> {',
    "  return (await doc.send(new GetCommand({ TableName: 'items', Key: { pk } }))).Item as T;",
    '}',
    "export const flags = async () => await getOne<{ on: boolean }>('FLAGS');",
  ].join('\n');
  const r = analyzeSource('flags.ts', text, 'typescript');
  const keys = r.accesses.map((a) =>
    a.partitionKey?.template.parts.map((p) => ('literal' in p ? p.literal : '?')).join(''),
  );
  assert.ok(keys.includes('FLAGS'), keys.join(', '));
});

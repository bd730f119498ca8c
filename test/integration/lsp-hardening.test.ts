import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer, until, type Session } from './lsp-client';

/**
 * What a careless or hostile client sends: ranges with their ends swapped or past the
 * text, requests with `null` where an object belongs, a close for a document never
 * opened. The real server bundle, over stdio, with its test-only request
 * (`shardlens/test/documentText`, registered by SHARDLENS_TEST_REQUESTS=1) to read
 * back the text it holds.
 */

const HEADER = `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from({} as never);
`;
const PUT_A = `export const a = () => ddb.send(new PutCommand({ TableName: 't', Item: { PK: 'HOT#A', n: 1 } }));\n`;
const PUT_B = `export const b = () => ddb.send(new PutCommand({ TableName: 't', Item: { PK: 'HOT#B', n: 1 } }));\n`;
const TEXT = HEADER + PUT_A + PUT_B;
const LINE_B = 3;

let session: Session;
let folder: string;
let version = 1;

before(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-hardening-'));
  session = startServer(folder, { testRequests: true });
  await session.initialize();
});

after(() => {
  session?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

const uriOf = (name: string) => pathToFileURL(path.join(folder, name)).toString();

function open(uri: string, text: string): Promise<void> {
  return session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: version++, text },
  });
}

/** The server's two copies of the text (its document's and its syntax tree's), once its analysis has published. */
function held(uri: string): Promise<{ text: string | null; treeText: string | null }> {
  return session.conn.sendRequest('shardlens/test/documentText', { textDocument: { uri } });
}

const codes = (uri: string) => (session.diagnostics.get(uri) ?? []).map((d) => `${d.range.start.line} ${d.code}`);

test('a didChange range with its ends swapped deletes, as in the client, instead of duplicating', async () => {
  const uri = uriOf('reversed.ts');
  await open(uri, TEXT);
  await held(uri);
  assert.deepEqual(codes(uri), ['2 SL001', '3 SL001']);
  // Delete line B, written end first: (4,0) → (3,0).
  await session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: version++ },
    contentChanges: [
      { range: { start: { line: LINE_B + 1, character: 0 }, end: { line: LINE_B, character: 0 } }, text: '' },
    ],
  });
  const { text, treeText } = await held(uri);
  assert.equal(text, HEADER + PUT_A);
  assert.equal(treeText, HEADER + PUT_A, 'the syntax tree was edited with another text than the document');
  // What a user sees: B's finding is gone and A's stays (a duplicated line would add findings).
  assert.deepEqual(codes(uri), ['2 SL001']);
});

test('positions past the end of a line or of the text are clamped as the client clamps them', async () => {
  const uri = uriOf('clamped.ts');
  await open(uri, TEXT);
  await session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: version++ },
    contentChanges: [
      // Past the end of line 0 (its line break stays), then past the last line, then negative.
      { range: { start: { line: 0, character: 500 }, end: { line: 0, character: 900 } }, text: ' // end' },
      { range: { start: { line: 99, character: 3 }, end: { line: 120, character: 0 } }, text: '// tail\n' },
      { range: { start: { line: -4, character: -2 }, end: { line: 0, character: 0 } }, text: '// top\n' },
    ],
  });
  const lines = TEXT.split('\n');
  lines[0] += ' // end';
  const expected = '// top\n' + lines.join('\n') + '// tail\n';
  assert.deepEqual(await held(uri), { text: expected, treeText: expected });
  assert.deepEqual(codes(uri), ['3 SL001', '4 SL001']);
});

test('a malformed didChange is refused whole: the text stays as it was', async () => {
  const uri = uriOf('malformed.ts');
  await open(uri, TEXT);
  await session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: version++ },
    contentChanges: [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// fine\n' },
      { range: { start: { line: 'x', character: 0 }, end: null }, text: 'broken' },
    ],
  });
  assert.deepEqual(await held(uri), { text: TEXT, treeText: TEXT });
});

async function rejection(method: string, params: unknown): Promise<{ code: number; message: string }> {
  const answer = await session.rawRequest(method, params);
  if (answer.error) return answer.error;
  assert.fail(`${method} ${JSON.stringify(params)} answered ${JSON.stringify(answer.result)}`);
}

test('hover and code actions with missing params answer InvalidParams, with a message that names what is missing', async () => {
  const uri = uriOf('params.ts');
  await open(uri, TEXT);
  const cases: Array<[string, unknown, RegExp]> = [
    ['textDocument/hover', null, /textDocument\/hover needs params/],
    ['textDocument/hover', { textDocument: { uri } }, /needs a position/],
    ['textDocument/hover', { textDocument: { uri }, position: { line: '2', character: 0 } }, /needs a position/],
    [
      'textDocument/codeAction',
      {
        textDocument: { uri },
        range: { start: { line: 2, character: 0 }, end: { line: 2, character: 5 } },
        context: null,
      },
      /needs a context/,
    ],
    ['textDocument/codeAction', null, /textDocument\/codeAction needs params/],
    ['textDocument/codeAction', { textDocument: { uri }, range: null, context: { diagnostics: [] } }, /needs a range/],
  ];
  for (const [method, params, message] of cases) {
    const e = await rejection(method, params);
    assert.equal(e.code, -32602, `${method} ${JSON.stringify(params)}: ${e.message}`);
    assert.match(e.message, message);
    assert.doesNotMatch(e.message, /TypeError|Cannot read|undefined/);
  }
  // The same server still answers well-formed requests.
  const actions = (await session.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri },
    range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } },
    context: { diagnostics: [{ message: 'no range' }] },
  })) as Array<{ title: string }>;
  assert.ok(actions.some((a) => a.title === 'Ignore SL001 on this line'));
});

test('closing a document never opened, or one not on disk, leaves no unreadable file in checkWorkspace', async () => {
  const ghost = uriOf('never-opened.ts');
  await session.conn.sendNotification('textDocument/didClose', { textDocument: { uri: ghost } });
  const unsaved = uriOf('unsaved.ts');
  await open(unsaved, TEXT);
  await held(unsaved);
  assert.ok(codes(unsaved).length > 0);
  await session.conn.sendNotification('textDocument/didClose', { textDocument: { uri: unsaved } });
  // Its findings go with the buffer.
  await until(
    'the unsaved buffer’s diagnostics to be cleared',
    () => codes(unsaved).length === 0,
    () => codes(unsaved),
  );
  const r = (await session.conn.sendRequest('shardlens/checkWorkspace')) as { skipped: Array<{ file: string }> };
  assert.deepEqual(
    r.skipped.map((s) => path.basename(s.file)),
    [],
  );
});

test('an edit after a lone CR (old Mac line ends) keeps every finding on its line', async () => {
  const uri = uriOf('cr-only.ts');
  // Bare statements: a site the edit does not touch is reused, moved by the rows the edit adds.
  const cr = (HEADER + PUT_A + PUT_B).replace(/export const \w = \(\) => /g, '').replace(/\n/g, '\r');
  await open(uri, cr);
  await held(uri);
  assert.deepEqual(codes(uri), ['2 SL001', '3 SL001']);
  // Right after the CR that ends line 1: it becomes a CRLF, still one line break.
  await session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: version++ },
    contentChanges: [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: '\n' }],
  });
  const expected = cr.replace('never);\r', 'never);\r\n');
  assert.deepEqual(await held(uri), { text: expected, treeText: expected });
  // Read as one more line break, the tree would put the findings on lines 3 and 4.
  assert.deepEqual(codes(uri), ['2 SL001', '3 SL001']);
});

test('a file URI naming another host, and watched-file events without changes, are handled without errors', async () => {
  const uri = 'file://other-host/share/remote.ts';
  const logged = session.errors.length;
  await open(uri, TEXT);
  await session.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: null });
  await session.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: 'file:%zz', type: 1 }, null],
  });
  // Keyed by its URI, like an unsaved buffer: analysed, and its findings published to it.
  assert.deepEqual(await held(uri), { text: TEXT, treeText: TEXT });
  assert.deepEqual(codes(uri), ['2 SL001', '3 SL001']);
  assert.deepEqual(session.errors.slice(logged), []);
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type {
  CodeAction,
  CreateFile,
  Diagnostic,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { asChanges } from './lsp-actions';
import { startServer, until, type Session } from './lsp-client';

/**
 * The quick fixes as a third-party LSP client sees them, over stdio against the built
 * server: asked for with no `context.diagnostics`, applied to the text, re-analysed by
 * the engine; and the command form, which computes a fix with answers and sends it
 * back as `workspace/applyEdit`.
 */

const TEXT = `import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from({} as never);
const GLOBAL_BOARD = 'LEADERBOARD#GLOBAL';
const DAILY_SHARDS = 4;

export async function submitScore(playerId: string): Promise<void> {
  await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: GLOBAL_BOARD, SK: playerId } }));
}

export async function submitDaily(playerId: string): Promise<void> {
  const shard = Math.floor(Math.random() * DAILY_SHARDS);
  await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: \`BOARD#daily#\${shard}\`, SK: playerId } }));
}

export async function readDaily() {
  return ddb.send(new QueryCommand({ TableName: 'leaderboard', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'BOARD#daily' } }));
}
`;
const HOT_LINE = 7;
const WRITER_LINE = 12;
const READ_LINE = 16;

let session: Session;
let folder: string;
let file: string;
let uri: string;
let hot: Diagnostic;

const actionsAt = (range: Diagnostic['range']) =>
  session.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri },
    range,
    context: { diagnostics: [] },
  }) as Promise<CodeAction[]>;

/** A WorkspaceEdit's edits of one file, as the fixes' own TextChanges, applied to its text. */
function applyEdit(text: string, edits: TextEdit[]): string {
  return applyChanges(text, asChanges(file, edits));
}

const hotKeyFindings = (text: string) =>
  analyzeSource(file, text, 'typescript').findings.filter(
    (f) => ['SL001', 'SL002', 'SL003'].includes(f.rule) && f.message.includes('LEADERBOARD#GLOBAL'),
  );

before(async () => {
  await initParsers();
  folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-fixes-')));
  file = path.join(folder, 'scores.ts');
  fs.writeFileSync(file, TEXT);
  uri = pathToFileURL(file).toString();
  session = startServer(folder);
  await session.initialize({
    initializationOptions: { askFix: true },
    workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } },
  });
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text: TEXT },
  });
  const ds = await until('the diagnostics of scores.ts', () =>
    session.diagnostics.get(uri)?.length ? session.diagnostics.get(uri) : undefined,
  );
  hot = ds.find((d) => d.code === 'SL001' && d.range.start.line === HOT_LINE)!;
  assert.ok(hot, JSON.stringify(ds));
});

after(() => {
  session?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('code actions at the diagnostic range with no context.diagnostics carry the write-shard fixes', async () => {
  const actions = await actionsAt(hot.range);
  assert.deepEqual(
    actions.map((a) => `${a.title}${a.isPreferred ? ' (preferred)' : ''}`),
    [
      'Add a random write-shard suffix (10 shards) (preferred)',
      'Add a random write-shard suffix (10 shards)…',
      'Add a calculated shard suffix: hash(SK) mod 10',
      'Add a calculated shard suffix: hash(SK) mod 10…',
      'Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to the random suffix\'s 10 shards',
      'Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to the random suffix\'s 10 shards…',
      'Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to hash(SK) mod 10',
      'Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to hash(SK) mod 10…',
      'Ignore SL001 on this line',
      'Open documentation for SL001',
    ],
  );
  for (const a of actions) assert.deepEqual(a.diagnostics, [hot]);
  // The asking form names the fix for shardlens.fix.ask, with its question.
  assert.deepEqual(actions[1].command!.command, 'shardlens.fix.ask');
  assert.deepEqual(actions[1].command!.arguments![0].questions, [{ kind: 'shard-count', suggested: 10 }]);
});

test('the write-shard edit, applied to the text, leaves no hot-key finding for the key', async () => {
  assert.equal(hotKeyFindings(TEXT).length, 1, 'the premise: the engine reports the key before the fix');
  for (const title of [
    'Add a random write-shard suffix (10 shards)',
    'Add a calculated shard suffix: hash(SK) mod 10',
  ]) {
    const action = (await actionsAt(hot.range)).find((a) => a.title === title)!;
    const edit = action.edit!;
    assert.deepEqual(Object.keys(edit.changes!), [uri], 'one file, by `changes`');
    const fixed = applyEdit(TEXT, edit.changes![uri]);
    assert.notEqual(fixed, TEXT);
    assert.deepEqual(hotKeyFindings(fixed), [], `${title}:\n${fixed}`);
  }
  // The server sees the fixed text too: its diagnostics drop the finding.
  const random = (await actionsAt(hot.range))[0];
  const fixed = applyEdit(TEXT, random.edit!.changes![uri]);
  await session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: fixed }],
  });
  await until('SL001 to go', () => !session.diagnostics.get(uri)!.some((d) => d.code === 'SL001'));
  assert.deepEqual(await actionsAt(hot.range).then((a) => a.filter((x) => x.title.startsWith('Add a random'))), []);
  // Back to the original text for the other tests.
  await session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 3 },
    contentChanges: [{ text: TEXT }],
  });
  await until('SL001 to return', () => session.diagnostics.get(uri)!.some((d) => d.code === 'SL001'));
});

test('reader fixes: on a read that misses shards, and on a sharded writer that has no finding', async () => {
  const read = session.diagnostics.get(uri)!.find((d) => d.code === 'SL006')!;
  assert.equal(read.range.start.line, READ_LINE);
  const titles = (await actionsAt(read.range)).map((a) => a.title);
  assert.deepEqual(titles.slice(0, 2), [
    'Read every shard: replace this read with queryBoardDailyShards() (generated)',
    'Read every shard: replace this read with queryBoardDailyShards() (generated)…',
  ]);
  // The reader is wired to the read it replaces, never generated there to be left uncalled.
  assert.ok(!titles.some((t) => t.startsWith('Generate the scatter-gather reader')), titles.join('\n'));
  const onWriter = await actionsAt({
    start: { line: WRITER_LINE, character: 0 },
    end: { line: WRITER_LINE, character: 0 },
  });
  assert.deepEqual(
    onWriter.map((a) => a.title),
    [
      'Generate the scatter-gather reader queryBoardDailyShards() for leaderboard · PK = BOARD#daily',
      'Generate the scatter-gather reader queryBoardDailyShards() for leaderboard · PK = BOARD#daily…',
    ],
  );
  const withReader = applyEdit(TEXT, onWriter[0].edit!.changes![uri]);
  assert.match(withReader, /async function queryBoardDailyShards\(/);
  assert.match(withReader, /Promise\.all/);
});

const execute = (args: unknown) =>
  session.conn.sendRequest('workspace/executeCommand', {
    command: 'shardlens.fix.apply',
    arguments: [args],
  }) as Promise<{
    applied: boolean;
    reason?: string;
    reveal?: { uri: string };
  }>;

test('shardlens.fix.apply computes the fix with the answers and sends it as workspace/applyEdit', async () => {
  const target = { uri, range: hot.range, rule: 'SL001', fixId: 'add-random-shard' };
  const before = session.appliedEdits.length;
  assert.deepEqual(await execute({ ...target, answers: { shardCount: 16 } }), { applied: true });
  assert.equal(session.appliedEdits.length, before + 1);
  const sent = session.appliedEdits.at(-1)!;
  assert.equal(sent.label, 'Add a random write-shard suffix (16 shards)');
  const fixed = applyEdit(TEXT, (sent.edit as WorkspaceEdit).changes![uri]);
  assert.match(fixed, /const GLOBAL_BOARD_SHARDS = 16;/);
  assert.deepEqual(hotKeyFindings(fixed), []);

  // A client that refuses the edit, answers out of range, a finding that is not there:
  // each is a reason, and only the first reaches the client.
  session.applyEdits = false;
  assert.deepEqual(await execute(target), { applied: false, reason: 'refused by the test' });
  session.applyEdits = true;
  const sentSoFar = session.appliedEdits.length;
  assert.match((await execute({ ...target, answers: { shardCount: 0 } })).reason!, /from 1 to 1000/);
  assert.match((await execute({ ...target, rule: 'SL004' })).reason!, /no SL004 finding/);
  assert.match((await execute({ ...target, fixId: 'nope' })).reason!, /not offered/);
  assert.match((await execute(null)).reason!, /needs \{ uri, range/);
  assert.equal(session.appliedEdits.length, sentSoFar);
});

test('the reader written into a file that does not exist is created by the edit', async () => {
  const target = path.join(folder, 'daily-reader.ts');
  const result = await execute({
    uri,
    range: { start: { line: WRITER_LINE, character: 0 }, end: { line: WRITER_LINE, character: 0 } },
    fixId: 'generate-reader',
    answers: { readerFile: pathToFileURL(target).toString() },
  });
  // The range names the writer's key expression, not the line: nothing there.
  assert.equal(result.applied, false);
  const writerKey = TEXT.split('\n')[WRITER_LINE].indexOf('`BOARD#daily');
  const ok = await execute({
    uri,
    range: {
      start: { line: WRITER_LINE, character: writerKey },
      end: { line: WRITER_LINE, character: TEXT.split('\n')[WRITER_LINE].indexOf('`, SK') + 1 },
    },
    fixId: 'generate-reader',
    answers: { readerFile: pathToFileURL(target).toString() },
  });
  assert.equal(ok.applied, true, ok.reason);
  assert.equal(ok.reveal?.uri, pathToFileURL(target).toString());
  const edit = session.appliedEdits.at(-1)!.edit as WorkspaceEdit;
  const [create, write] = edit.documentChanges as [CreateFile, TextDocumentEdit];
  assert.deepEqual(create, {
    kind: 'create',
    uri: pathToFileURL(target).toString(),
    options: { ignoreIfExists: true },
  });
  const written = write.edits.map((e) => (e as TextEdit).newText).join('');
  assert.match(written, /export async function queryBoardDailyShards\(/);
  // Its imports come first in the new file.
  assert.ok(written.indexOf('import ') < written.indexOf('export async function'), written);
});

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { CodeActionParams, CreateFile, TextDocumentEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { normalizeSettings } from '../../protocol/src/settings';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { writerReaderFixes } from '../../server/src/features/fixes/reader-fixes';
import { codeActions, type ActionContext } from '../../server/src/lsp/code-actions';
import { answersOf, workspaceEdit } from '../../server/src/lsp/fix-actions';

/**
 * The code-action module on the engine's real findings and the features layer's real
 * fixes (no server, files held in memory): which actions a finding gets, their
 * `WorkspaceEdit`s, and a reader written into a file that does not exist yet.
 */

const DIR = '/project/src';
const FILE = path.join(DIR, 'scores.ts');
const TEXT = `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

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
`;
const HOT_LINE = 7;
const WRITER_LINE = 12;
/** Where `GLOBAL_BOARD` is written in the call (the finding's range). */
const HOT_COLUMN = TEXT.split('\n')[HOT_LINE].indexOf('GLOBAL_BOARD');
const doc = TextDocument.create('file:///project/src/scores.ts', 'typescript', 1, TEXT);
const params = (line: number, only?: string[]): CodeActionParams => ({
  textDocument: { uri: doc.uri },
  range: { start: { line, character: 0 }, end: { line, character: 0 } },
  context: { diagnostics: [], only },
});

let base: ActionContext;
before(async () => {
  await initParsers();
  const files = new Map([[FILE, TEXT]]);
  const index = new WorkspaceIndex({ root: DIR, openText: (f) => files.get(f) ?? null });
  index.analyzeFile(FILE);
  const ctx = fixContextOf(index, { openText: (f) => files.get(f) ?? null });
  base = {
    doc,
    language: 'typescript',
    findings: index.findingsFor(FILE),
    settings: normalizeSettings({}),
    accesses: ctx.analysisOf(FILE)!.accesses,
    fixes: { ctx, client: { createFiles: true, askFix: true }, ofFinding: allFixes, ofWriter: writerReaderFixes },
  };
});

test('a hot key gets the write-shard fixes (default and asking form) before ignore and docs', () => {
  const actions = codeActions(base, params(HOT_LINE));
  assert.deepEqual(
    actions.map(
      (a) => `${a.kind}: ${a.title}${a.isPreferred ? ' (preferred)' : ''}${a.command ? ` → ${a.command.command}` : ''}`,
    ),
    [
      'quickfix: Add a random write-shard suffix (10 shards) (preferred)',
      'quickfix: Add a random write-shard suffix (10 shards)… → shardlens.fix.ask',
      'quickfix: Add a calculated shard suffix: hash(SK) mod 10',
      'quickfix: Add a calculated shard suffix: hash(SK) mod 10… → shardlens.fix.ask',
      'quickfix: Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to the random suffix\'s 10 shards',
      'quickfix: Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to the random suffix\'s 10 shards… → shardlens.fix.ask',
      'quickfix: Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to hash(SK) mod 10',
      'quickfix: Generate a backfill script: move items under "LEADERBOARD#GLOBAL" to hash(SK) mod 10… → shardlens.fix.ask',
      'quickfix: Ignore SL001 on this line',
      'quickfix: Open documentation for SL001 → shardlens.openRuleDocs',
    ],
  );
  const ask = actions[1].command!.arguments![0];
  assert.deepEqual(
    { ...ask, title: undefined },
    {
      uri: doc.uri,
      range: { start: { line: HOT_LINE, character: HOT_COLUMN }, end: { line: HOT_LINE, character: HOT_COLUMN + 12 } },
      rule: 'SL001',
      fixId: 'add-random-shard',
      title: undefined,
      questions: [{ kind: 'shard-count', suggested: 10 }],
    },
  );
  // Every action is attached to the server's own diagnostic (the client sent none).
  for (const a of actions) assert.equal(a.diagnostics?.[0].code, 'SL001');
});

test('without the asking command or the fixes, only the default forms, or only ignore and docs', () => {
  const noAsk = codeActions(
    { ...base, fixes: { ...base.fixes!, client: { createFiles: true, askFix: false } } },
    params(HOT_LINE),
  );
  assert.ok(noAsk.every((a) => a.command?.command !== 'shardlens.fix.ask'));
  assert.equal(noAsk.length, 6, 'two fixes, their two backfill scripts, ignore and docs');
  assert.deepEqual(
    codeActions({ ...base, fixes: undefined }, params(HOT_LINE)).map((a) => a.title),
    ['Ignore SL001 on this line', 'Open documentation for SL001'],
  );
  // A rule turned off offers nothing, not even its fixes.
  assert.deepEqual(
    codeActions({ ...base, settings: normalizeSettings({ rules: { SL001: 'off' } }) }, params(HOT_LINE)),
    [],
  );
  // No fix is safe: fix-all is not answered even when asked for by name.
  assert.deepEqual(codeActions(base, params(HOT_LINE, ['source.fixAll.shardlens'])), []);
});

test('a sharded writer with no finding offers its scatter-gather reader', () => {
  const actions = codeActions(base, params(WRITER_LINE));
  assert.deepEqual(
    actions.map((a) => a.title),
    [
      'Generate the scatter-gather reader queryBoardDailyShards() for leaderboard · PK = BOARD#daily',
      'Generate the scatter-gather reader queryBoardDailyShards() for leaderboard · PK = BOARD#daily…',
    ],
  );
  const edits = actions[0].edit!.changes![doc.uri];
  assert.match(edits.map((e) => e.newText).join(''), /Promise\.all/);
  assert.equal(actions[0].diagnostics, undefined, 'there is no diagnostic to attach');
  assert.equal(actions[1].command!.arguments![0].rule, undefined, 'a writer is named by its range, without a rule');
});

test('a reader written into a new file is a CreateFile and its edit; a client that cannot create gets none', () => {
  const writer = base.accesses!.find((a) => a.kind === 'write' && a.partitionKey!.span.startLine === WRITER_LINE)!;
  const target = path.join(DIR, 'daily-reader.ts');
  const [fix] = writerReaderFixes(writer, base.fixes!.ctx, { readerFile: target });
  const edit = workspaceEdit(fix, base.fixes!.ctx, { createFiles: true, askFix: false })!;
  assert.equal(edit.changes, undefined);
  const [create, write] = edit.documentChanges! as [CreateFile, TextDocumentEdit];
  assert.deepEqual(create, {
    kind: 'create',
    uri: 'file:///project/src/daily-reader.ts',
    options: { ignoreIfExists: true },
  });
  assert.equal(write.textDocument.uri, 'file:///project/src/daily-reader.ts');
  assert.match(
    write.edits.map((e) => ('newText' in e ? e.newText : '')).join(''),
    /export async function queryBoardDailyShards\(/,
  );
  assert.equal(workspaceEdit(fix, base.fixes!.ctx, { createFiles: false, askFix: false }), null);
});

test("a command's answers are checked before any fix is computed", () => {
  assert.deepEqual(answersOf({ shardCount: 16, hashAttribute: 'playerId' }), {
    shardCount: 16,
    hashAttribute: 'playerId',
  });
  assert.deepEqual(answersOf({ readerFile: 'file:///project/src/r.ts' }), { readerFile: '/project/src/r.ts' });
  assert.match(answersOf({ shardCount: 0 }) as string, /whole number from 1 to 1000/);
  assert.match(answersOf({ shardCount: 2.5 }) as string, /whole number/);
  assert.match(answersOf({ readerFile: 'untitled:x' }) as string, /file URI/);
});

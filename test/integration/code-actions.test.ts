import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { CodeActionParams } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { normalizeSettings } from '../../protocol/src/settings';
import { analyzeSource } from '../../server/src/engine/analyze';
import type { FixDescriptor } from '../../server/src/engine/model';
import { initParsers } from '../../server/src/engine/parser';
import { codeActions, type FixBuilder } from '../../server/src/lsp/code-actions';

/**
 * The code-action feature on the engine's real findings (no server): how a finding's
 * fix descriptors reach the builder of their kind, which the features layer fills in.
 */

const FILE = '/project/src/scores.ts';
const TEXT = `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from({} as never);
const GLOBAL_BOARD = 'LEADERBOARD#GLOBAL';

export async function submitScore(playerId: string): Promise<void> {
  await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: GLOBAL_BOARD, SK: playerId } }));
}
`;
const LINE = 6;
const doc = TextDocument.create('file:///project/src/scores.ts', 'typescript', 1, TEXT);
const params = (line: number): CodeActionParams => ({
  textDocument: { uri: doc.uri },
  range: { start: { line, character: 0 }, end: { line, character: 0 } },
  context: { diagnostics: [] },
});

before(() => initParsers());

test("a finding's fix descriptors reach the builder of their kind, with its diagnostic", () => {
  const { findings } = analyzeSource(FILE, TEXT, 'typescript');
  assert.deepEqual(
    findings.map((f) => `${f.rule} ${f.fixes.map((x) => x.kind)}`),
    ['SL001 add-shard-suffix'],
  );
  const seen: Array<{ fix: FixDescriptor; code: unknown; line: number }> = [];
  const addShardSuffix: FixBuilder = (fix, _doc, diagnostic) => {
    seen.push({ fix, code: diagnostic.code, line: diagnostic.range.start.line });
    return { title: 'Add a shard suffix' };
  };
  const ctx = { doc, language: 'typescript' as const, findings, settings: normalizeSettings({}) };
  const actions = codeActions({ ...ctx, builders: { 'add-shard-suffix': addShardSuffix } }, params(LINE));
  assert.deepEqual(
    actions.map((a) => `${a.kind}: ${a.title}`),
    ['quickfix: Add a shard suffix', 'quickfix: Ignore SL001 on this line', 'quickfix: Open documentation for SL001'],
  );
  assert.equal(seen.length, 1);
  assert.equal(seen[0].fix, findings[0].fixes[0], 'the descriptor is passed as the rule made it');
  assert.deepEqual([seen[0].code, seen[0].line], ['SL001', LINE]);
  assert.deepEqual(actions[0].diagnostics?.[0].code, 'SL001');

  // No builder registered (today): no action that would do nothing, only ignore and docs.
  assert.deepEqual(
    codeActions(ctx, params(LINE)).map((a) => a.title),
    ['Ignore SL001 on this line', 'Open documentation for SL001'],
  );
  // A rule turned off offers nothing, not even its descriptors' fixes.
  const off = { ...ctx, settings: normalizeSettings({ rules: { SL001: 'off' } }) };
  assert.deepEqual(codeActions({ ...off, builders: { 'add-shard-suffix': addShardSuffix } }, params(LINE)), []);
  assert.equal(seen.length, 1);
});

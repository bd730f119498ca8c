import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import type { JsonKeysReport } from '../../protocol/src/report';
import { deployedTableCandidates, normalizeSettings } from '../../protocol/src/settings';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import { FIXTURES } from './check-json';

/**
 * A table a template declares without a `TableName` gets its name at deploy time
 * (`<stack>-<LogicalId>-<SUFFIX>`): the keys report gives the logical ids an env-named
 * table is set to, so the mapping pick can offer the account's tables named after them
 * first. The CLI run as a real process (after `npm run build`).
 */

function keysJson(fixture: string): JsonKeysReport {
  const bin = path.join(__dirname, '..', '..', 'bin', 'shardlens.js');
  const r = spawnSync(process.execPath, [bin, 'keys', fixture, '--format', 'json'], {
    cwd: FIXTURES,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as JsonKeysReport;
}

test('SAM: the env-named table set to a !Ref table without a name carries its logical id; named tables none', () => {
  const report = keysJson('sam-app');
  const byName = new Map(report.tables.map((t) => [t.table, t]));
  assert.deepEqual(byName.get('$TABLE_NAME')?.logicalIds, ['TalliesTable']);
  // A TableName in the template (a literal, or one with the stage in it) is the name itself.
  assert.equal(byName.get('poll-sessions')?.logicalIds, undefined);
  assert.equal(byName.get('{$Stage}-poll-votes')?.logicalIds, undefined);
  const account = ['poll-sessions', 'dev-poll-votes', 'polls-dev-TalliesTable-1K9ZQ3B7XW2M', 'polls-dev-Tallies'];
  assert.deepEqual(deployedTableCandidates(byName.get('$TABLE_NAME')!.logicalIds!, account), [
    'polls-dev-TalliesTable-1K9ZQ3B7XW2M',
  ]);
});

test('CDK: the construct id of the table a stack passes in the environment, found with its hash', () => {
  const report = keysJson('cdk-app');
  const byName = new Map(report.tables.map((t) => [t.table, t]));
  assert.deepEqual(byName.get('$TABLE_NAME')?.logicalIds, ['VotesTable']);
  assert.equal(byName.get('poll-tallies')?.logicalIds, undefined);
  const account = ['poll-tallies', 'PollsStack-VotesTable5AB9F3C1-1XYZ2ABC3DEF', 'PollsStack-OldVotes-1XYZ2ABC3DEF'];
  assert.deepEqual(deployedTableCandidates(['VotesTable'], account), ['PollsStack-VotesTable5AB9F3C1-1XYZ2ABC3DEF']);
});

test('the hover of such a call says which table shardlens.tables maps it to, once it does', async () => {
  await initParsers();
  const dir = path.join(FIXTURES, 'sam-app');
  const index = new WorkspaceIndex({ root: dir, maxBytes: 1_000_000 });
  await indexWorkspace(index, collectFiles([dir]), { maxBytes: 1_000_000 });
  const tally = index.results().find((r) => r.file.endsWith(path.join('handlers', 'tally.js')))!;
  const access = tally.accesses.find((a) => a.table.kind === 'env')!;
  assert.ok(access, 'the tally handler writes to the env-named table');
  const hover = (tables: Record<string, string>) =>
    hoverMarkdown(access, tally.findings, normalizeSettings({ tables })).value;
  assert.match(hover({}), /states no `TableName`: the name is chosen at deploy time, so live heat needs it mapped/);
  const mapped = hover({ $TABLE_NAME: 'polls-dev-TalliesTable-1K9ZQ3B7XW2M' });
  assert.match(mapped, /`shardlens\.tables` maps it to `polls-dev-TalliesTable-1K9ZQ3B7XW2M`/);
  assert.doesNotMatch(mapped, /needs it mapped/);
});

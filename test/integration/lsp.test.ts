import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT, startServer, until as waitFor, type Session } from './lsp-client';

/** The real server bundle (`npm test` builds it) on a copy of examples/, driven over stdio by a real LSP client. */
let session: Session;
let workspace: string;
let conn: Session['conn'];
let diagnostics: Session['diagnostics'];
let statuses: Session['statuses'];
let capabilities: { codeActionProvider?: { codeActionKinds?: string[] } };

const uri = (rel: string) => pathToFileURL(path.join(workspace, rel)).toString();
const until = <T>(what: string, check: () => T | undefined | false) =>
  waitFor(what, check, () => session.statuses.at(-1));

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-'));
  fs.cpSync(path.join(ROOT, 'examples'), workspace, { recursive: true });
  session = startServer(workspace);
  conn = session.conn;
  diagnostics = session.diagnostics;
  statuses = session.statuses;
  capabilities = ((await session.initialize()) as { capabilities: typeof capabilities }).capabilities;
});

after(() => {
  session?.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
});

test('indexing the workspace publishes every finding, cross-file ones included', async () => {
  await until('indexing to finish', () => statuses.some((s) => !s.indexing && s.errors + s.warnings + s.infos === 14));
  const scores = diagnostics.get(uri('leaderboard/src/scores.ts'))!;
  assert.deepEqual(
    scores.map((d) => `${d.range.start.line + 1} ${d.code} ${d.severity}`),
    ['19 SL001 1', '75 SL001 1', '75 SL005 3', '85 SL003 2'],
  );
  assert.equal(scores[0].source, 'shardlens');
  assert.match(scores[0].codeDescription!.href, /docs\/rules\/SL001\.md$/);
  const reader = diagnostics.get(uri('leaderboard/src/top-players.ts'))!;
  assert.deepEqual(
    reader.map((d) => d.code),
    ['SL007'],
  );
});

test('hover over a hot key shows its template, verdict and ceiling', async () => {
  const file = path.join(workspace, 'leaderboard/src/scores.ts');
  const text = fs.readFileSync(file, 'utf8');
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: uri('leaderboard/src/scores.ts'), languageId: 'typescript', version: 1, text },
  });
  const hover = (await conn.sendRequest('textDocument/hover', {
    textDocument: { uri: uri('leaderboard/src/scores.ts') },
    position: { line: 18, character: 25 },
  })) as { contents: { value: string } };
  const md = hover.contents.value;
  assert.match(md, /^\*\*ShardLens\*\* · PutItem · `PK` = `BOARD#global` on table `leaderboard`/);
  assert.match(md, /Constant key: every request for it lands on one partition\./);
  assert.match(md, /Ceiling: \*\*1,000 WCU\/s\*\* for writes, \*\*3,000 RCU\/s\*\* for strongly consistent reads\./);
  assert.match(md, /Sharded over 10 keys \(`shardlens\.shards\.defaultCount`\) it would take 10,000 WCU\/s/);
  assert.match(md, /about \d+ bytes .* 1 WCU per write → at most \*\*1,000 writes\/s\*\*/);
  assert.match(md, /\*\*SL001\*\* \[constant-partition-key\]/);

  const sharded = (await conn.sendRequest('textDocument/hover', {
    textDocument: { uri: uri('leaderboard/src/scores.ts') },
    position: { line: 29, character: 25 },
  })) as { contents: { value: string } };
  assert.match(sharded.contents.value, /`BOARD#global#\{shard 0\.\.9\}`/);
  assert.match(sharded.contents.value, /10 keys × 1,000 WCU\/s = \*\*10,000 WCU\/s\*\*/);
});

test('code actions: the write-shard fixes, ignore the line and open the rule docs; no fix-all', async () => {
  const d = diagnostics.get(uri('leaderboard/src/scores.ts'))![0];
  const actions = (await conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: uri('leaderboard/src/scores.ts') },
    range: d.range,
    context: { diagnostics: [d] },
  })) as Array<{
    title: string;
    isPreferred?: boolean;
    edit?: { changes: Record<string, Array<{ newText: string; range: { start: { line: number } } }>> };
    command?: { command: string; arguments: string[] };
    diagnostics?: unknown[];
  }>;
  // The key's sharded writers use BOARD_SHARDS already: the fix reuses it, so it asks nothing
  // (changing the count would change every writer and reader) and has no asking form.
  assert.deepEqual(
    actions.map((a) => a.title),
    [
      'Add a random write-shard suffix (10 shards, BOARD_SHARDS)',
      'Add a calculated shard suffix: hash(SK) mod 10',
      'Ignore SL001 on this line',
      'Open documentation for SL001',
    ],
  );
  assert.equal(actions[0].isPreferred, true);
  assert.deepEqual(
    actions[0].edit!.changes[uri('leaderboard/src/scores.ts')].map((e) => e.newText),
    ['`BOARD#global#${Math.floor(Math.random() * BOARD_SHARDS)}`'],
  );
  // The calculated suffix hashes the item's sort key (the player), as the key's sharded writer does
  // with the player id: the same shard set, and one item's shard can be computed again.
  // In place it would pass the project's 120 columns: computed on the line before the put.
  const calculated = actions[1].edit!.changes[uri('leaderboard/src/scores.ts')].map((e) => e.newText);
  assert.ok(
    calculated.includes('  const shard = shardlensHash(String(`PLAYER#${playerId}`)) % BOARD_SHARDS;\n'),
    calculated.join('\n'),
  );
  assert.ok(calculated.includes('`BOARD#global#${shard}`'), calculated.join('\n'));
  const edit = actions[2].edit!.changes[uri('leaderboard/src/scores.ts')][0];
  assert.equal(edit.newText, '      // shardlens-ignore SL001\n');
  assert.equal(edit.range.start.line, 18);
  assert.equal(actions[3].command!.command, 'shardlens.openRuleDocs');
  for (const a of actions) assert.deepEqual(a.diagnostics, [d], 'the diagnostic the client sent is the one attached');

  // Fix-all applies only fixes that cannot change behaviour unexpectedly, and none can
  // (docs/fixes.md): it is neither advertised nor answered, whichever kind is asked for.
  assert.deepEqual(capabilities.codeActionProvider?.codeActionKinds, ['quickfix']);
  const ask = async (only?: string[]) =>
    (await conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: uri('leaderboard/src/scores.ts') },
      range: d.range,
      context: { diagnostics: [d], only },
    })) as Array<{ kind: string; title: string; edit?: unknown }>;
  for (const only of [['source.fixAll.shardlens'], ['source.fixAll'], ['source']]) {
    assert.deepEqual(await ask(only), [], `only: ${only}`);
  }
  assert.deepEqual(
    (await ask(['quickfix'])).map((a) => a.kind),
    ['quickfix', 'quickfix', 'quickfix', 'quickfix'],
  );
});

test('editing the document updates its diagnostics (incrementally, debounced)', async () => {
  const u = uri('leaderboard/src/scores.ts');
  const line = 18;
  const text = fs.readFileSync(path.join(workspace, 'leaderboard/src/scores.ts'), 'utf8').split('\n')[line];
  const start = text.indexOf("'BOARD#global'");
  await conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: u, version: 2 },
    contentChanges: [
      {
        range: { start: { line, character: start }, end: { line, character: start + "'BOARD#global'".length } },
        text: '`BOARD#global#${Math.floor(Math.random() * 10)}`',
      },
    ],
  });
  const after = await until('SL001 on line 19 to go', () => {
    const ds = diagnostics.get(u)!;
    return !ds.some((d) => d.range.start.line === line) && ds;
  });
  assert.deepEqual(
    after.map((d) => `${d.range.start.line + 1} ${d.code}`),
    ['75 SL001', '75 SL005', '85 SL003'],
  );
  // Typing the ignore comment the quick fix would insert silences the next line's finding.
  await conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: u, version: 3 },
    contentChanges: [
      {
        range: { start: { line: 74, character: 0 }, end: { line: 74, character: 0 } },
        text: '      // shardlens-ignore SL001\n',
      },
    ],
  });
  const ignored = await until('SL001 on the feed key to be ignored', () => {
    const ds = diagnostics.get(u)!;
    return !ds.some((d) => d.code === 'SL001') && ds;
  });
  assert.deepEqual(
    ignored.map((d) => `${d.range.start.line + 1} ${d.code}`),
    ['76 SL005', '86 SL003'],
  );
});

test('settings apply live: a rule turned off disappears, a severity override changes the level', async () => {
  session.settings = { rules: { SL003: 'off', SL005: 'warning' } };
  await conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  const ds = await until('SL003 to go', () => {
    const d = diagnostics.get(uri('leaderboard/src/scores.ts'))!;
    return !d.some((x) => x.code === 'SL003') && d;
  });
  assert.deepEqual(
    ds.map((d) => `${d.code} ${d.severity}`),
    ['SL005 2'],
  );
  session.settings = { enable: false };
  await conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await until('every diagnostic to be cleared', () => [...diagnostics.values()].every((d) => d.length === 0));
  session.settings = {};
  await conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await until(
    'diagnostics to come back',
    () => (diagnostics.get(uri('leaderboard/src/top-players.ts')) ?? []).length === 1,
  );
});

test('shardlens/checkWorkspace re-indexes and reports counts and skipped files', async () => {
  fs.writeFileSync(path.join(workspace, 'blob.py'), Buffer.from([0x62, 0x6f, 0x74, 0x6f, 0x33, 0, 1]));
  const r = (await conn.sendRequest('shardlens/checkWorkspace')) as {
    files: number;
    skipped: Array<{ file: string; reason: string }>;
    durationMs: number;
  };
  assert.ok(r.files >= 7);
  assert.deepEqual(
    r.skipped.map((s) => [path.basename(s.file), s.reason]),
    [['blob.py', 'binary file']],
  );
});

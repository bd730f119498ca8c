import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic, Hover, MarkupContent, Range } from 'vscode-languageserver-protocol';
import { startServer, until, type Session } from './lsp-client';

/**
 * The key model as an editor sees it over real LSP (stdio, the built bundle): the
 * diagnostic on the key expression itself, related information pointing at the
 * constant the key came from, code actions for a client that sends no diagnostics,
 * and documents whose language id says nothing.
 */

// The shape real projects use: a client and a key constant at module top, used in an async function.
const SCORES = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const GLOBAL_BOARD = 'LEADERBOARD#GLOBAL';

export async function submitScore(playerId: string, score: number): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: 'leaderboard',
      Item: {
        PK: GLOBAL_BOARD,
        SK: \`PLAYER#\${playerId}\`,
        score,
      },
    }),
  );
}

export async function topScores(): Promise<Record<string, unknown>[]> {
  const out = await ddb.send(
    new QueryCommand({
      TableName: 'leaderboard',
      IndexName: 'byScore',
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': GLOBAL_BOARD, ':prefix': 'PLAYER#' },
      Limit: 10,
    }),
  );
  return out.Items ?? [];
}
`;
const PUT_LINE = 11; // `        PK: GLOBAL_BOARD,`
const DECLARATION_LINE = 4; // `const GLOBAL_BOARD = ...`
const QUERY_LINE = 25; // `':pk': GLOBAL_BOARD`

const STORE_PY = `import boto3

GLOBAL_BOARD = "LEADERBOARD#GLOBAL"
table = boto3.resource("dynamodb").Table("leaderboard")


def submit_score(player_id, score):
    table.put_item(Item={"pk": GLOBAL_BOARD, "sk": f"PLAYER#{player_id}", "score": score})
`;

// A boto3 repository class reading one settings item by a constant key.
const SETTINGS_PY = `import boto3

SETTINGS_KEY = "SETTINGS#global"


class SettingsRepository:
    def __init__(self):
        self._table = boto3.resource("dynamodb").Table("settings")

    def load(self, version):
        response = self._table.get_item(Key={"pk": SETTINGS_KEY, "sk": version})
        return response.get("Item")
`;
const GET_LINE = 10;

let session: Session;
let folder: string;
const uri = (rel: string) => pathToFileURL(path.join(folder, rel)).toString();
const scoresUri = () => uri('board/src/scores.ts');

const column = (line: number, text: string) => SCORES.split('\n')[line].indexOf(text);

/** The text a range covers in `text` (single-line ranges). */
function textAt(text: string, r: Range): string {
  assert.equal(r.start.line, r.end.line, `expected a one-line range, got ${JSON.stringify(r)}`);
  return text.split('\n')[r.start.line].slice(r.start.character, r.end.character);
}

const published = (u: string, what: string): Promise<Diagnostic[]> =>
  until(
    what,
    () => {
      const ds = session.diagnostics.get(u);
      return ds && ds.length > 0 && ds;
    },
    () => [...session.diagnostics.keys()],
  );

async function hover(u: string, line: number, character: number): Promise<string> {
  const h = (await session.conn.sendRequest('textDocument/hover', {
    textDocument: { uri: u },
    position: { line, character },
  })) as Hover | null;
  assert.ok(h, `no hover at ${line + 1}:${character + 1}`);
  return (h.contents as MarkupContent).value;
}

before(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-keys-'));
  fs.mkdirSync(path.join(folder, 'board', 'src'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'board', 'src', 'scores.ts'), SCORES);
  session = startServer(folder);
  await session.initialize();
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: scoresUri(), languageId: 'typescript', version: 1, text: SCORES },
  });
});

after(() => {
  session?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('the diagnostic covers the key expression at its use site, not the whole call', async () => {
  const ds = await published(scoresUri(), 'the diagnostics of scores.ts');
  const put = ds.find((d) => d.range.start.line === PUT_LINE);
  assert.ok(put, `no diagnostic on line ${PUT_LINE + 1}: ${JSON.stringify(ds.map((d) => d.range))}`);
  assert.equal(put.code, 'SL001');
  assert.equal(textAt(SCORES, put.range), 'GLOBAL_BOARD');
  const query = ds.find((d) => d.range.start.line === QUERY_LINE);
  assert.ok(query, `no diagnostic on the query's key, line ${QUERY_LINE + 1}`);
  assert.equal(textAt(SCORES, query.range), 'GLOBAL_BOARD');
});

test('related information points at the declaration of the constant the key came from', async () => {
  const ds = await published(scoresUri(), 'the diagnostics of scores.ts');
  const put = ds.find((d) => d.range.start.line === PUT_LINE)!;
  const related = put.relatedInformation ?? [];
  const declaration = related.find(
    (r) => r.location.uri === scoresUri() && r.location.range.start.line === DECLARATION_LINE,
  );
  assert.ok(declaration, `no related location on line ${DECLARATION_LINE + 1}: ${JSON.stringify(related)}`);
  const line = SCORES.split('\n')[DECLARATION_LINE];
  assert.equal(line.slice(declaration.location.range.start.character).startsWith('GLOBAL_BOARD'), true, line);
  assert.match(declaration.message, /GLOBAL_BOARD/);
});

test('code actions at the diagnostic line come with no context.diagnostics (as Neovim may send)', async () => {
  const ds = await published(scoresUri(), 'the diagnostics of scores.ts');
  const put = ds.find((d) => d.range.start.line === PUT_LINE)!;
  const at = (line: number) =>
    session.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: scoresUri() },
      // The cursor at the start of the line: on the finding's line, outside its range.
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      context: { diagnostics: [] },
    }) as Promise<CodeAction[]>;
  const actions = await at(PUT_LINE);
  assert.deepEqual(
    actions.map((a) => a.title),
    // Nothing reads the board's items one by one, so the calculated suffix (a hash of the player's
    // sort key) is offered beside the random one. The byScore query is keyed on the same PK, so
    // the sharded PK shards it too: both fixes rewrite it to read every shard.
    [
      'Add a random write-shard suffix (10 shards, 1 read of every shard)',
      'Add a calculated shard suffix: hash(SK) mod 10 (and 1 other access of the key)',
      'Ignore SL001 on this line',
      'Open documentation for SL001',
    ],
  );
  // The random suffix reaches the index query too: topScores() now calls a reader of every shard.
  const shardEdits = actions[0].edit?.changes?.[scoresUri()] ?? [];
  assert.ok(
    shardEdits.some((e) => e.range.start.line === QUERY_LINE - 5 && /^queryLeaderboardGlobal\w*\(\)$/.test(e.newText)),
    JSON.stringify(shardEdits.map((e) => [e.range.start.line, e.newText.slice(0, 60)])),
  );
  const edit = actions[2].edit!.changes![scoresUri()][0];
  assert.equal(edit.newText, '        // shardlens-ignore SL001\n');
  assert.equal(edit.range.start.line, PUT_LINE);
  // With none sent, the server attaches its own diagnostic, as it published it.
  for (const a of actions) assert.deepEqual(a.diagnostics, [put]);
  assert.deepEqual(await at(PUT_LINE - 1), [], 'a line without a finding gets no quick fix');
});

test('hover names the constant the key came through, the index and the sort-key condition', async () => {
  const put = await hover(scoresUri(), PUT_LINE, column(PUT_LINE, 'GLOBAL_BOARD') + 2);
  assert.match(put, /^\*\*ShardLens\*\* · PutItem · `PK` = `LEADERBOARD#GLOBAL` on table `leaderboard`/);
  assert.match(put, /Partition key from `GLOBAL_BOARD` \(line 5\)/);
  assert.match(put, /Ceiling: \*\*1,000 WCU\/s\*\* for writes/);
  const query = await hover(scoresUri(), QUERY_LINE, column(QUERY_LINE, 'GLOBAL_BOARD') + 2);
  assert.match(
    query,
    /^\*\*ShardLens\*\* · Query · `PK` = `LEADERBOARD#GLOBAL` on index `byScore` of table `leaderboard`/,
  );
  assert.match(query, /Sort key `SK` begins_with `PLAYER#`/);
  // The index has its own section: the read is served by the index's partitions.
  assert.match(query, /\*\*Index\*\* `byScore`: this Query reads the index's partitions by `PK`, not the table's\./);
  assert.doesNotMatch(put, /\*\*Index\*\*/);
});

test('a read quotes the read ceiling (3,000 RCU/s, eventually consistent reads at half), never write capacity', async () => {
  const query = await hover(scoresUri(), QUERY_LINE, column(QUERY_LINE, 'GLOBAL_BOARD') + 2);
  assert.match(
    query,
    /Ceiling: \*\*3,000 RCU\/s\*\* for reads; eventually consistent \(the default\), each read of up to 4 KB costs half an RCU: at most \*\*6,000 reads\/s\*\*/,
  );
  assert.doesNotMatch(query, /WCU/);
  // A GetItem (ConsistentRead not read for item reads): both costs, no write figure.
  const u = uri('board/settings_repository.py');
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: u, languageId: 'python', version: 1, text: SETTINGS_PY },
  });
  const line = SETTINGS_PY.split('\n')[GET_LINE];
  // The document is analysed on arrival; ask until its hover is there.
  let get = '';
  for (let i = 0; i < 80 && !get.includes('GetItem'); i++) {
    const h = (await session.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: u },
      position: { line: GET_LINE, character: line.indexOf('SETTINGS_KEY') + 2 },
    })) as Hover | null;
    get = h ? (h.contents as MarkupContent).value : '';
    if (!get.includes('GetItem')) await new Promise((r) => setTimeout(r, 25));
  }
  assert.match(get, /^\*\*ShardLens\*\* · GetItem · `pk` = `SETTINGS#global` on table `settings`/);
  assert.match(
    get,
    /Ceiling: \*\*3,000 RCU\/s\*\* for reads; an eventually consistent read \(the default\) of up to 4 KB costs half an RCU, a strongly consistent one 1 RCU: at most \*\*6,000 reads\/s\*\* \(3,000 strongly consistent\)/,
  );
  assert.doesNotMatch(get, /WCU|writes\/s|defaultCount|peakWriteUnits/);
  const put = await hover(scoresUri(), PUT_LINE, column(PUT_LINE, 'GLOBAL_BOARD') + 2);
  assert.match(put, /WCU\/s/);
});

test('the hover names the rules and their docs but does not repeat the diagnostic message VS Code shows beside it', async () => {
  const ds = await published(scoresUri(), 'the diagnostics of scores.ts');
  const put = ds.find((d) => d.range.start.line === PUT_LINE)!;
  const md = await hover(scoresUri(), PUT_LINE, column(PUT_LINE, 'GLOBAL_BOARD') + 2);
  assert.match(md, /\*\*SL001\*\* \[[a-z-]+\]\([^)]*SL001\.md\)/);
  // Not the message, nor any long stretch of it (markdown escapes aside).
  const plain = md.replace(/\\/g, '');
  const message = typeof put.message === 'string' ? put.message : put.message.value;
  assert.ok(message.length > 40, message);
  assert.ok(!plain.includes(message.slice(0, 40)), md);
});

test('a document opened with an empty or unknown languageId is analysed by its file extension', async () => {
  // Not on disk, so the workspace index cannot have found them: only the buffers count.
  const py = uri('unsaved/store.py');
  const ts = uri('unsaved/scores.ts');
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: py, languageId: '', version: 1, text: STORE_PY },
  });
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: ts, languageId: 'plaintext', version: 1, text: SCORES },
  });
  const pyDs = await published(py, 'diagnostics of the Python buffer opened with no language id');
  assert.deepEqual(
    pyDs.map((d) => `${d.range.start.line} ${d.code}`),
    ['7 SL001'],
  );
  const tsDs = await published(ts, 'diagnostics of the TypeScript buffer opened as plaintext');
  assert.deepEqual(
    tsDs.map((d) => d.code),
    ['SL001', 'SL001'],
  );
  // Its quick fix comments the line in Python's syntax, not by the (empty) language id.
  const actions = (await session.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: py },
    range: pyDs[0].range,
    context: { diagnostics: [] },
  })) as CodeAction[];
  const ignore = actions.find((a) => a.title === 'Ignore SL001 on this line')!;
  assert.equal(ignore.edit!.changes![py][0].newText, '    # shardlens-ignore SL001\n');
  // The write-shard fix writes Python too (random.randrange, `import random`).
  const shard = actions.find((a) => a.title.startsWith('Add a random write-shard suffix'))!;
  assert.match(shard.edit!.changes![py].map((e) => e.newText).join('\n'), /random\.randrange\(GLOBAL_BOARD_SHARDS\)/);
});

test('an excluded file that is open gets neither diagnostics nor quick fixes', async () => {
  session.settings = { exclude: ['board/**'] };
  await session.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await until('the excluded file to lose its diagnostics', () => session.diagnostics.get(scoresUri())?.length === 0);
  const actions = (await session.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: scoresUri() },
    range: { start: { line: PUT_LINE, character: 0 }, end: { line: PUT_LINE, character: 0 } },
    context: { diagnostics: [] },
  })) as CodeAction[];
  assert.deepEqual(actions, []);
  session.settings = {};
  await session.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await published(scoresUri(), 'the diagnostics to come back');
});

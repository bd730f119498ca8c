import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Finding, Span } from '../../server/src/engine/model';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { ALL_RULES, RULE_INFO, defaultSeverityOf } from '../../server/src/engine/rules';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { analyze } from './helpers';

/** `line:col-endLine:endCol`, 1-based, for readable assertions. */
const at = (s: Span) => `${s.startLine + 1}:${s.startColumn + 1}-${s.endLine + 1}:${s.endColumn + 1}`;

/** Where `needle` first occurs in `text` (after `after`, when given), in the same form as `at`. */
function where(text: string, needle: string, after = ''): string {
  const i = text.indexOf(needle, text.indexOf(after));
  assert.ok(i >= 0, needle);
  const before = text.slice(0, i).split('\n');
  const line = before.length;
  const col = before[before.length - 1].length + 1;
  return `${line}:${col}-${line}:${col + needle.length}`;
}

/** The findings of files written to a temp folder, analysed by the workspace index. */
async function workspace(files: Record<string, string>): Promise<{ findings: Finding[]; dir: string }> {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-shape-'));
  const index = new WorkspaceIndex({ root: dir });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  for (const name of Object.keys(files)) index.analyzeFile(path.join(dir, name), false);
  const findings = index.results().flatMap((r) => r.findings);
  fs.rmSync(dir, { recursive: true, force: true });
  return { findings, dir };
}

test('a finding sits on the key expression, relates the constants the key came through, and offers a fix', async () => {
  const r = await analyze(
    'a.ts',
    `import { PutCommand } from '@aws-sdk/lib-dynamodb';
const PREFIX = 'BOARD';
const GLOBAL_BOARD = PREFIX + '#global';
export async function submit(id: string) {
  await ddb.send(
    new PutCommand({
      TableName: 'lb',
      Item: { PK: GLOBAL_BOARD, SK: id },
    }),
  );
}
`,
  );
  assert.deepEqual(
    r.findings.map((f) => f.rule),
    ['SL001'],
  );
  const f = r.findings[0];
  // `GLOBAL_BOARD` in `PK: GLOBAL_BOARD`, not the four-line `new PutCommand({...})`.
  assert.equal(at(f.span), '8:19-8:31');
  assert.deepEqual(
    f.related.map((x) => `${x.file}:${x.span.startLine + 1} ${x.message}`),
    ['a.ts:3 GLOBAL_BOARD is declared here', 'a.ts:2 PREFIX is declared here'],
  );
  assert.equal(f.fixes.length, 1);
  const fix = f.fixes[0];
  assert.ok(fix.kind === 'add-shard-suffix');
  assert.equal(fix.key, 'lb · PK = BOARD#global');
  assert.equal(fix.separator, '#');
  // The key's last literal part is `'#global'` in the constant's declaration.
  assert.equal(`${fix.at.file} ${at(fix.at.span)}`, 'a.ts 3:31-3:40');
  assert.equal(fix.shardCount, null, 'no writer of this key is sharded yet');
});

test('SL005 sits on the sort key; a read gets no add-shard-suffix fix', async () => {
  const text = `import boto3
from datetime import datetime
table = boto3.resource("dynamodb").Table("feed")
def post(body):
    table.put_item(Item={"pk": "FEED", "sk": datetime.now().isoformat(), "body": body})
def read():
    return table.get_item(Key={"pk": "FEED", "sk": "x"})`;
  const r = await analyze('b.py', text);
  const lines = r.findings.map((f) => `${f.rule} ${at(f.span)} ${f.fixes.map((x) => x.kind).join(',')}`);
  assert.deepEqual(lines, [
    `SL001 ${where(text, '"FEED"')} add-shard-suffix`,
    `SL005 ${where(text, 'datetime.now().isoformat()')} `,
    `SL001 ${where(text, '"FEED"', 'def read')} `,
  ]);
});

test("SL006 names the writer as a related place, offers a scatter-gather reader, and replaces the read's SL001", async () => {
  const writer = `import { PutCommand } from '@aws-sdk/lib-dynamodb';
const SHARDS = 4;
export const put = (id: string) =>
  ddb.send(new PutCommand({ TableName: 't', Item: { pk: \`K#\${Math.floor(Math.random() * SHARDS)}\`, sk: id } }));
`;
  const reader = `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export const all = () =>
  ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'K' } }));
`;
  const { findings } = await workspace({ 'writer.ts': writer, 'reader.ts': reader });
  assert.deepEqual(
    findings.map((f) => `${path.basename(f.file)} ${f.rule}`),
    ['reader.ts SL006'],
    'SL006 declares that it supersedes SL001 on the same read',
  );
  const f = findings[0];
  assert.equal(at(f.span), where(reader, "'K'"), "the key expression `'K'`");
  assert.deepEqual(
    f.related.map((x) => `${path.basename(x.file)}:${at(x.span)} ${x.message}`),
    [`writer.ts:${where(writer, '`K#${Math.floor(Math.random() * SHARDS)}`')} written sharded as K#{shard 0..3} here`],
  );
  const fix = f.fixes[0];
  assert.ok(fix.kind === 'scatter-gather-reader');
  assert.equal(fix.key, 't · pk = K');
  assert.deepEqual(fix.shards.values, [0, 1, 2, 3]);
  assert.equal(path.basename(fix.writer.file), 'writer.ts');
  assert.deepEqual(
    ALL_RULES.filter((r) => r.supersedes?.length).map((r) => `${r.code} > ${r.supersedes!.join(',')}`),
    ['SL006 > SL001', 'SL010 > SL001,SL002,SL003', 'SL012 > SL001,SL002,SL003'],
  );
});

test('an unsharded write takes the shard count a sharded writer of the same key uses in another file', async () => {
  const { findings } = await workspace({
    'sharded.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
const BOARD_SHARDS = 16;
export const put = (id: string, h: number) =>
  ddb.send(new PutCommand({ TableName: 't', Item: { pk: \`BOARD#\${h % BOARD_SHARDS}\`, sk: id } }));
`,
    'legacy.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
export const put = (id: string) => ddb.send(new PutCommand({ TableName: 't', Item: { pk: 'BOARD', sk: id } }));
`,
  });
  const f = findings.find((x) => x.rule === 'SL001')!;
  const fix = f.fixes[0];
  assert.ok(fix.kind === 'add-shard-suffix');
  assert.equal(fix.shardCount?.value, 16);
  assert.equal(fix.shardCount?.name, 'BOARD_SHARDS');
  assert.equal(path.basename(fix.shardCount!.declaration!.file), 'sharded.ts');
});

test('SL007 relates the writer and offers to align the ranges; SL008 offers pagination', async () => {
  const reader = `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export const all = () => Promise.all([0, 1, 2].map((s) => ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`V#\${s}\` } }))));
`;
  const { findings } = await workspace({
    'w.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
export const put = (id: string) => ddb.send(new PutCommand({ TableName: 't', Item: { pk: \`V#\${Math.floor(Math.random() * 3) + 1}\`, sk: id } }));
`,
    'r.ts': reader,
  });
  assert.deepEqual(
    findings.map((f) => `${path.basename(f.file)} ${f.rule} ${f.fixes.map((x) => x.kind).join(',')}`),
    ['r.ts SL007 align-shard-range', 'r.ts SL008 paginate-shards'],
  );
  const sl007 = findings[0];
  assert.deepEqual(
    sl007.related.map((x) => `${path.basename(x.file)}:${x.span.startLine + 1} ${x.message}`),
    ['w.ts:2 writes shard 1..3 here'],
  );
  const fix = sl007.fixes[0];
  assert.ok(fix.kind === 'align-shard-range');
  assert.deepEqual(
    [fix.want, fix.have],
    [
      [1, 2, 3],
      [0, 1, 2],
    ],
  );
  for (const f of findings) assert.equal(at(f.span), where(reader, '`V#${s}`'), 'on the key expression');
});

test("a rule's per-message severities name its own messages, and its default severity is the most severe of them", () => {
  const rank = { info: 0, warning: 1, error: 2 } as const;
  const split = RULE_INFO.filter((r) => r.messageSeverities);
  // SL001, SL003: a rare write of a read-hot key, and a read the cache serves, are notes. SL009: requests refused is a warning, near
  // the ceiling or uneven shards a note. SL012: a constant index key is an error (as SL001, which
  // it replaces), a time bucket or few values a warning.
  assert.deepEqual(
    split.map((r) => r.code),
    ['SL001', 'SL003', 'SL009', 'SL012'],
  );
  for (const r of split) {
    for (const id of Object.keys(r.messageSeverities!))
      assert.ok(id in r.messages, `${r.code}: ${id} is not one of its messages`);
    const levels = Object.keys(r.messages).map((id) => rank[defaultSeverityOf(r, id)]);
    assert.equal(rank[r.defaultSeverity], Math.max(...levels), r.code);
  }
  const sl009 = split.find((r) => r.code === 'SL009')!;
  assert.deepEqual(
    Object.keys(sl009.messages).map((id) => [id, defaultSeverityOf(sl009, id)]),
    [
      ['throttled', 'warning'],
      ['liveTraffic', 'info'],
    ],
  );
  // A rule without them: every message at the rule's default.
  const sl002 = RULE_INFO.find((r) => r.code === 'SL002')!;
  for (const id of Object.keys(sl002.messages)) assert.equal(defaultSeverityOf(sl002, id), 'warning');
  const sl001 = split.find((r) => r.code === 'SL001')!;
  assert.equal(defaultSeverityOf(sl001, 'readHot'), 'error');
  assert.equal(defaultSeverityOf(sl001, 'rarelyWritten'), 'info');
});

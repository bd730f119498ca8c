import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { FileAnalysis } from '../../server/src/engine/analyze';
import type { Access, KeyTemplate, ShardSet, Span } from '../../server/src/engine/model';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { render, shardRange } from '../../server/src/engine/model/template';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

test('keys(): tables → indexes → logical keys → call sites, as plain data', async () => {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-query-'));
  const files: Record<string, string> = {
    'w.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
export const put = (id: string) => ddb.send(new PutCommand({ TableName: 'board', Item: { pk: \`B#\${Math.floor(Math.random() * 4)}\`, sk: id } }));
export const old = (id: string) => ddb.send(new PutCommand({ TableName: 'board', Item: { pk: 'B', sk: id } }));
`,
    'r.py': `import boto3
from boto3.dynamodb.conditions import Key
t = boto3.resource("dynamodb").Table("board")
def shard_two():
    return t.query(KeyConditionExpression=Key("pk").eq("B#2"))
def by_status(status):
    return t.query(IndexName="byStatus", KeyConditionExpression=Key("status").eq(status))
`,
  };
  try {
    const index = new WorkspaceIndex({ root: dir });
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    for (const name of Object.keys(files)) index.analyzeFile(path.join(dir, name), false);
    const tables = index.keys();
    assert.deepEqual(structuredClone(tables), tables, 'plain data: no class, no function');
    assert.deepEqual(
      tables.map((t) => [t.table, t.indexes.map((i) => [i.index, i.keys.map((k) => k.key.id)])]),
      [
        [
          'board',
          [
            [null, ['board · pk = B']],
            ['byStatus', ['board/byStatus · status = {low-cardinality}']],
          ],
        ],
      ],
    );
    const key = tables[0].indexes[0].keys[0];
    assert.deepEqual(key.key.shards?.values, [0, 1, 2, 3]);
    // The read of literal shard 2 is listed under the sharded key, with its finding.
    assert.deepEqual(
      key.sites.map(
        (s) =>
          `${s.kind} ${path.basename(s.file)}:${s.span.startLine + 1} ${render(s.template)} ${s.findings.map((f) => f.rule).join(',')}`,
      ),
      ['read r.py:5 B#2 SL006', 'write w.ts:2 B#{shard 0..3} ', 'write w.ts:3 B SL001'],
    );
    assert.deepEqual(
      index.match('B#3').map((m) => [m.key.id, m.shard]),
      [['board · pk = B', 3]],
    );
    assert.deepEqual(index.match('C#3'), []);
    // The matcher follows edits: once the writer is gone, `B#3` has no template.
    index.remove(path.join(dir, 'w.ts'));
    assert.deepEqual(index.match('B#3'), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// ---- Large groups: synthetic accesses, real index and rules ----

const span = (line: number, col = 10): Span => ({
  startLine: line,
  startColumn: col,
  endLine: line,
  endColumn: col + 5,
});

function access(file: string, line: number, kind: 'read' | 'write', template: KeyTemplate): Access {
  return {
    file,
    language: 'typescript',
    operation: kind === 'write' ? 'PutItem' : 'Query',
    kind,
    sdk: 'lib-dynamodb',
    table: { kind: 'literal', name: 't' },
    index: null,
    span: span(line, 0),
    partitionKey: { attribute: 'pk', template, span: span(line), inline: true, use: span(line), via: [] },
    sortKey: null,
    sortCondition: null,
    read: null,
    call: {
      receiver: 'ddb',
      form: 'send-command',
      callee: 'X',
      async: true,
      statement: span(line, 0),
      indent: '',
      atLoad: false,
    },
    increments: false,
    paginated: true,
    limited: false,
    itemBytes: null,
  };
}

const sharded = (method: ShardSet['method'], values: number[] | null): KeyTemplate => ({
  parts: [{ literal: 'K#' }, { hole: { kind: 'shard', source: 's', shards: { method, values } } }],
});

const analysis = (file: string, accesses: Access[]): FileAnalysis => ({
  file,
  language: 'typescript',
  accesses,
  findings: [],
  skipped: null,
  syntaxErrors: false,
  imports: [],
});

test('20,000 accesses of one key in one file: every reader checked against each distinct writer set', () => {
  const file = '/ws/hot.ts';
  const accesses: Access[] = [];
  for (let i = 0; i < 10_000; i++) accesses.push(access(file, i, 'write', sharded('random', shardRange(0, 10))));
  // One late writer of 1..10 disagrees with the 10,000 before it.
  accesses.push(access(file, 10_000, 'write', sharded('random', shardRange(1, 10))));
  for (let i = 0; i < 10_000; i++) accesses.push(access(file, 20_000 + i, 'read', sharded('loop', shardRange(0, 10))));
  const index = new WorkspaceIndex({ root: '/ws' });
  assert.deepEqual([...index.set(analysis(file, accesses))], ['pk = K']);
  const findings = index.findingsFor(file);
  assert.equal(findings.length, 10_001);
  assert.equal(findings[0].rule, 'SL007');
  assert.match(
    findings[0].message,
    /^This writer uses shard 1\.\.10 but hot\.ts:1 writes the same key with shard 0\.\.9/,
  );
  const readers = findings.slice(1);
  assert.ok(readers.every((f) => f.rule === 'SL007' && f.access.kind === 'read'));
  assert.match(
    readers[9_999].message,
    /loops over shard 0\.\.9 but hot\.ts:10001 writes shard 1\.\.10: it misses shard 10/,
  );
  assert.equal(readers[9_999].span.startLine, 29_999);
});

test('4,000 files sharing one key: one group, findings placed in their own file only', () => {
  const index = new WorkspaceIndex({ root: '/ws' });
  const name = (i: number) => `/ws/f${String(i).padStart(4, '0')}.ts`;
  for (let i = 0; i < 4_000; i++) {
    index.set(
      analysis(name(i), [
        access(name(i), 0, 'write', sharded('hash', shardRange(0, 8))),
        access(name(i), 1, 'read', sharded('loop', shardRange(0, 8))),
      ]),
    );
  }
  index.set(analysis('/ws/bare.ts', [access('/ws/bare.ts', 3, 'read', { parts: [{ literal: 'K' }] })]));
  const all = index.results().flatMap((r) => r.findings.map((f) => `${path.basename(f.file)} ${f.rule}`));
  assert.deepEqual(all, ['bare.ts SL006']);
  assert.match(index.findingsFor('/ws/bare.ts')[0].message, /written sharded as K#\{shard 0\.\.7\} \(f0000\.ts:1\)/);
  assert.equal(index.filesOf(['pk = K']).size, 4_001);
  // Editing one file re-checks the shared key; the others' findings stay where they are.
  index.set(analysis(name(17), [access(name(17), 0, 'write', sharded('hash', shardRange(0, 9)))]));
  const after = index.results().flatMap((r) => r.findings.map((f) => `${path.basename(f.file)} ${f.rule}`));
  // f0017 now writes 0..8: it and every later writer disagree with an earlier writer, and every reader misses shard 8.
  const sl007 = index.results().flatMap((r) => r.findings.filter((f) => f.rule === 'SL007'));
  assert.deepEqual(
    sl007.filter((f) => f.access.kind === 'write').map((f) => path.basename(f.file)),
    Array.from({ length: 4_000 - 17 }, (_, i) => path.basename(name(17 + i))),
  );
  assert.equal(sl007.filter((f) => f.access.kind === 'read').length, 3_999);
  assert.ok(sl007.filter((f) => f.access.kind === 'read').every((f) => /misses shard 8\b/.test(f.message)));
  assert.equal(after.length, sl007.length + 1);
});

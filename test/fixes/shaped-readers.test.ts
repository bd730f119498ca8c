// Readers that filter, project or take the first N, kept by the shard fixes. Each
// program runs against dynalite before and after a fix of its constant index key, and
// what it reads back must be the same: the same items, in the same order, with the same
// attributes (the sort key the merge needs is asked for and removed again), the same Count.
// - a support desk on lib-dynamodb (TypeScript): tickets opened with status 'OPEN' on
//   status-index (status, openedAt), closed and reopened by updates, listed by a Query
//   that filters by priority and projects three attributes;
// - the same desk on boto3's low-level client;
// - a weekly cup on boto3's Table: the ten best players by the score index (`Limit=10`,
//   best first), projecting the id and the name (a reserved word, through `#n`).
// The calculated shard hashes the table's key (ticketId, playerId), which the updates
// name in their `Key`: every writer of the index key computes the same shard.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { literalText } from '../../server/src/engine';
import { allFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, pythonErrors, typeErrors } from './helpers-write';
import { SCORES_TABLE } from '../lab/helpers';
import { indexed, runDriver, ticketsTable } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures');

const TICKETS_TABLE = ticketsTable('ticketId');

interface Program {
  fixture: string;
  file: string;
  table: CreateTableCommandInput;
  /** The index key attribute, whose stored values the fix spreads. */
  indexKey: string;
  /** The writer the fixes are asked on: its operation and the index key's value. */
  writer: string;
  language: 'typescript' | 'python';
  /** Drives the program and prints what it read back as JSON. */
  drive: string;
}

const TS_TICKETS = `import { closeTicket, getTicket, listOpen, openTicket, reopenTicket } from './tickets';
(async () => {
  for (let i = 0; i < 40; i++) {
    // Opening times in another order than the ids: the index's order is not the writes' order.
    const minute = String((i * 17) % 40).padStart(2, '0');
    await openTicket({ ticketId: 'T-' + (1000 + i), title: 'Ticket ' + i, priority: i % 3 === 0 ? 'high' : 'low', openedAt: '2026-01-01T00:' + minute + ':00Z', reporter: 'user' + (i % 7) });
  }
  for (let i = 0; i < 40; i += 4) await closeTicket('T-' + (1000 + i), '2026-02-01T00:00:00Z');
  for (let i = 0; i < 40; i += 8) await reopenTicket('T-' + (1000 + i));
  // The item a point read finds, but for its index key (which the fix shards).
  const { status, ...one } = (await getTicket('T-1005')) ?? {};
  console.log(JSON.stringify({ high: await listOpen('high'), low: await listOpen('low'), one, open: /^OPEN/.test(status) }));
})();
`;

const PY_TICKETS = `import json
import tickets_store as t
for i in range(40):
    t.open_ticket(f"T-{1000 + i}", f"Ticket {i}", "high" if i % 3 == 0 else "low", f"2026-01-01T00:{(i * 17) % 40:02d}:00Z", f"user{i % 7}")
for i in range(0, 40, 4):
    t.close_ticket(f"T-{1000 + i}")
print(json.dumps({p: t.list_open(p) for p in ("high", "low")}))
`;

const PY_CUP = `import json
import leaderboard as b
for i in range(60):
    b.record_score(f"p{i}", 1000 + (i * 37) % 600)
print(json.dumps(b.top_players(), default=str))
`;

const PROGRAMS: Program[] = [
  {
    fixture: 'tickets-index',
    file: 'tickets.ts',
    table: TICKETS_TABLE,
    indexKey: 'status',
    writer: 'PutItem OPEN',
    language: 'typescript',
    drive: TS_TICKETS,
  },
  {
    fixture: 'py-tickets',
    file: 'tickets_store.py',
    table: TICKETS_TABLE,
    indexKey: 'status',
    writer: 'PutItem OPEN',
    language: 'python',
    drive: PY_TICKETS,
  },
  {
    fixture: 'py-leaderboard',
    file: 'leaderboard.py',
    table: SCORES_TABLE,
    indexKey: 'gameTitle',
    writer: 'PutItem Weekly Cup',
    language: 'python',
    drive: PY_CUP,
  },
];

/** Runs the program against a fresh table: what it printed, and the index key's stored values. */
async function runProgram(p: Program, dir: string): Promise<{ read: unknown; keys: string[] }> {
  const { stdout, items } = await runDriver(p.table, p.language === 'python' ? 'python' : 'node', p.drive, dir);
  return { read: JSON.parse(stdout), keys: items.map((i) => i[p.indexKey]?.S ?? '') };
}

const checks = (p: Program, dir: string) => (p.language === 'python' ? pythonErrors(dir) : typeErrors(dir));

for (const p of PROGRAMS) {
  test(`${p.fixture}: the random and the calculated shard keep what the reader returns`, async () => {
    const dir = copyFixture(p.fixture, FIXTURES);
    try {
      const before = await runProgram(p, dir);
      const value = p.writer.split(' ').slice(1).join(' ');
      assert.ok(
        before.keys.every((k) => k === value || !k.startsWith(value)),
        'one index key before',
      );
      const errorsBefore = checks(p, dir);
      for (const id of ['add-random-shard', 'add-hash-shard']) {
        const copy = copyFixture(p.fixture, FIXTURES);
        try {
          const { ctx, findings } = await indexed(copy);
          const writer = findings.find(
            (f) =>
              (f.rule === 'SL001' || f.rule === 'SL012') &&
              `${f.access.operation} ${f.access.partitionKey && literalText(f.access.partitionKey.template)}` ===
                p.writer,
          );
          assert.ok(writer, `${id}: SL001 on the writer`);
          const actions = allFixes(writer, ctx);
          const fix = actions.find((a) => a.id === id);
          assert.ok(fix, `${id} offered: ${JSON.stringify(actions.map((a) => a.title))}`);
          applyAction(ctx, fix);
          const text = fs.readFileSync(path.join(copy, p.file), 'utf8');
          assert.match(
            text,
            /[wW]ith_?[oO]ptions\(/,
            `${id}: the read became a call of a reader that takes its options`,
          );
          assert.deepEqual(checks(p, copy), errorsBefore, `${id}: the fixed program compiles as before`);
          const after = await runProgram(p, copy);
          const sharded = after.keys.filter((k) => k.startsWith(`${value}#`));
          assert.ok(
            new Set(sharded).size > 1,
            `${id}: the index key is spread: ${[...new Set(after.keys)].join(', ')}`,
          );
          assert.deepEqual(after.read, before.read, `${id}: the same items, order, attributes and Count`);
        } finally {
          cleanup(copy);
        }
      }
    } finally {
      cleanup(dir);
    }
  });
}

/** The blocked action's title for the writer of a variant of a fixture. */
async function refusal(fixture: string, file: string, edit: (text: string) => string, writer: string) {
  const copy = copyFixture(fixture, FIXTURES);
  try {
    const target = path.join(copy, file);
    const text = fs.readFileSync(target, 'utf8');
    assert.notEqual(edit(text), text, 'the variant changes the read');
    fs.writeFileSync(target, edit(text));
    const { ctx, findings } = await indexed(copy);
    const finding = findings.find(
      (f) =>
        (f.rule === 'SL001' || f.rule === 'SL012') &&
        `${f.access.operation} ${f.access.partitionKey && literalText(f.access.partitionKey.template)}` === writer,
    );
    assert.ok(finding, writer);
    const actions = allFixes(finding, ctx);
    assert.deepEqual(
      actions.filter((a) => a.id === 'add-random-shard' || a.id === 'add-hash-shard').map((a) => a.title),
      [],
      'no shard fix',
    );
    return actions.find((a) => a.id === 'shard-fix-blocked')?.title ?? '';
  } finally {
    cleanup(copy);
  }
}

test('a Limit with a filter, or pages of Limit items, cannot be read from every shard: the refusal says why', async () => {
  // Limit counts the items read before the filter: the first 5 of each shard are not the key's first 5.
  const limited = await refusal(
    'tickets-index',
    'tickets.ts',
    (t) =>
      t.replace(
        "FilterExpression: '#priority = :priority',",
        "FilterExpression: '#priority = :priority',\n      Limit: 5,",
      ),
    'PutItem OPEN',
  );
  assert.match(
    limited,
    /the Query at tickets\.ts:\d+ cannot be replaced by a reader of every shard: its Limit counts items before the filter/,
  );
  // A caller that hands out pages of 10 with LastEvaluatedKey: a read of every shard has no next page to give.
  const paged = await refusal(
    'py-leaderboard',
    'leaderboard.py',
    (t) =>
      t
        .replace('def top_players():', 'def top_players(start=None):')
        .replace(
          '        Limit=10,\n',
          '        Limit=10,\n        **({"ExclusiveStartKey": start} if start else {}),\n',
        )
        .replace('    return response["Items"]', '    return response["Items"], response.get("LastEvaluatedKey")'),
    'PutItem Weekly Cup',
  );
  assert.match(
    paged,
    /leaderboard\.py:\d+ cannot be replaced by a reader of every shard: its caller reads pages of Limit items/,
  );
});

/**
 * The shard fixes in ElectroDB's own terms (test/fixtures/libraries/electrodb-fixes): a
 * `shard` attribute filled by ElectroDB (a random `default`, or a `set` hashing an
 * attribute) joins the pattern's partition key, every point access gives the shard, every
 * query becomes a query per shard merged. Each fix is applied as an editor applies it;
 * the fixed code type-checks against the electrodb typings, runs with the real library
 * against dynalite beside the original, and is read again by the engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { allFixes } from '../../server/src/features/fixes';
import type { FixAction } from '../../server/src/features/fixes/fix-model';
import { applyAction, fixtureCopier, indexWorkspace, typeErrors, type Workspace } from '../fixes/helpers-write';
import { matchesTemplate, ROOT, stringKeyTable, withDynalite } from './helpers';
import { fnv } from './helpers-shards';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'libraries', 'electrodb-fixes');
const copy = fixtureCopier(FIXTURES);

const at = (ws: Workspace, f: { file: string; span: { startLine: number } }) =>
  `${path.relative(ws.dir, f.file)}:${f.span.startLine + 1}`;

/** The actions of the finding with a fix descriptor at `place` (`scores.ts:4`). */
function actionsAt(ws: Workspace, place: string): FixAction[] {
  const f = ws.findings.find((x) => at(ws, x) === place && x.fixes.length > 0);
  assert.ok(f, `no finding with a fix at ${place}: ${ws.findings.map((x) => `${x.rule} ${at(ws, x)}`).join(', ')}`);
  return allFixes(f, ws.ctx);
}

async function fixed(fixture: string, place: string, id: string): Promise<Workspace> {
  const ws = await indexWorkspace(copy(fixture));
  const action = actionsAt(ws, place).find((a) => a.id === id);
  assert.ok(action, `${id} not offered at ${place}`);
  applyAction(ws.ctx, action);
  return indexWorkspace(ws.dir);
}

/** Each action as `id: no edit` or `id: N changes`. */
const editsOf = (actions: FixAction[]) =>
  actions.map((a) => `${a.id}: ${a.changes.length ? `${a.changes.length} changes` : 'no edit'}`);

const gameTable = (name: string) => stringKeyTable(name, ['pk', 'sk'], [['gsi1pk-gsi1sk-index', 'gsi1pk', 'gsi1sk']]);

test('which fixes each finding offers, and why none where the schema cannot take a shard', async () => {
  const scores = await indexWorkspace(copy('scores'));
  const titles = (ws: Workspace, place: string) => actionsAt(ws, place).map((a) => `${a.id}: ${a.title}`);
  // Scores are read one by one: only a shard computed from the player finds them again.
  assert.deepEqual(titles(scores, 'scores.ts:4'), [
    'add-hash-shard: Add a calculated shard attribute, hash(player) mod 10, to score.byBoard (10 shards) and read every shard at 1 query',
  ]);
  // Matches are listed through the index only (gets go by id): both, on the schema, the key's one finding
  // (the create writing its `composite: []` partition is a related location of it, not a finding).
  assert.deepEqual(titles(scores, 'entities.ts:40'), [
    'add-random-shard: Add a random shard attribute to match.recent (10 shards) and read every shard at 1 query',
    'add-hash-shard: Add a calculated shard attribute, hash(matchId) mod 10, to match.recent (10 shards) and read every shard at 1 query',
  ]);
  assert.deepEqual(
    scores.findings.filter((f) => f.rule === 'SL001' && f.file.endsWith('matches.ts') && f.span.startLine === 3),
    [],
  );
  // A read carries no shard fix: it is offered at the writes, and edits the reads with them. Its light
  // bulb offers the cache where one entry serves every call (the board's query), else says why not.
  const reads = scores.findings
    .filter((f) => f.access.kind === 'read')
    .map((f) => `${at(scores, f)} ${editsOf(allFixes(f, scores.ctx))}`);
  assert.deepEqual(reads, [
    'matches.ts:14 cache-fix-blocked: no edit',
    'scores.ts:8 cache-fix-blocked: no edit',
    'scores.ts:21 cache-read: 2 changes',
  ]);

  const blocked = await indexWorkspace(copy('blocked'));
  assert.deepEqual(titles(blocked, 'chat.ts:4'), [
    'shard-fix-blocked: No shard fix: random shard: the GetItem at chat.ts:8 finds one item by its key, which a random shard would lose; calculated shard: no attribute that identifies the item (a sort-key composite attribute of presence.byRoom) is at every access of the key (GetItem at chat.ts:8)',
  ]);
  assert.deepEqual(titles(blocked, 'chat.ts:13'), [
    "shard-fix-blocked: No shard fix: member.byTeam is in the collection 'team', whose entities share its partition key: each would need the same shard attribute",
  ]);
  for (const a of [...actionsAt(blocked, 'chat.ts:4'), ...actionsAt(blocked, 'chat.ts:13')])
    assert.deepEqual(a.changes, []);
});

/** Thirty players posted, read back one by one, one corrected, one removed, the board listed. */
async function playScores(dir: string) {
  const m = await import(pathToFileURL(path.join(dir, 'scores.ts')).href);
  const players = Array.from({ length: 30 }, (_, i) => `player-${String(i).padStart(2, '0')}`);
  for (const [i, p] of players.entries()) await m.postScore(p, i);
  let found = 0;
  for (const p of players) if ((await m.scoreOf(p))?.player === p) found++;
  await m.correctScore('player-03', 99);
  await m.removePlayer('player-05');
  const board = ((await m.leaderboard()) as Array<{ player: string; points: number }>).map(
    (s) => `${s.player}:${s.points}`,
  );
  const other = (await m.playerOn('global', 'player-07')).data;
  return { found, board, other: `${other?.player}:${other?.points}`, gone: await m.scoreOf('player-05') };
}

test('the calculated shard on scores: type-checks, finds every score again, lists the same board, spreads the key', async () => {
  const before = copy('scores');
  const after = await fixed('scores', 'scores.ts:4', 'add-hash-shard');
  assert.deepEqual(typeErrors(after.dir), []);
  await withDynalite([gameTable('before-table'), gameTable('after-table')], {}, async (db) => {
    process.env.GAME_TABLE = 'before-table';
    const was = await playScores(before);
    process.env.GAME_TABLE = 'after-table';
    const now = await playScores(after.dir);
    assert.equal(was.found, 30);
    assert.deepEqual(now, was);
    assert.equal(now.board.length, 29);
    assert.ok(now.board.includes('player-03:99'));
    assert.equal(now.gone, null);

    const stored = await db.stored('after-table');
    const shards = new Set<string>();
    const template = after.index
      .results()
      .flatMap((r) => r.accesses)
      .find((a) => a.operation === 'Query' && a.library?.entity === 'score')!.partitionKey!.template;
    for (const item of stored) {
      const pk = item.pk as string;
      assert.equal(pk, `$games#board_global#shard_${fnv(item.player as string) % 10}`);
      assert.ok(matchesTemplate(pk, template), pk);
      shards.add(pk);
    }
    assert.ok(shards.size > 1, `one partition: ${[...shards]}`);
  });
  // Read again: the key is sharded, and no read misses a shard.
  const left = after.findings.filter((f) => f.message.includes('$games#board_global') || f.rule === 'SL006');
  assert.deepEqual(
    left.map((f) => `${f.rule} ${at(after, f)}`),
    [],
  );
});

/** Matches recorded one after another, then listed newest first and one read by id. */
async function playMatches(dir: string) {
  const m = await import(pathToFileURL(path.join(dir, 'matches.ts')).href);
  const ids: string[] = [];
  for (let i = 0; i < 24; i++) ids.push(await m.recordMatch(`winner-${i}`));
  const recent = ((await m.recentMatches(0)) as Array<{ matchId: string }>).map((x) => x.matchId);
  return { ids, recent, one: (await m.matchById(ids[3]))?.matchId };
}

for (const id of ['add-random-shard', 'add-hash-shard'])
  test(`${id} on the schema's constant index key: every match listed newest first, over several index partitions`, async () => {
    const before = copy('scores');
    const after = await fixed('scores', 'entities.ts:40', id);
    assert.deepEqual(typeErrors(after.dir), []);
    await withDynalite([gameTable('before-table'), gameTable('after-table')], {}, async (db) => {
      // The order one query of the index returned: by the stored index sort key, newest first.
      const newestFirst = (items: Record<string, unknown>[]) =>
        [...items].sort((a, b) => (a.gsi1sk! < b.gsi1sk! ? 1 : -1)).map((x) => x.matchId);
      process.env.GAME_TABLE = 'before-table';
      const was = await playMatches(before);
      assert.deepEqual(was.recent, newestFirst(await db.stored('before-table')));
      process.env.GAME_TABLE = 'after-table';
      const now = await playMatches(after.dir);
      const stored = await db.stored('after-table');
      assert.equal(now.recent.length, 24);
      assert.deepEqual(now.recent, newestFirst(stored));
      assert.equal(now.one, now.ids[3]);
      for (const item of stored) {
        assert.match(item.gsi1pk as string, /^\$games#shard_\d$/);
        if (id === 'add-hash-shard') assert.equal(item.shard, String(fnv(item.matchId as string) % 10));
      }
      assert.ok(new Set(stored.map((i) => i.gsi1pk)).size > 1);
    });
    assert.deepEqual(
      after.findings.filter((f) => f.rule === 'SL006' || (f.rule === 'SL001' && f.message.includes('"$games"'))),
      [],
    );
  });

for (const id of ['add-random-shard', 'add-hash-shard'])
  test(`${id} on a CommonJS audit trail with a key template: STREAM#requests#<shard>, every event read back in order`, async () => {
    const before = copy('events');
    const after = await fixed('events', 'audit.js:4', id);
    assert.deepEqual(typeErrors(after.dir), []);
    const table = stringKeyTable('audit-before', ['pk', 'sk'], []);
    await withDynalite([table, stringKeyTable('audit-after', ['pk', 'sk'], [])], {}, async (db) => {
      const play = async (dir: string) => {
        const m = createRequire(__filename)(path.join(dir, 'audit.js'));
        for (let i = 0; i < 24; i++) await m.record(`GET /items/${i}`);
        return ((await m.since(0)) as Array<{ eventId: string }>).map((e) => e.eventId);
      };
      const inOrder = (items: Record<string, unknown>[]) =>
        [...items].sort((a, b) => (a.sk! < b.sk! ? -1 : 1)).map((x) => x.eventId);
      process.env.AUDIT_TABLE = 'audit-before';
      assert.deepEqual(await play(before), inOrder(await db.stored('audit-before')));
      process.env.AUDIT_TABLE = 'audit-after';
      const read = await play(after.dir);
      const stored = await db.stored('audit-after');
      assert.equal(read.length, 24);
      assert.deepEqual(read, inOrder(stored));
      for (const item of stored) {
        assert.equal(item.pk, `STREAM#requests#${item.shard}`);
        assert.ok(Number(item.shard) >= 0 && Number(item.shard) < 10);
        if (id === 'add-hash-shard') assert.equal(item.shard, String(fnv(item.eventId as string) % 10));
      }
      assert.ok(new Set(stored.map((i) => i.pk)).size > 1);
    });
    assert.deepEqual(
      after.findings.filter((f) => f.rule === 'SL006' || f.message.includes('STREAM#requests')),
      [],
    );
  });

/** Announcements posted one after another, then listed newest first. */
async function playAnnouncements(dir: string) {
  const m = await import(pathToFileURL(path.join(dir, 'announcements.ts')).href);
  for (let i = 0; i < 20; i++) await m.postAnnouncement(`a-${String(i).padStart(2, '0')}`, `Notice "${i}" isn't late`);
  return (await m.listAnnouncements()) as Array<{ announcementId: string; title: string }>;
}

for (const id of ['add-random-shard', 'add-hash-shard'])
  test(`${id} in a double-quoted, four-space file: every string it writes in double quotes, every block in four-space steps, the same list read back`, async () => {
    const before = copy('quotes');
    const after = await fixed('quotes', 'announcement.ts:22', id);
    for (const file of ['announcement.ts', 'announcements.ts']) {
      const text = fs.readFileSync(path.join(after.dir, file), 'utf8');
      const single = text.split('\n').filter((l) => /'[^']*'/.test(l) && !/^\s*(\/\/|\/?\*)/.test(l));
      assert.deepEqual(single, [], `${file} has single-quoted strings`);
      const offStep = text.split('\n').filter((l) => /^ +\S/.test(l) && /^( *)/.exec(l)![1].length % 4 !== 0);
      assert.deepEqual(offStep, [], `${file} has lines off its four-space step`);
    }
    assert.deepEqual(typeErrors(after.dir), []);
    const table = (name: string) => stringKeyTable(name, ['pk', 'sk'], [['gsi1', 'gsi1pk', 'gsi1sk']]);
    await withDynalite([table('notices-before'), table('notices-after')], {}, async (db) => {
      process.env.APP_TABLE = 'notices-before';
      const was = await playAnnouncements(before);
      process.env.APP_TABLE = 'notices-after';
      const now = await playAnnouncements(after.dir);
      assert.equal(was.length, 20);
      assert.deepEqual(
        now.map((a) => [a.announcementId, a.title]),
        was.map((a) => [a.announcementId, a.title]),
      );
      assert.ok(new Set((await db.stored('notices-after')).map((i) => i.gsi1pk)).size > 1);
    });
  });

/** Twenty members invited, each read back by id, two activated, one removed, all listed. */
async function playMembers(dir: string) {
  const m = await import(pathToFileURL(path.join(dir, 'members.ts')).href);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push(await m.invite(`member-${i}@example.com`));
  let found = 0;
  for (const id of ids) if ((await m.memberById(id))?.id === id) found++;
  await m.activate(ids[2]);
  await m.activate(ids[7]);
  await m.removeMember(ids[11]);
  const all = ((await m.allMembers()) as Array<{ email: string; status: string }>)
    .map((x) => `${x.email}:${x.status}`)
    .sort();
  return { found, all, gone: await m.memberById(ids[11]) };
}

test("the calculated shard on a scoped index with no composite (`scope: 'member'`, `composite: []`): every member found and listed", async () => {
  const before = copy('members');
  const after = await fixed('members', 'member.ts:19', 'add-hash-shard');
  assert.deepEqual(typeErrors(after.dir), []);
  const tables = [gameTable('members-before'), gameTable('members-after')];
  await withDynalite(tables, {}, async (db) => {
    process.env.MEMBERS_TABLE = 'members-before';
    const was = await playMembers(before);
    process.env.MEMBERS_TABLE = 'members-after';
    const now = await playMembers(after.dir);
    assert.equal(was.found, 20);
    assert.equal(was.all.length, 19);
    assert.deepEqual(now, was);
    assert.equal(now.gone, null);
    // Before: one partition, the scope after the service as ElectroDB writes it.
    assert.deepEqual([...new Set((await db.stored('members-before')).map((i) => i.pk))], ['$workspace_member']);
    const template = after.index
      .results()
      .flatMap((r) => r.accesses)
      .find((a) => a.operation === 'Query' && a.library?.entity === 'member')!.partitionKey!.template;
    const stored = await db.stored('members-after');
    for (const item of stored) {
      assert.equal(item.pk, `$workspace_member#shard_${fnv(item.id as string) % 10}`);
      assert.ok(matchesTemplate(item.pk as string, template), `${item.pk as string} is the engine's key`);
    }
    assert.ok(new Set(stored.map((i) => i.pk)).size > 1);
  });
  assert.deepEqual(
    after.findings.filter((f) => f.rule === 'SL006' || f.message.includes('"$workspace_member"')),
    [],
  );
});

/**
 * Twenty-five activities recorded, then the feed read a page of 7 at a time, newest first,
 * each page's cursor handed to the next request (and one page asked for 3 only).
 */
async function playFeed(dir: string) {
  const m = await import(pathToFileURL(path.join(dir, 'activity.ts')).href);
  for (let i = 0; i < 25; i++) await m.recordActivity(`user-${i % 4}`, `liked post ${i}`);
  const pagesOf = async (limit: number) => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = (await m.activityPage(cursor, limit)) as {
        items: Array<{ activityId: string }>;
        next: string | null;
      };
      pages.push(page.items.map((a) => a.activityId));
      cursor = page.next ?? undefined;
    } while (cursor && pages.length < 40);
    return pages;
  };
  // Pages of 2: most shards hold more than a page, so a page stops at the nearest shard's last key.
  // The export: a cursor and no limit, one DynamoDB page a request, oldest first.
  const exported: string[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 40; n++) {
    const page = (await m.exportPage(cursor ?? undefined)) as {
      data: Array<{ activityId: string }>;
      cursor: string | null;
    };
    exported.push(...page.data.map((a) => a.activityId));
    cursor = page.cursor;
    if (!cursor) break;
  }
  return { pages: await pagesOf(7), pairs: await pagesOf(2), three: (await pagesOf(3))[0], exported };
}

for (const id of ['add-random-shard', 'add-hash-shard'])
  test(`${id} on a feed read a page at a time (limit and cursor): the same pages, newest first, over several partitions`, async () => {
    const before = copy('feed');
    const after = await fixed('feed', 'activity.ts:5', id);
    const text = fs.readFileSync(path.join(after.dir, 'activity.ts'), 'utf8');
    assert.match(text, /await readShardPage\(\n {4}ACTIVITY_SHARDS,\n {4}\(shard, shardCursor, shardLimit\) =>/);
    // Past the file's 120 columns on one line: the options one a line.
    assert.match(text, /\.go\(\{\n {8}order: 'desc',\n {8}limit: shardLimit,\n {8}cursor: shardCursor,?\n {6}\}\)/);
    assert.match(
      text,
      /\(shard, shardCursor\) =>\s+Activity\.query\.byFeed\(\{ feed: 'home', shard: String\(shard\) \}\)\.go\(\{ cursor: shardCursor \}\),/,
    );
    assert.match(text, /\s+Infinity,\n\s+cursor,?\n\s+\);/);
    assert.deepEqual(typeErrors(after.dir), []);
    const table = (name: string) => stringKeyTable(name, ['pk', 'sk'], [['gsi1pk-gsi1sk-index', 'gsi1pk', 'gsi1sk']]);
    await withDynalite([table('feed-before'), table('feed-after')], {}, async (db) => {
      const newestFirst = (items: Record<string, unknown>[]) =>
        [...items].sort((a, b) => (a.gsi1sk! < b.gsi1sk! ? 1 : -1)).map((x) => x.activityId as string);
      process.env.FEED_TABLE = 'feed-before';
      const was = await playFeed(before);
      process.env.FEED_TABLE = 'feed-after';
      const now = await playFeed(after.dir);
      // Pages of the same sizes, each the next 7 of the feed in order, and no page past the last.
      assert.deepEqual(
        was.pages.map((p) => p.length),
        [7, 7, 7, 4],
      );
      assert.deepEqual(
        now.pages.map((p) => p.length),
        [7, 7, 7, 4],
      );
      assert.deepEqual(was.pages.flat(), newestFirst(await db.stored('feed-before')));
      const stored = await db.stored('feed-after');
      assert.deepEqual(now.pages.flat(), newestFirst(stored));
      assert.deepEqual(now.three, now.pages[0].slice(0, 3));
      assert.deepEqual(was.exported, [...was.pages.flat()].reverse());
      assert.deepEqual(now.exported, [...now.pages.flat()].reverse());
      // Every page full but the last (an empty one may follow it, as DynamoDB's Limit allows), all in order.
      assert.deepEqual(was.pairs.flat(), was.pages.flat());
      assert.deepEqual(now.pairs.flat(), now.pages.flat());
      const full = now.pairs.filter((p) => p.length > 0);
      assert.deepEqual(
        full.map((p) => p.length),
        [...Array(12).fill(2), 1],
      );
      for (const item of stored) {
        assert.match(item.gsi1pk as string, /^\$social#feed_home#shard_\d$/);
        if (id === 'add-hash-shard') assert.equal(item.shard, String(fnv(item.activityId as string) % 10));
      }
      assert.ok(new Set(stored.map((i) => i.gsi1pk)).size > 1);
    });
    // Read again: the paged reader reads every shard (no SL006), and the key is sharded.
    assert.deepEqual(
      after.findings
        .filter((f) => f.rule === 'SL006' || (f.rule === 'SL001' && f.message.includes('"$social#feed_home"')))
        .map((f) => `${f.rule} ${at(after, f)}`),
      [],
    );
  });

// Keys built by key helpers (`PK: Keys.season(SEASON)`, `Key={"pk": season_pk(CURRENT_SEASON)}`):
// the shard goes after the helper's call at each access, never into the helper (other keys
// may be built with it); the calculated fix hashes a sort key built by a helper only when
// calling it again gives the same text; a generated reader keeps the helper's call. The
// programs' behaviour before and after is measured against dynalite in safety.test.ts.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Finding } from '../../server/src/engine/model';
import { writeFixes } from '../../server/src/features/fixes/index';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';
import { cleanup, copyFixture, indexWorkspace, textsAfter } from './helpers-write';
import { SAFETY_DIR } from './safety-fixtures';

const actionsFor = (f: Finding, ctx: FixContext): FixAction[] => writeFixes.flatMap((p) => p(f, ctx));
const hotWrite = (fs: Finding[]) => fs.find((f) => f.rule === 'SL001' && f.access.kind === 'write');

describe('shard fixes of keys built by key helpers', () => {
  test('an object of key builders in another module: the suffix follows each call, keys.ts is not edited, the reader keeps the call', async () => {
    const dir = copyFixture('key-helpers-ts', SAFETY_DIR);
    try {
      const ws = await indexWorkspace(dir);
      const finding = hotWrite(ws.findings);
      assert.ok(finding, 'Keys.season(SEASON) is read as the constant SEASON#2026-winter');
      assert.equal(
        finding.access.partitionKey?.template.parts.map((p) => ('literal' in p ? p.literal : '?')).join(''),
        'SEASON#2026-winter',
      );
      const action = actionsFor(finding, ws.ctx).find((a) => a.id === 'add-hash-shard');
      assert.ok(action, 'the calculated fix is offered');
      assert.match(action.title, /hash\(SK\) mod 10 \(and 3 other accesses of the key\)/);
      assert.deepEqual(
        [...new Set(action.changes.map((c) => path.basename(c.file)))],
        ['standings.ts'],
        'only the accesses change, never the helpers',
      );
      const after = textsAfter(ws.ctx, action).get(path.join(dir, 'standings.ts'))!;
      // Three point accesses and the reader: the same key text, the separator the key's own text writes.
      assert.equal(after.match(/`\$\{Keys\.season\(SEASON\)\}#\$\{shard\}`/g)?.length, 4, after);
      assert.equal(after.match(/shardlensHash\(String\(Keys\.player\(playerId\)\)\)/g)?.length, 3);
      assert.doesNotMatch(after, /[`'"]SEASON#|-\$\{shard\}/, 'nothing spelled out, no dash from the season value');
    } finally {
      cleanup(dir);
    }
  });

  test('boto3 key functions: f-strings around the calls, in the item, the key and the query condition', async () => {
    const dir = copyFixture('key-helpers-py', SAFETY_DIR);
    try {
      const ws = await indexWorkspace(dir);
      const finding = hotWrite(ws.findings);
      assert.ok(finding);
      const action = actionsFor(finding, ws.ctx).find((a) => a.id === 'add-hash-shard');
      assert.ok(action);
      assert.deepEqual([...new Set(action.changes.map((c) => path.basename(c.file)))], ['standings.py']);
      const after = textsAfter(ws.ctx, action).get(path.join(dir, 'standings.py'))!;
      // The item, the update's and the get's keys, and the reader's condition.
      assert.equal(after.match(/f"\{season_pk\(CURRENT_SEASON\)\}#\{shard\}"/g)?.length, 4, after);
      assert.equal(after.match(/shardlens_hash\(str\(player_sk\(player_id\)\)\)/g)?.length, 3);
      // The query's condition is built before the call (kwargs): the reader keeps the helper's call too.
      assert.match(after, /Key\("pk"\)\.eq\(f"\{season_pk\(CURRENT_SEASON\)\}#\{shard\}"\)/);
      assert.doesNotMatch(after, /f"SEASON#/);
    } finally {
      cleanup(dir);
    }
  });

  test('a sort key built with the clock is not hashed: called again it names another item', async () => {
    const dir = copyFixture('key-helpers-ts', SAFETY_DIR);
    try {
      const keys = path.join(dir, 'keys.ts');
      fs.writeFileSync(
        keys,
        fs.readFileSync(keys, 'utf8').replace('`PLAYER#${playerId}`', '`PLAYER#${Date.now()}#${playerId}`'),
      );
      const ws = await indexWorkspace(dir);
      const finding = hotWrite(ws.findings);
      assert.ok(finding);
      const actions = actionsFor(finding, ws.ctx);
      assert.deepEqual(
        actions.filter((a) => a.id === 'add-hash-shard' || a.id === 'add-random-shard').map((a) => a.title),
        [],
      );
      const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
      assert.match(blocked?.title ?? '', /no attribute that identifies the item/);
    } finally {
      cleanup(dir);
    }
  });

  test('key builders of an object in the same file are followed too', async () => {
    const dir = copyFixture('key-helpers-ts', SAFETY_DIR);
    try {
      const file = path.join(dir, 'standings.ts');
      const own = fs
        .readFileSync(file, 'utf8')
        .replace("import { Keys, SEASON } from './keys';\n", '')
        .replace(
          'const ddb =',
          "const SEASON = 'spring';\nconst Keys = {\n  season: (s: string) => `SEASON#${s}`,\n  player(id: string) {\n    return `PLAYER#${id}`;\n  },\n};\n\nconst ddb =",
        );
      fs.writeFileSync(file, own);
      fs.rmSync(path.join(dir, 'keys.ts'));
      const ws = await indexWorkspace(dir);
      const keys = ws.findings.map((f) =>
        f.access.partitionKey?.template.parts.map((p) => ('literal' in p ? p.literal : '?')).join(''),
      );
      assert.ok(keys.length >= 4, `every access is reported: ${keys.join(', ')}`);
      assert.ok(
        keys.every((k) => k === 'SEASON#spring'),
        keys.join(', '),
      );
      // Each finding is at its access's call, not once at the helper's template.
      assert.deepEqual(
        ws.findings.map((f) => f.span.startLine),
        ws.findings.map((f) => f.access.partitionKey!.span.startLine),
      );
      assert.ok(
        ws.findings.every((f) => f.access.partitionKey!.span.startLine > 12),
        'below the helpers',
      );
      const fix = actionsFor(hotWrite(ws.findings)!, ws.ctx).find((a) => a.id === 'add-hash-shard');
      assert.match(fix?.title ?? '', /hash\(SK\) mod 10/);
      const sk = ws.findings.find((f) => f.access.operation === 'GetItem')?.access.sortKey;
      assert.equal(
        sk?.template.parts.map((p) => ('literal' in p ? p.literal : `{${p.hole.kind}}`)).join(''),
        'PLAYER#{entity-id}',
      );
    } finally {
      cleanup(dir);
    }
  });
});

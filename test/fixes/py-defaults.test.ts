// A Python method whose parameter defaults to a module constant (`owner=SHARED_OWNER`),
// called from another module without the argument: the key is the constant, but the
// request that writes it is the method's (`"owner": owner`). The shard fix edits that
// request, never the default (evaluated once, and bypassed by callers that pass an
// owner), so every caller is sharded alike. Another request of the same key attribute
// on a table that may be the same (a script given the table's name) blocks the fix, and
// the light bulb names it.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, indexWorkspace, pythonErrors } from './helpers-write';

const DEFAULTS = path.join(__dirname, 'fixtures', 'defaults');

test('a constant reaching the key through a parameter default in another module: the method’s request is sharded', async () => {
  const dir = copyFixture('py-constant-default', DEFAULTS);
  try {
    const ws = await indexWorkspace(dir);
    const findings = ws.findings.map((f) => `${path.basename(f.access.file)}:${f.span.startLine + 1} ${f.rule}`);
    assert.deepEqual(findings, ['app.py:11 SL001']);
    const actions = allFixes(ws.findings[0], ws.ctx);
    assert.deepEqual(
      actions.map((a) => a.id),
      ['add-random-shard', 'add-hash-shard', 'add-random-shard-backfill', 'add-hash-shard-backfill'],
      'a put read by nothing else: both suffixes, each with its backfill script',
    );
    const random = actions[0];
    assert.deepEqual(
      [...new Set(random.changes.map((c) => path.basename(c.file)))],
      ['store.py'],
      'the caller is not edited',
    );
    applyAction(ws.ctx, random);
    const store = fs.readFileSync(path.join(dir, 'store.py'), 'utf8');
    assert.match(
      store,
      /\n {8}shard = random\.randrange\(SHARED_OWNER_SHARDS\)\n {8}self\._table\.put_item\(Item=\{"owner": f"\{owner\}#\{shard\}"/,
    );
    assert.match(store, /def add_note\(self, text, owner=SHARED_OWNER\):/, 'the default is left as it is');
    assert.deepEqual(pythonErrors(dir), []);
    const fixed = await indexWorkspace(dir);
    assert.deepEqual(
      fixed.findings.map((f) => f.rule),
      [],
    );
  } finally {
    cleanup(dir);
  }
});

test('another request of the key attribute on a table that may be the same blocks the fix, named', async () => {
  const dir = copyFixture('py-default-export', DEFAULTS);
  try {
    const ws = await indexWorkspace(dir);
    const finding = ws.findings.find((f) => path.basename(f.access.file) === 'app.py');
    assert.ok(finding);
    const actions = allFixes(finding, ws.ctx);
    assert.deepEqual(
      actions.map((a) => [a.id, a.changes.length, a.title]),
      [
        [
          'shard-fix-blocked',
          0,
          'No shard fix: the Query at export_notes.py:11 also addresses owner items, on a table not known to be another',
        ],
      ],
    );
  } finally {
    cleanup(dir);
  }
});

// A JavaScript/TypeScript parameter with a constant default (`stream = 'GLOBAL'`) is the
// key at the calls that leave the argument out, in its own module and in another one,
// and only there. A shard suffix never goes into the default (a caller passing the
// argument would bypass it): it goes where the item uses the parameter, or the light
// bulb says why there is none. The fixed writer is run against dynalite in
// write-shard.test.ts (`ts-default-param`).

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import type { Finding } from '../../server/src/engine/model';
import { cleanup, copyFixture, indexWorkspace } from './helpers-write';

const DEFAULTS = path.join(__dirname, 'fixtures', 'defaults');
const SHARD_FIXES = ['add-random-shard', 'add-hash-shard'];
const at = (fs: Finding[]) => fs.map((f) => `${path.basename(f.access.file)}:${f.span.startLine + 1} ${f.rule}`);

test('a call in the same module leaving out the default: the constant is reported, and no fix edits the default', async () => {
  const dir = copyFixture('ts-default-param');
  try {
    const ws = await indexWorkspace(dir);
    assert.deepEqual(at(ws.findings), ['audit-log.ts:12 SL001']);
    const [finding] = ws.findings;
    assert.match(finding.message, /"GLOBAL"/);
    const actions = allFixes(finding, ws.ctx).filter((a) => SHARD_FIXES.includes(a.id));
    assert.deepEqual(actions.map((a) => a.id).sort(), [...SHARD_FIXES].sort());
    for (const a of actions) {
      // Line 12 (0-based 11) holds the parameter list: nothing there changes.
      assert.deepEqual(
        a.changes.filter((c) => c.span.startLine <= 11 && c.span.endLine >= 11),
        [],
        `${a.id} leaves the default alone`,
      );
      assert.ok(
        a.changes.some((c) => c.span.startLine === 16 && /^`\$\{stream\}#/.test(c.newText)),
        `${a.id} suffixes the item's use of the parameter`,
      );
    }
  } finally {
    cleanup(dir);
  }
});

test("a call in another module leaving out the default (SDK v2): reported at that call only, the fix blocked with the parameter's place", async () => {
  const dir = copyFixture('v2-default-module', DEFAULTS);
  try {
    const ws = await indexWorkspace(dir);
    // handler.js:11 passes body.tenantId; the wrapper's own call is judged at its callers.
    assert.deepEqual(at(ws.findings), ['handler.js:5 SL001']);
    const [finding] = ws.findings;
    assert.match(finding.message, /"DEFAULT"/);
    const actions = allFixes(finding, ws.ctx);
    assert.deepEqual(
      actions.filter((a) => SHARD_FIXES.includes(a.id)).map((a) => a.title),
      [],
    );
    const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
    assert.ok(blocked, 'the light bulb says what blocks the fix');
    assert.match(
      blocked.title,
      /the key is the default of parameter queue at store\.js:6, which the call at handler\.js:5 leaves out/,
    );
    assert.deepEqual(blocked.changes, []);
  } finally {
    cleanup(dir);
  }
});

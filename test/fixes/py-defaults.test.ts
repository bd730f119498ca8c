// A Python method whose parameter defaults to a module constant (`owner=SHARED_OWNER`),
// called from another module without the argument: the key is the constant, and the
// light bulb names the parameter and its place, not "built elsewhere".

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import { cleanup, copyFixture, indexWorkspace } from './helpers-write';

const DEFAULTS = path.join(__dirname, 'fixtures', 'defaults');

test('a constant reaching the key through a parameter default in another module: the fix is blocked with the parameter named', async () => {
  const dir = copyFixture('py-constant-default', DEFAULTS);
  try {
    const ws = await indexWorkspace(dir);
    const findings = ws.findings.map((f) => `${path.basename(f.access.file)}:${f.span.startLine + 1} ${f.rule}`);
    assert.deepEqual(findings, ['app.py:11 SL001']);
    const actions = allFixes(ws.findings[0], ws.ctx);
    const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
    assert.ok(blocked, `the light bulb says what blocks the fix: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.match(
      blocked.title,
      /the key is the default of parameter owner at store\.py:12, which the call at app\.py:11 leaves out/,
    );
    assert.doesNotMatch(blocked.title, /built elsewhere/);
  } finally {
    cleanup(dir);
  }
});

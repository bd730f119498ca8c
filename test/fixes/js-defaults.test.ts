// A JavaScript/TypeScript parameter with a constant default (`stream = 'GLOBAL'`) is the
// key at the calls that leave the argument out, in its own module and in another one,
// and only there. A shard suffix never goes into the default (a caller passing the
// argument would bypass it): it goes where the item uses the parameter — in the wrapper's
// request when the call is in another module — or the light bulb says why there is none. The fixed writer is run against dynalite in
// write-shard.test.ts (`ts-default-param`).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import type { Finding } from '../../server/src/engine/model';
import { applyAction, cleanup, copyFixture, indexWorkspace, typeErrors } from './helpers-write';

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

test("a call in another module leaving out the default (SDK v2): reported at that call only, the wrapper's put sharded", async () => {
  const dir = copyFixture('v2-default-module', DEFAULTS);
  try {
    const ws = await indexWorkspace(dir);
    // handler.js:11 passes body.tenantId; the wrapper's own call is judged at its callers.
    assert.deepEqual(at(ws.findings), ['handler.js:5 SL001']);
    const [finding] = ws.findings;
    assert.match(finding.message, /"DEFAULT"/);
    const actions = allFixes(finding, ws.ctx);
    const random = actions.find((a) => a.id === 'add-random-shard');
    assert.ok(random, actions.map((a) => a.title).join('\n'));
    // The put in store.js takes the suffix where it uses the parameter (a shorthand property),
    // so both callers, the one leaving the default out and the one passing a tenant, are sharded.
    const errorsBefore = typeErrors(dir); // TableName: process.env.JOBS_TABLE is string | undefined
    applyAction(ws.ctx, random);
    const store = fs.readFileSync(path.join(dir, 'store.js'), 'utf8');
    // Past the file's width in place: the shard on a line of its own before the put.
    assert.match(
      store,
      /\n {2}const shard = Math\.floor\(Math\.random\(\) \* DEFAULT_SHARDS\);\n {2}await documentClient\n/,
    );
    assert.match(store, /Item: \{ queue: `\$\{queue\}#\$\{shard\}`, jobId/);
    assert.match(store, /async function enqueue\(job, queue = 'DEFAULT'\)/, 'the default is left as it is');
    assert.equal(
      fs.readFileSync(path.join(dir, 'handler.js'), 'utf8').includes('#'),
      false,
      'the callers are not edited',
    );
    assert.deepEqual(
      typeErrors(dir).filter((e) => !errorsBefore.includes(e)),
      [],
    );
    assert.deepEqual(
      (await indexWorkspace(dir)).findings.map((f) => f.rule),
      [],
    );
  } finally {
    cleanup(dir);
  }
});

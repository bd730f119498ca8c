import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { normalizeSettings } from '../../protocol/src/settings';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import { indexedWorkspace } from './helpers';

/**
 * The hover's index section says what the call does to the index: a Query reads the
 * index's partitions; an update that sets the index's key writes to them (it once said
 * the update "reads the index's partitions").
 */
test('the index section of a write that sets the index key says it writes to the index', async () => {
  const { index, dir } = await indexedWorkspace({
    'league.js': fs.readFileSync(path.join(__dirname, '..', 'fixes', 'fixtures', 'league', 'league.js'), 'utf8'),
  });
  try {
    const results = index.results();
    const accesses = results.flatMap((r) => r.accesses);
    const findings = results.flatMap((r) => r.findings);
    const md = (op: string) => {
      const a = accesses.find((x) => x.operation === op && x.index === 'byLeague');
      assert.ok(a, `${op} through byLeague`);
      return hoverMarkdown(a, findings, normalizeSettings({})).value;
    };
    const update = md('UpdateItem');
    assert.match(
      update,
      /\*\*Index\*\* `byLeague`: this UpdateItem sets the index's key by `league`, so DynamoDB also writes/,
    );
    assert.match(update, /1,000 WCU\/s ceiling/);
    assert.doesNotMatch(update, /reads the index's partitions/);
    assert.match(md('Query'), /\*\*Index\*\* `byLeague`: this Query reads the index's partitions by `league`/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

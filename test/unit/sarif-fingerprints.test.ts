// SARIF partialFingerprints name one finding each (a write and two reads of one key
// must not share one, or code scanning merges them into one alert) and do not move
// when unrelated lines are inserted above the calls.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { FileAnalysis } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { toSarif } from '../../server/src/cli/sarif';
import { FINGERPRINT_KEY } from '../../server/src/cli/fingerprint';

const ROOT = path.resolve(__dirname, '..', '..');
const MULTI = path.join(ROOT, 'test', 'fixtures', 'multi-access');

async function analyse(root: string): Promise<FileAnalysis[]> {
  await initParsers();
  const index = new WorkspaceIndex({ root, maxBytes: 2 * 1024 * 1024 });
  for (const f of collectFiles([root]).files) index.analyzeFile(f, false);
  return index.results();
}

interface Result {
  ruleId: string;
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
  partialFingerprints: Record<string, string>;
}
const resultsOf = (r: FileAnalysis[]) =>
  (toSarif(r, '0.0.0') as { runs: Array<{ results: Result[] }> }).runs[0].results;
const printOf = (r: Result) => r.partialFingerprints[FINGERPRINT_KEY];

test('every finding of the examples and the multi-access fixture has its own fingerprint', async () => {
  for (const root of [path.join(ROOT, 'examples'), MULTI]) {
    const results = resultsOf(await analyse(root));
    // The examples hold 6 or more; the fixture 5: its TypeScript accesses of the key are
    // placed at the key's definition, where the repository's write (its table read from the
    // constructor's default) and the handler's, both on "leaderboard", are one finding.
    assert.ok(results.length >= 5, `${root}: ${results.length} findings`);
    const prints = results.map(printOf);
    assert.ok(
      prints.every((p) => /^[0-9a-f]{32}:\d+$/.test(p)),
      prints.join(),
    );
    assert.equal(new Set(prints).size, prints.length, `${root}: ${prints.join(' ')}`);
  }
});

test('a write and two reads of one key in one class are three fingerprints', async () => {
  const results = resultsOf(await analyse(MULTI)).filter((r) =>
    r.locations[0].physicalLocation.artifactLocation.uri.endsWith('scores_dao.py'),
  );
  // record (PutItem) and top (two Query calls) of BOARD#global.
  assert.equal(results.length, 3, JSON.stringify(results.map((r) => r.locations[0].physicalLocation.region)));
  assert.equal(new Set(results.map(printOf)).size, 3);
});

test('fingerprints stay when unrelated lines are inserted above, while the lines move', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-fingerprints-'));
  try {
    for (const f of fs.readdirSync(MULTI)) fs.copyFileSync(path.join(MULTI, f), path.join(dir, f));
    const before = resultsOf(await analyse(dir));
    const ts = path.join(dir, 'leaderboard-repo.ts');
    const py = path.join(dir, 'scores_dao.py');
    const tsText = fs.readFileSync(ts, 'utf8');
    const at = tsText.indexOf('export class');
    fs.writeFileSync(
      ts,
      tsText.slice(0, at) + '// Scores are integers.\nexport const MAX_SCORE = 1_000_000;\n\n' + tsText.slice(at),
    );
    fs.writeFileSync(
      py,
      fs.readFileSync(py, 'utf8').replace('BOARD = ', 'import logging\n\nLOG = logging.getLogger()\nBOARD = '),
    );
    const after = resultsOf(await analyse(dir));
    assert.equal(after.length, before.length);
    const lines = (rs: Result[]) => rs.map((r) => r.locations[0].physicalLocation.region.startLine);
    assert.notDeepEqual(lines(after), lines(before), 'the findings moved');
    assert.deepEqual(after.map(printOf).sort(), before.map(printOf).sort());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

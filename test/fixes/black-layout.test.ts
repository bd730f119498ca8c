// Python code kept as black keeps it stays so after a fix: every fix offered in the Python
// fixtures (readers, counters, caches, hash helpers, key builders), applied alone, leaves
// each file it changes as black (Debian's `black`, `-S` to keep the file's quotes, at the
// project's width) would write it — the reader's request dicts one entry a line past the
// width, the counter wrapper around a call broken one step in, two blank lines after a
// helper. The one exception is an author's own line that a shard edit lengthens in place:
// the fix edits inside the line and does not re-lay it out (listed below, and checked to be
// the only lines black would change).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { projectLineWidth } from '../../server/src/features/fixes/line-width';
import { textsAfter } from './helpers-write';

const FIXTURES = path.join(__dirname, 'fixtures');
const FOLDERS = [
  'py-leaderboard',
  'guestbook-py',
  'job-states-py',
  'py-tickets',
  'py-quotes',
  'lab-python',
  'cache',
  'counter',
];

/** Author lines a shard edit lengthens past the width (file, the start of the line as written before). */
const EDITED_IN_PLACE = [
  ['counter/number-shapes/downloads.py', 'Key={"id": {"N": str(7'],
  ['counter/py-views/page_stats.py', 'Key={"pk": {"S": f"STATS#site#'],
  ['counter/py-views/page_stats.py', 'ExpressionAttributeValues={":one": {"N": "1"}, ":page"'],
  ['cache/visits/likes.py', 'shown = {"Item": {"stat": {"S": "likes"}, "total"'],
  // PynamoDB: the key builder wrapped around a save's argument, and the reader called where the
  // author's comprehension made the query.
  ['py-quotes/arcade/handlers.py', "HighScore(cabinet=high_score_cabinet_key('pacman'"],
  ['py-quotes/arcade/handlers.py', "return [{'player': s.player, 'points': s.points} for s in query_high_score"],
];

/** Files written on purpose in layouts black does not make (PEP 8's visual indent, a hugged dict). */
const NOT_BLACK = [
  'counter/py-legacy-adds/downloads.py',
  // `put_item(Item={` hugged on the call's line: black puts the argument on a line of its own.
  'py-quotes/rooms/chat.py',
];

const walk = (d: string): string[] =>
  fs
    .readdirSync(d)
    .flatMap((f) => (fs.statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));

/**
 * What black would change in `text`, one entry per run of changed lines (its removed and added
 * lines, trimmed, `-`/`+` first); empty when black leaves the text as it is.
 */
function blackChanges(text: string, width: number): string[][] {
  const diff = execFileSync('black', ['-S', '-q', '-l', String(width), '--diff', '-'], { input: text }).toString();
  const runs: string[][] = [];
  let run: string[] | null = null;
  for (const line of diff.split('\n').slice(2)) {
    if (/^[-+]/.test(line)) (run ??= []).push(line[0] + line.slice(1).trim());
    else if (run) {
      runs.push(run);
      run = null;
    }
  }
  if (run) runs.push(run);
  return runs;
}

/** Whether a run of black's changes only re-lays out author lines listed as edited in place. */
const relaysAllowed = (run: string[], allowed: string[]) => {
  const removed = run.filter((l) => l.startsWith('-')).map((l) => l.slice(1));
  return removed.length > 0 && removed.every((l) => allowed.some((a) => l.startsWith(a)));
};

test('black is installed (Debian package `black`)', () => {
  assert.match(execFileSync('black', ['--version']).toString(), /black/);
});

for (const folder of FOLDERS)
  test(`${folder}: every Python fix leaves its files as black lays them out`, async () => {
    await initParsers();
    const dir = path.join(FIXTURES, folder);
    const index = new WorkspaceIndex({ root: dir });
    index.analyzeAll(walk(dir).filter((f) => /\.(py|ts|js)$/.test(f)));
    const ctx = fixContextOf(index);
    let checked = 0;
    const problems: string[] = [];
    for (const finding of index.results().flatMap((r) => r.findings))
      for (const action of allFixes(finding, ctx))
        for (const [file, after] of textsAfter(ctx, action)) {
          if (!file.endsWith('.py')) continue;
          const before = ctx.textOf(file);
          const name = path.relative(FIXTURES, file);
          if (before === null) {
            // A file the fix creates (a backfill script): laid out for black's own 88 columns.
            const changes = blackChanges(after, 88);
            if (changes.length)
              problems.push(`${name} (new) after "${action.title}":\n  ${changes.flat().join('\n  ')}`);
            checked++;
            continue;
          }
          const width = projectLineWidth(file, before);
          if (NOT_BLACK.includes(name)) {
            assert.notDeepEqual(blackChanges(before, width), [], `${name} is not black's layout`);
            continue;
          }
          assert.deepEqual(blackChanges(before, width), [], `${name} is black-formatted before the fix`);
          const allowed = EDITED_IN_PLACE.filter(([f]) => f === name).map(([, start]) => start);
          const unexpected = blackChanges(after, width).filter((run) => !relaysAllowed(run, allowed));
          if (unexpected.length)
            problems.push(
              `${name} after "${action.title}":\n  ${unexpected.map((r) => r.join('\n  ')).join('\n  …\n  ')}`,
            );
          checked++;
        }
    assert.ok(checked > 0, 'some Python fix is offered');
    assert.deepEqual(problems, []);
  });

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startServer, type Session } from './lsp-client';
import { DAMAGE, FRAGMENTS, INITIAL_TEXTS, play, type EditSpec, type Scenario } from './lsp-edits';

/**
 * Property: whatever edits a client sends — inserts, deletes, multi-line, CRLF,
 * surrogate pairs whole and split, ranges reversed or past the text, sent while the
 * server is still starting — the server holds the client's text (in its document and
 * in the text its syntax tree was edited with), and its diagnostics are those of a
 * fresh open of the final text. The real server bundle over stdio; it reads its text
 * back through the test-only `shardlens/test/documentText` request. A few seconds
 * here; `npm run fuzz` runs the same check for longer (fuzz/lsp.ts).
 */

const edit: fc.Arbitrary<EditSpec> = fc.record({
  full: fc.integer({ min: 0, max: 19 }).map((i) => i === 0),
  at: fc.integer({ min: 0, max: 1000 }).map((i) => i / 1000),
  length: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 60 })),
  damage: fc.oneof(
    { weight: 4, arbitrary: fc.constant('none' as const) },
    { weight: 3, arbitrary: fc.constantFrom(...DAMAGE) },
  ),
  text: fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 4 }).map((parts) => parts.join('')),
});

const scenario: fc.Arbitrary<Scenario> = fc.record({
  initial: fc.integer({ min: 0, max: INITIAL_TEXTS.length - 1 }),
  batches: fc.array(fc.record({ edits: fc.array(edit, { minLength: 1, maxLength: 4 }), check: fc.boolean() }), {
    minLength: 1,
    maxLength: 8,
  }),
});

let folder: string;
const sessions: Session[] = [];
const start = () => {
  const s = startServer(folder, { testRequests: true });
  sessions.push(s);
  return s;
};

before(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-edits-'));
});

after(() => {
  for (const s of sessions) s.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('random edit sequences: the server keeps the client’s text, and the diagnostics of a fresh open', async () => {
  const session = start();
  await session.initialize();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      const wrong = await play(session, folder, `edit-${n++}`, s);
      assert.equal(wrong, null, wrong ?? undefined);
    }),
    { numRuns: 50, seed: 20260101 },
  );
});

test('random edits sent while the server is still starting land in order', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      const session = start();
      await session.initialize();
      const wrong = await play(session, folder, 'starting', s, { racing: true });
      session.stop();
      assert.equal(wrong, null, wrong ?? undefined);
    }),
    { numRuns: 3, seed: 20260102, endOnFailure: true },
  );
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Hover } from 'vscode-languageserver';
import { foundCount, run, SAFETY_DIR, SAFETY_FIXTURES, type Run } from '../fixes/safety-fixtures';
import { codeActionsAt, openDocument, serveFixture, writeWorkspaceEdit } from './lsp-actions';

/**
 * A shard fix over LSP, as an editor applies it: the code actions on a hot write whose
 * items are also read and updated one by one offer the calculated suffix and no random
 * one; its WorkspaceEdit, written to disk, keeps what the program stores and returns
 * (run against dynalite before and after). Where no shard fix is safe, the light bulb
 * and the hover say what blocks it.
 */

const tickets = SAFETY_FIXTURES.find((f) => f.name === 'tickets-ts')!;

describe('a repository with put, get, update and query of one key, fixed over LSP', () => {
  let baseline: Run;
  const lsp = serveFixture('tickets-ts', SAFETY_DIR, {
    prepare: async (dir) => {
      baseline = await run(tickets, dir);
    },
  });
  const file = () => path.join(lsp.dir, 'ticket-repository.ts');

  test('the calculated fix rewrites every access; run, it keeps every item and every read', async () => {
    const ds = await openDocument(lsp.session, file());
    const put = ds.find((d) => d.code === 'SL001' && String(d.message).includes('writes'));
    assert.ok(put, JSON.stringify(ds.map((d) => d.message)));
    const titles = (await codeActionsAt(lsp.session, file(), put.range)).map((a) => a.title);
    assert.deepEqual(
      titles.filter((t) => t.startsWith('Add a')),
      ['Add a calculated shard suffix: hash(SK) mod 10 (and 3 other accesses of the key)'],
      'no random suffix: the items are read and updated by their key',
    );
    const fix = (await codeActionsAt(lsp.session, file(), put.range)).find(
      (a) => a.title === titles.find((t) => t.startsWith('Add a calculated')),
    );
    writeWorkspaceEdit(fix!.edit!.changes!);
    const text = fs.readFileSync(file(), 'utf8');
    assert.equal(
      (text.match(/shardlensHash\(String\(`TICKET#\$\{/g) ?? []).length,
      3,
      'put, get and update hash the sort key',
    );
    assert.match(text, /await queryTicketsOpenShards\(this\.doc\)/);

    const after = await run(tickets, lsp.dir);
    assert.equal(foundCount(baseline), 20);
    assert.equal(foundCount(after), 20, 'every get finds its ticket');
    assert.deepEqual(after.stored, baseline.stored, 'the same items, apart from the key');
    assert.deepEqual(after.output, baseline.output, 'the same gets and the same list, in order');
    assert.equal(after.keys, 10);
  });
});

describe('a mapper shared with another use: no shard fix, and the hover says why', () => {
  // The other use of the mapper is in a file no editor opened: the tests wait for the workspace index.
  const lsp = serveFixture('shared-mapper-ts', SAFETY_DIR, { waitForIndex: true });

  test('the light bulb and the hover name the other use of toBallotItem', async () => {
    const file = path.join(lsp.dir, 'ballot-store.ts');
    const ds = await openDocument(lsp.session, file);
    const hot = ds.find((d) => d.code === 'SL002')!;
    assert.ok(hot, JSON.stringify(ds.map((d) => d.message)));
    const titles = (await codeActionsAt(lsp.session, file, hot.range)).map((a) => a.title);
    assert.deepEqual(
      titles.filter((t) => t.startsWith('Add a')),
      [],
    );
    assert.ok(
      titles.includes(
        'No shard fix: toBallotItem() also builds items at ballot-api.ts:5, not only this key’s'.replace('’', "'"),
      ),
      titles.join('\n'),
    );
    const hover = (await lsp.session.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: pathToFileURL(file).toString() },
      position: hot.range.start,
    })) as Hover;
    // Values from the code are escaped plain text in the markdown.
    const md = (hover.contents as { value: string }).value.replace(/\\(.)/g, '$1');
    assert.match(md, /\*\*No shard fix:\*\* toBallotItem\(\) also builds items at ballot-api\.ts:5/);
  });
});

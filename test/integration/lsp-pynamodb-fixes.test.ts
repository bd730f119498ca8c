import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fixtureCopier } from '../fixes/helpers-write';
import { codeActionsAt, indexed, openDocument, writeWorkspaceEdit } from './lsp-actions';
import { startServer } from './lsp-client';

/**
 * PynamoDB's shard fix over LSP, as an editor applies it: on the save of a score read item by
 * item, the light bulb offers the calculated shard only; its WorkspaceEdit, written to disk,
 * puts the key builder in the models module, calls it at every access, and the modules compile.
 * (Static: PynamoDB is not installable here, so the fixed program is not run.)
 */

const copy = fixtureCopier(path.join(__dirname, '..', 'fixtures', 'libraries', 'pynamodb'));

test('the calculated PynamoDB shard fix is offered and applied over LSP', async () => {
  const dir = copy('scores');
  const handlers = path.join(dir, 'handlers.py');
  const session = startServer(dir);
  try {
    await session.initialize();
    // The model is in a module no editor opened: wait for the workspace index.
    await indexed(session);
    const ds = await openDocument(session, handlers);
    const save = ds.find((d) => d.code === 'SL001' && d.range.start.line === 7);
    assert.ok(save, JSON.stringify(ds.map((d) => [d.code, d.range.start.line])));
    const actions = await codeActionsAt(session, handlers, save.range);
    const titles = actions.map((a) => a.title).filter((t) => t.startsWith('Shard '));
    assert.deepEqual(titles, [
      'Shard Score.board by hash(player) mod 10 in score_board_key() (10 shards, 1 query of every shard)',
    ]);
    const fix = actions.find((a) => a.title === titles[0]);
    assert.deepEqual(writeWorkspaceEdit(fix!.edit!.changes!).sort(), ['handlers.py', 'models.py']);
  } finally {
    session.stop();
  }
  const text = fs.readFileSync(handlers, 'utf8');
  assert.equal(text.match(/score_board_key\("global", event\["player"\]\)/g)?.length, 3);
  assert.match(text, /query_score_board_shards\("global", limit=100\)/);
  assert.match(fs.readFileSync(path.join(dir, 'models.py'), 'utf8'), /^def score_board_key\(board, player\):/m);
  execFileSync('python3', ['-m', 'py_compile', handlers, path.join(dir, 'models.py')]);
});

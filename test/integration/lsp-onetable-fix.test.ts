import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { typeErrors } from '../fixes/helpers-write';
import { codeActionsAt, openDocument, serveFixture, writeWorkspaceEdit } from './lsp-actions';

/**
 * OneTable's shard fix over LSP, as an editor takes it: the light bulb on a hot create offers the
 * shard computed from the player (its scores are read and updated one by one, so no random one),
 * and its WorkspaceEdit, written to disk, edits the schema, the table and the find in three files
 * and type-checks.
 */
const lsp = serveFixture('onetable-fix', path.join(__dirname, '..', 'fixtures', 'libraries'), { waitForIndex: true });

test('the calculated shard fix of a OneTable model is offered and applied over LSP', async () => {
  const file = path.join(lsp.dir, 'scores.ts');
  const ds = await openDocument(lsp.session, file);
  const create = ds.find((d) => d.code === 'SL001' && d.range.start.line === 4);
  assert.ok(create, JSON.stringify(ds.map((d) => [d.range.start.line, d.message])));
  const actions = await codeActionsAt(lsp.session, file, create.range);
  const shard = actions.filter((a) => a.title.startsWith('Shard the Score key'));
  assert.deepEqual(
    shard.map((a) => a.title),
    [
      'Shard the Score key in its schema: a shard field computed from playerId (10 shards), every find reading all of them',
    ],
  );
  const files = writeWorkspaceEdit(shard[0].edit!.changes!);
  assert.deepEqual(files.sort(), ['db.ts', 'schema.ts', 'scores.ts']);
  assert.match(fs.readFileSync(path.join(lsp.dir, 'schema.ts'), 'utf8'), /value: 'board#\$\{board\}#\$\{shard\}'/);
  assert.match(fs.readFileSync(file, 'utf8'), /await findScoreShards\(\{ board: 'global' \}\)/);
  assert.deepEqual(typeErrors(lsp.dir), []);
});

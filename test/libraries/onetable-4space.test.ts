/**
 * A OneTable fix in the layout of the code it edits (docs/fixes.md, OneTable): a quiz
 * service indented by four spaces whose schema writes one property a line and `type:
 * 'string'` (test/fixtures/libraries/onetable-4space). The count joins the module's one
 * import of the schema, every line the fix adds is in four-space steps, the shard field is
 * written as the key's field is; the fixed service type-checks against the pinned typings
 * and runs with the real library against dynalite, every answer listed and updated in place.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes';
import { applyAction, fixtureCopier, indexWorkspace, typeErrors } from '../fixes/helpers-write';
import { stringKeyTable, withDynalite } from './helpers';

const copy = fixtureCopier(path.join(__dirname, '..', 'fixtures', 'libraries'));

test('OneTable in a four-space file: one schema import, four-space steps, the shard field written as the key is', async () => {
  const dir = copy('onetable-4space');
  const ws = await indexWorkspace(dir);
  const finding = ws.findings.find((f) => f.rule === 'SL001');
  assert.ok(finding, 'the constant quiz key is found');
  const action = allFixes(finding, ws.ctx).find((a) => a.id === 'onetable-calculated-shard');
  assert.ok(action, 'the calculated shard is offered');
  const files = applyAction(ws.ctx, action);
  const texts = new Map(files.map((f) => [path.basename(f), fs.readFileSync(f, 'utf8')]));
  const db = texts.get('db.ts')!;
  assert.equal(db.match(/from '\.\/schema'/g)?.length, 1, db);
  assert.match(db, /^import schema, \{ ANSWER_SHARDS \} from '\.\/schema';$/m);
  const schema = texts.get('schema.ts')!;
  assert.match(
    schema,
    /\n {12}shard: \{\n {16}type: 'string',\n {16}value: true,\n {12}\},\n/,
    'one property a line, typed as the key is',
  );
  for (const [file, text] of texts) {
    const odd = text.split('\n').filter((l) => /^( *)/.exec(l)![1].length % 4 !== 0 && !/^ +\*/.test(l));
    assert.deepEqual(odd, [], `${file}: every line in four-space steps`);
  }
  assert.deepEqual(typeErrors(dir), []);
  await withDynalite([stringKeyTable('quiz', ['pk', 'sk'], [])], { TABLE_NAME: 'quiz' }, async ({ stored }) => {
    const m = await import(pathToFileURL(path.join(dir, 'answers.ts')).href);
    for (let i = 0; i < 15; i++) await m.answer(`a${String(i).padStart(2, '0')}`, i % 4);
    await m.change('a03', 9);
    const listed = (await m.answers()) as Array<{ answerId: string; choice: number }>;
    assert.deepEqual(
      listed.map((a) => a.answerId),
      Array.from({ length: 15 }, (_, i) => `a${String(i).padStart(2, '0')}`),
    );
    assert.equal(listed.find((a) => a.answerId === 'a03')?.choice, 9, 'the update found the item its create stored');
    assert.ok(new Set((await stored('quiz')).map((i) => i.pk)).size > 1, 'the answers spread over shards');
  });
});

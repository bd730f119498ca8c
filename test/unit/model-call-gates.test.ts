/**
 * The gates that decide whether a file naming no DynamoDB library may still call one's model
 * (`User.get(`, `userModel.query(`, `table.get('Counter', …)`, `cat.save()`) read each dotted
 * call and the name before it. They must answer as the whole-text patterns they replace, on
 * random texts made of the pieces those patterns look at: capitals, words, spaces of every kind
 * `\s` knows, dots, quotes, parentheses and the methods' names.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { callsModel as callsOneTableModel } from '../../server/src/engine/frontends/onetable/calls';
import { callsModel as callsDynamooseModel } from '../../server/src/engine/frontends/dynamoose/calls';
import { callsEntity as callsToolboxEntity } from '../../server/src/engine/frontends/toolbox/calls';
import { seededRandom } from './seeded-random';

const ONETABLE =
  /(\b[A-Z]\w*\s*\.\s*(create|get|find|update|upsert|remove)\s*\()|(\.\s*(create|get|find|update|upsert|remove)\s*\(\s*['"][A-Z])/;
const DYNAMOOSE =
  /(?:\b[A-Z]\w*|Model)\s*\.\s*(?:get|create|update|delete|batch\w+|query|scan|transaction)\b|\.save\s*\(/;
const TOOLBOX = /\b[A-Z]\w*\s*\.\s*(put|get|update|delete|query)\s*\(/;

const PIECES = [
  'User',
  'user',
  'userModel',
  'Model',
  'x',
  '_A',
  '$A',
  '9',
  'é',
  'Ünter',
  ' ',
  '\n',
  '\t',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '.',
  '.',
  '(',
  ')',
  "'",
  '"',
  "'C",
  '"C',
  'get',
  'put',
  'create',
  'find',
  'update',
  'upsert',
  'remove',
  'delete',
  '.get(',
  '.find (',
  '. update(',
  '.query',
  '.save(',
  'Table.',
  'query',
  'scan',
  'transaction',
  'batchPut',
  'batch',
  'save',
  'saveAll',
  'getItem',
  ';',
  '=',
  '#',
];

const GATES = [
  { name: 'OneTable', gate: callsOneTableModel, pattern: ONETABLE },
  { name: 'Dynamoose', gate: callsDynamooseModel, pattern: DYNAMOOSE },
  { name: 'DynamoDB-Toolbox', gate: callsToolboxEntity, pattern: TOOLBOX },
];

test('each gate answers as the whole-text pattern it replaces, on random texts', () => {
  const next = seededRandom(20);
  const hits = new Map(GATES.map((g) => [g.name, 0]));
  for (let t = 0; t < 20_000; t++) {
    let text = '';
    const n = 1 + Math.floor(next() * 14);
    for (let i = 0; i < n; i++) text += PIECES[Math.floor(next() * PIECES.length)];
    for (const g of GATES) {
      const expected = g.pattern.test(text);
      assert.equal(g.gate(text), expected, `${g.name} on ${JSON.stringify(text)}`);
      if (expected) hits.set(g.name, hits.get(g.name)! + 1);
    }
  }
  // Both answers are met often: a gate that always said no (or yes) would fail above.
  for (const [name, n] of hits) assert.ok(n > 500 && n < 19_500, `${name}: ${n} of 20,000 texts match`);
});

test('a gate reads every call: one that fails the receiver check does not hide a later one', () => {
  const text = 'repo.get(a);\nconst x = y.find(z);\n  Order\n    .update(b)';
  assert.equal(callsOneTableModel(text), true);
  assert.equal(callsToolboxEntity(text), true);
  assert.equal(callsDynamooseModel('a.get(); b.query(); cat.save ()'), true);
  assert.equal(callsDynamooseModel('a.get(); b.query(); cat.saveAll()'), false);
});

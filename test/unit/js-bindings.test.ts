import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'web-tree-sitter';
import { findBinding } from '../../server/src/engine/frontends/js/scope';
import { reachingBindings } from '../../server/src/engine/frontends/js/reaching-bindings';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { analyze, summarize } from './helpers';

/** The last identifier `name` written in `text`, parsed as TypeScript. */
async function lastUse(text: string, name: string): Promise<Node> {
  await initParsers();
  const tree = parse('typescript', text);
  const ids = tree.rootNode.descendantsOfType('identifier').filter((n): n is Node => n?.text === name);
  assert.ok(ids.length > 0, `no ${name} in the text`);
  return ids[ids.length - 1];
}

async function bindingOf(text: string, name: string) {
  const b = findBinding(await lastUse(text, name));
  return b?.kind === 'import' ? { kind: b.kind, source: b.source, name: b.name } : b?.kind;
}

const MODULES: Array<[string, string, { kind: 'import'; source: string; name: string }]> = [
  ['const { save, load: loadIt } = require("./db");', 'save', { kind: 'import', source: './db', name: 'save' }],
  ['const { save, load: loadIt } = require("./db");', 'loadIt', { kind: 'import', source: './db', name: 'load' }],
  ['const { load: loadIt = noop } = require("./db");', 'loadIt', { kind: 'import', source: './db', name: 'load' }],
  ['const db = require("./db");', 'db', { kind: 'import', source: './db', name: '*' }],
  ['const db = await require("./db");', 'db', { kind: 'import', source: './db', name: '*' }],
  ['import * as db from "./db";', 'db', { kind: 'import', source: './db', name: '*' }],
  ['import db from "./db";', 'db', { kind: 'import', source: './db', name: 'default' }],
  ['import db, { save as put } from "./db";', 'put', { kind: 'import', source: './db', name: 'save' }],
  ['import db, { save as put } from "./db";', 'db', { kind: 'import', source: './db', name: 'default' }],
];

test('require and import forms bind their names to the module or its members', async () => {
  for (const [decl, name, expected] of MODULES) {
    assert.deepEqual(await bindingOf(`${decl}\nexport const f = () => ${name}(1);\n`, name), expected, decl);
  }
});

test('a module top level too large to read whole finds the same bindings by name', async () => {
  // Past 64 statements a block is searched by the name's text rather than read whole.
  const filler = Array.from({ length: 80 }, (_, i) => `const c${i} = ${i};`).join('\n');
  for (const [decl, name, expected] of MODULES) {
    assert.deepEqual(await bindingOf(`${decl}\n${filler}\nexport const f = () => ${name}(1);\n`, name), expected, decl);
  }
});

test('a require that is not the whole value stays a value', async () => {
  assert.equal(await bindingOf('const T = require("./cfg").TABLE;\nexport const f = () => T;\n', 'T'), 'value');
});

test('an imported module constant is read through the namespace: db.TABLE', async () => {
  await initParsers();
  const { analyzeSource } = await import('../../server/src/engine/analyze');
  const lookup = (source: string, name: string) =>
    source === './names' && name === 'BOARD'
      ? { kind: 'scalar' as const, template: { parts: [{ literal: 'BOARD#global' }] }, span: span0 }
      : null;
  for (const decl of ['import * as names from "./names";', 'const names = require("./names");']) {
    const text = `${decl}\nawait doc.send(new PutCommand({ TableName: "t", Item: { pk: names.BOARD } }));\n`;
    const r = analyzeSource('a.ts', text, 'typescript', { resolveImport: (_f, _l, s, n) => lookup(s, n) });
    assert.deepEqual(summarize(r), ['2 PutItem t pk=BOARD#global (constant)'], decl);
  }
});

const span0 = { startLine: 0, startColumn: 0, endLine: 0, endColumn: 1 };

test('reaching bindings: the declaration and a branch that may overwrite it, not a sibling block of its own', async () => {
  const text = [
    'function f(region) {',
    '  let pk = "P#" + region;',
    '  if (!region) { pk = "P#DEFAULT"; }',
    '  { let pk = "INNER"; pk = "X"; }',
    '  return pk;',
    '}',
  ].join('\n');
  const found = reachingBindings(await lastUse(text, 'pk'));
  assert.deepEqual(
    found?.map((b) => (b.kind === 'value' ? b.node.text : b.kind)),
    ['"P#" + region', '"P#DEFAULT"'],
  );
  // A use with one reaching binding has no alternatives.
  assert.equal(reachingBindings(await lastUse('let pk = "A";\npk = "B";\nuse(pk);\n', 'pk')), null);
});

test('analysing a file that requires a helper module keeps its call sites', async () => {
  const r = await analyze(
    'lib/lobby.js',
    [
      'const AWS = require("aws-sdk");',
      'const { save } = require("./db");',
      'const db = new AWS.DynamoDB.DocumentClient();',
      'exports.join = (id) => db.put({ TableName: "lobby", Item: { pk: "LOBBY", sk: id } }).promise();',
    ].join('\n'),
  );
  assert.deepEqual(summarize(r), ['4 PutItem lobby pk=LOBBY sk={entity-id} (constant)']);
});

test('callers of a method are calls through its class or an instance, not namesakes', async () => {
  await initParsers();
  const { callersOf } = await import('../../server/src/engine/frontends/js/callers');
  const tree = parse(
    'typescript',
    [
      'import { get } from "lodash";',
      'class Users {',
      '  get(userId: string) { return userId; }',
      '  me() { return this.get("from this"); }',
      '  static of(id: string) { return Users.get(id); }',
      '}',
      'class Admins extends Users {}',
      'function find(id: string) { return id; }',
      'export function route(repo: Users, cache: Map<string, string>) {',
      '  const u = new Users();',
      '  get(settings, "lodash");',
      '  cache.get("a map");',
      '  u.get("bound");',
      '  repo.get("annotated");',
      '  new Admins().get("subclass");',
      '  return ["x"].map(find), find("free");',
      '}',
    ].join('\n'),
  );
  const fn = (name: string) =>
    tree.rootNode
      .descendantsOfType(['method_definition', 'function_declaration'])
      .find((d): d is Node => d?.childForFieldName('name')?.text === name)!;
  const args = (name: string) => callersOf(fn(name)).map((c) => c.childForFieldName('arguments')?.text);
  assert.deepEqual(args('get'), ['("from this")', '(id)', '("bound")', '("annotated")', '("subclass")']);
  assert.deepEqual(args('find'), ['(find)', '("free")']);
});

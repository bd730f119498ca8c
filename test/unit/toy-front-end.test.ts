import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Writable } from 'node:stream';
import type { Node } from 'web-tree-sitter';
import type { JsonReport } from '../../protocol/src/report';
import { check as runCheck } from '../../server/src/cli/main';
import { callStyle } from '../../server/src/engine/frontends/call-style';
import { newContext } from '../../server/src/engine/frontends/evaluation';
import { registerLibraryFrontEnd } from '../../server/src/engine/frontends/registry';
import type { CallSite } from '../../server/src/engine/model/call-site';
import type { EvalContext } from '../../server/src/engine/model/eval-context';
import type { FrontEnd, LibraryFrontEnd, SourceFile } from '../../server/src/engine/model/frontend';
import { literalText } from '../../server/src/engine/model/template';
import { entry, type Value } from '../../server/src/engine/model/value';
import { spanOf } from '../../server/src/engine/syntax/span';

/**
 * A toy DynamoDB library, `@acme/dynamodb-kv`, read by a front-end this test registers:
 * `new KvStore({ table, key })` defines a table whose partition key is `key`, and
 * `store.set(value, fields)` writes an item with `value` under that key. Nothing of the
 * engine is edited for it: its calls and its table definitions reach the wrapper
 * summaries, the rules and `check`'s report only because it is registered.
 */
const toy: LibraryFrontEnd = {
  id: 'acme-kv',
  languages: ['typescript', 'tsx', 'javascript'],
  callSites: (f, fe) => stores(f, fe).flatMap(({ call, store, ctx }) => toySite(call, store, f, ctx)),
  tableDefinitions: (f, fe) =>
    constructions(f, fe).flatMap(({ store }) => (store ? [[`literal:${store.table}`, { partition: store.key }]] : [])),
};

interface Store {
  table: string;
  key: string;
}

/** `new KvStore({ table: "scores", key: "board" })`. */
function storeOf(made: Node | null, ctx: EvalContext): Store | null {
  if (made?.type !== 'new_expression' || made.childForFieldName('constructor')?.text !== 'KvStore') return null;
  const arg = made.childForFieldName('arguments')?.namedChild(0);
  const options = arg ? ctx.evaluate(arg, ctx) : null;
  const text = (name: string) => {
    const v = entry(options ?? undefined, name);
    return v?.kind === 'scalar' ? literalText(v.template) : null;
  };
  const [table, key] = [text('table'), text('key')];
  return table && key ? { table, key } : null;
}

function constructions(f: SourceFile, fe: FrontEnd): Array<{ store: Store | null }> {
  if (!f.text.includes('KvStore')) return [];
  const ctx = newContext(fe.evaluate, f.lookups);
  return f.tree.rootNode.descendantsOfType('new_expression').map((n) => ({ store: storeOf(n, ctx) }));
}

/** Every `x.set(...)` whose `x` is bound to a `new KvStore(...)` of this file. */
function stores(f: SourceFile, fe: FrontEnd): Array<{ call: Node; store: Store; ctx: EvalContext }> {
  if (!f.text.includes('KvStore')) return [];
  const out: Array<{ call: Node; store: Store; ctx: EvalContext }> = [];
  for (const call of f.tree.rootNode.descendantsOfType('call_expression')) {
    const callee = call?.childForFieldName('function');
    if (!call || callee?.type !== 'member_expression' || callee.childForFieldName('property')?.text !== 'set') continue;
    const receiver = callee.childForFieldName('object');
    const ctx = newContext(fe.evaluate, f.lookups);
    const store = receiver?.type === 'identifier' ? storeOf(fe.valueOf(receiver, ctx), ctx) : null;
    if (store) out.push({ call, store, ctx });
  }
  return out;
}

/** `store.set(value, fields)` as the PutItem it makes: `{ TableName, Item: { ...fields, [key]: value } }`. */
function toySite(call: Node, store: Store, f: SourceFile, ctx: EvalContext): CallSite[] {
  const [keyArg, fieldsArg] = call.childForFieldName('arguments')?.namedChildren ?? [];
  const key = keyArg ? ctx.evaluate(keyArg, ctx) : null;
  if (!key) return [];
  const fields = fieldsArg ? ctx.evaluate(fieldsArg, ctx) : null;
  const at = spanOf(call);
  const scalar = (text: string): Value => ({ kind: 'scalar', template: { parts: [{ literal: text }] }, span: at });
  const item: Value = {
    kind: 'object',
    // The item's fields, then the key: only the store's table definition says which attribute is the key.
    entries: [...(fields?.kind === 'object' ? fields.entries : []), [store.key, key]],
    span: at,
  };
  const input: Value = {
    kind: 'object',
    entries: [
      ['TableName', scalar(store.table)],
      ['Item', item],
    ],
    span: at,
  };
  const receiver = call.childForFieldName('function')?.childForFieldName('object')?.text ?? null;
  return [
    {
      file: f.file,
      language: f.language,
      operation: 'PutItem',
      sdk: 'lib-dynamodb',
      span: at,
      input,
      table: { kind: 'literal', name: store.table },
      paginated: false,
      paginator: false,
      call: callStyle(call, f.text, 'v2-promise', 'set', receiver),
    },
  ];
}

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'toy-app', dependencies: { '@acme/dynamodb-kv': '1.0.0' } }),
  'src/repo.ts': [
    "import { KvStore } from '@acme/dynamodb-kv';",
    '',
    "const scores = new KvStore({ table: 'scores', key: 'board' });",
    '',
    'export async function record(board: string, season: string, points: number) {',
    '  await scores.set(board, { season, points });',
    '}',
    '',
  ].join('\n'),
  'src/handler.ts': [
    "import { record } from './repo';",
    '',
    'export async function handler(event: { points: number; season: string }) {',
    "  await record('GLOBAL', event.season, event.points);",
    '}',
    '',
  ].join('\n'),
};

async function checkJson(root: string): Promise<JsonReport> {
  const cwd = process.cwd();
  let out = '';
  let err = '';
  const sink = (add: (s: string) => void) =>
    new Writable({ write: (chunk, _enc, done) => (add(String(chunk)), done()) });
  process.chdir(root);
  try {
    const options = { paths: ['.'], format: 'json' as const, failOn: 'error' as const, quiet: false, color: false };
    const code = await runCheck(
      { ...options, maxFileBytes: 2 << 20 },
      sink((s) => (out += s)),
      sink((s) => (err += s)),
    );
    assert.ok(code === 0 || code === 1, err);
  } finally {
    process.chdir(cwd);
  }
  return JSON.parse(out) as JsonReport;
}

const accessLines = (r: JsonReport) =>
  r.accesses.map(
    (a) => `${a.file}:${a.line} ${a.operation} ${a.table} ${a.partitionKey?.attribute} = ${a.partitionKey?.template}`,
  );

/** `check` on FILES with `library` registered for the run (or none). */
async function checkWith(library: LibraryFrontEnd | null): Promise<JsonReport> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-toy-'));
  const unregister = library ? registerLibraryFrontEnd(library) : () => {};
  try {
    for (const [rel, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    return await checkJson(root);
  } finally {
    unregister();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('a front-end registered from outside the engine: its calls, through a wrapper, and its table definitions reach the rules and the check report', async () => {
  const report = await checkWith(toy);
  // The wrapper's write, called with a constant: judged where the constant is written.
  const found = report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`);
  assert.deepEqual(found, ['src/handler.ts:4 SL001'], JSON.stringify(report.findings, null, 1));
  assert.match(report.findings[0].message, /"GLOBAL" on table "scores"/);
  assert.deepEqual(accessLines(report), [
    'src/handler.ts:4 PutItem scores board = GLOBAL',
    'src/repo.ts:6 PutItem scores board = {unknown}',
  ]);

  // Once it is taken out again, the same workspace holds no call the engine reads.
  const without = await checkWith(null);
  assert.deepEqual(without.findings, []);
  assert.deepEqual(without.accesses, []);
});

test('the key attribute of a registered front-end’s writes comes from the tables it defines', async () => {
  // Without its definitions the item's first field is taken for the key, and the constant goes unseen.
  const report = await checkWith({ ...toy, id: 'acme-kv-calls-only', tableDefinitions: undefined });
  assert.deepEqual(accessLines(report), ['src/repo.ts:6 PutItem scores season = {unknown}']);
  assert.deepEqual(report.findings, []);
});

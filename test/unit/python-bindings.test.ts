import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'web-tree-sitter';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { argumentSources } from '../../server/src/engine/frontends/python/argument-sources';
import { parametersOf } from '../../server/src/engine/frontends/python/scope';
import { reachingBindings } from '../../server/src/engine/frontends/python/reaching-bindings';
import { analyze, findingLines, summarize } from './helpers';

const py = (...lines: string[]) => lines.join('\n') + '\n';

/** The text of the expressions that feed parameter `param` of the `def` named `fn`. */
async function sources(text: string, fn: string, param: string): Promise<string[]> {
  await initParsers();
  const tree = parse('python', text);
  const def = tree.rootNode
    .descendantsOfType('function_definition')
    .find((d): d is Node => d?.childForFieldName('name')?.text === fn);
  assert.ok(def, `no def ${fn}`);
  const p = parametersOf(def).find((x) => x.name === param);
  assert.ok(p, `no parameter ${param}`);
  return argumentSources(def, p).map((s) => s.node.text);
}

const ALBUMS = [
  'class Albums:',
  '    def __init__(self):',
  '        self.table = make_table()',
  '    def get(self, artist, title):',
  '        return self.table.get_item(Key={"Artist": artist}).get("Item")',
  '    def first(self):',
  '        return self.get("Self Caller", "x")',
];

test("a call on another object's result is not a caller of a method with the same name", async () => {
  assert.deepEqual(await sources(py(...ALBUMS), 'get', 'artist'), ['"Self Caller"']);
});

test('callers are found in a module whose first token is not at offset 0 (leading blank lines, indentation)', async () => {
  // The root node starts at the first token: offsets into its text are relative to that.
  const body = ['def record(day):', '    return day', '', 'def close():', '    record("2026-01-01")'];
  assert.deepEqual(await sources('\n\n' + py(...body), 'record', 'day'), ['"2026-01-01"']);
  assert.deepEqual(await sources('  ' + py(...body), 'record', 'day'), ['"2026-01-01"']);
});

test('callers through the class, an instance, a bound name, an annotated parameter and a subclass', async () => {
  const text = py(
    ...ALBUMS,
    'class Special(Albums):',
    '    pass',
    'class Other:',
    '    def get(self, artist):',
    '        return self.get("other self")',
    'def use(repo: Albums, other):',
    '    Albums().get("made here", "t")',
    '    a = Albums()',
    '    a.get("bound", "t")',
    '    repo.get("annotated", "t")',
    '    Special().get("subclass", "t")',
    '    other.get("unknown receiver", "t")',
    '    {}.get("dict", None)',
  );
  // Not `self.get` inside Other, nor a receiver nothing says is an Albums.
  assert.deepEqual(await sources(text, 'get', 'artist'), [
    '"Self Caller"',
    '"made here"',
    '"bound"',
    '"annotated"',
    '"subclass"',
  ]);
});

test('a None default is no value; another default counts only where a call leaves it out', async () => {
  const text = py('def find(account_id=None, kind="ALL"):', '    pass', 'find("a-1", kind="ORDERS")', 'find("a-2")');
  assert.deepEqual(await sources(text, 'find', 'account_id'), ['"a-1"', '"a-2"']);
  assert.deepEqual(await sources(text, 'find', 'kind'), ['"ORDERS"', '"ALL"']);
  assert.deepEqual(await sources(py('def find(kind="ALL"):', '    pass', 'find(kind="X")'), 'find', 'kind'), ['"X"']);
  assert.deepEqual(await sources(py('def find(account_id=None):', '    pass'), 'find', 'account_id'), []);
});

test('the sample item a test passes to a repository method is no key of the method', async () => {
  const r = await analyze(
    'music/repo.py',
    py(
      'import boto3',
      'class Albums:',
      '    def __init__(self):',
      '        self.table = boto3.resource("dynamodb").Table("music")',
      '    def get(self, artist, title):',
      '        return self.table.get_item(Key={"Artist": artist, "AlbumTitle": title}).get("Item")',
    ),
  );
  assert.deepEqual(findingLines(r), []);
  assert.deepEqual(summarize(r), ['6 GetItem music Artist={unknown} AlbumTitle={unknown} (unknown)']);
});

test('an entity-named parameter given a sample id stays an entity id; a shared token does not', async () => {
  const r = await analyze(
    'app/teams.py',
    py(
      'import boto3',
      'table = boto3.resource("dynamodb").Table("teams")',
      'def members(team_id):',
      '    return table.get_item(Key={"pk": team_id})',
      'def bump(name):',
      '    return table.get_item(Key={"pk": name})',
      'def handler(event):',
      '    members("team-42")',
      '    bump("signups")',
    ),
  );
  assert.deepEqual(summarize(r), [
    '4 GetItem teams pk={entity-id} (high-cardinality)',
    '6 GetItem teams pk=signups (constant)',
  ]);
  // Still the parameter nothing gave a value, for callers in other modules to fill in.
  const part = r.accesses[0].partitionKey?.template.parts[0];
  assert.deepEqual(part && 'hole' in part ? part.hole.param : null, { name: 'team_id', index: 0 });
});

test('reaching bindings: both arms of an if/else, the parameter when a branch may keep it', async () => {
  await initParsers();
  const use = (text: string) => {
    const ids = parse('python', text)
      .rootNode.descendantsOfType('identifier')
      .filter((n): n is Node => n?.text === 'pk');
    return ids[ids.length - 1];
  };
  const kinds = (text: string) =>
    reachingBindings(use(text))?.map((b) => (b.kind === 'value' ? b.node.text : b.kind)) ?? null;
  assert.deepEqual(
    kinds(py('def f(c):', '    if c:', '        pk = "A"', '    else:', '        pk = "B"', '    g(pk)')),
    ['"A"', '"B"'],
  );
  assert.deepEqual(kinds(py('def f(pk):', '    if not pk:', '        pk = "D"', '    g(pk)')), ['param', '"D"']);
  assert.equal(
    kinds(py('def f(c):', '    pk = "A"', '    if c:', '        g(pk)', '    else:', '        pk = "B"')),
    null,
  );
});

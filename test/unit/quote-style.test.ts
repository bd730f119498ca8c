// The quotes a fix writes follow the file's (server/src/features/fixes/quote-style.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inIndent, inQuotes, quoteStyleOf } from '../../server/src/features/fixes/quote-style';
import { inPyQuotes, pyQuoteStyleOf } from '../../server/src/features/fixes/py-quotes';

test("a file's quote style is the one three in four of its strings use", () => {
  assert.equal(quoteStyleOf('import { a } from "b";\nconst c = "d";\n'), '"');
  assert.equal(quoteStyleOf("import { a } from 'b';\nconst c = 'd';\n"), "'");
  // Mixed, or no strings at all: no style to follow.
  assert.equal(quoteStyleOf(`import a from 'a';\nimport b from "b";\n`), null);
  assert.equal(quoteStyleOf('const n = 1;\n'), null);
  // Quotes in comments and template literals are not strings.
  assert.equal(quoteStyleOf('// it\'s "x"\nconst a = `it\'s ${"b"}`;\nconst c = "d";\n'), '"');
});

test('strings are re-quoted with their escapes, templates and comments left as they are', () => {
  assert.equal(inQuotes("x({ type: 'string', k: ['a', 'b'] })", '"'), 'x({ type: "string", k: ["a", "b"] })');
  assert.equal(inQuotes("'it\\'s' + 'say \"hi\"'", '"'), '"it\'s" + "say \\"hi\\""');
  assert.equal(inQuotes('"it\'s" + "say \\"hi\\""', "'"), "'it\\'s' + 'say \"hi\"'");
  assert.equal(inQuotes("`${a['b']}#${'c'}` // don't", '"'), '`${a["b"]}#${"c"}` // don\'t');
  assert.equal(inQuotes("/** Python's hash() */\nconst a = '';", '"'), '/** Python\'s hash() */\nconst a = "";');
  assert.equal(inQuotes("'\\n\\\\'", '"'), '"\\n\\\\"');
  // A fragment that does not lex (an unterminated string) is left alone.
  assert.equal(inQuotes("a = 'b", '"'), "a = 'b");
});

test("a top-level block written in two-space steps takes the file's step; other text is left as it is", () => {
  const helper = '\nfunction h(v) {\n  for (const b of v) {\n    x(b);\n  }\n}';
  assert.equal(inIndent(helper, '    '), '\nfunction h(v) {\n    for (const b of v) {\n        x(b);\n    }\n}');
  assert.equal(inIndent(helper, '\t'), '\nfunction h(v) {\n\tfor (const b of v) {\n\t\tx(b);\n\t}\n}');
  assert.equal(inIndent(helper, '  '), helper);
  // Already in the file's step, or an entry inside an object: unchanged.
  const reader = '\nasync function r() {\n    return 1;\n}';
  assert.equal(inIndent(reader, '    '), reader);
  assert.equal(inIndent('\n  shard: { type: "string" },', '    '), '\n  shard: { type: "string" },');
});

test("a Python file's quote style counts its one-line strings, not its docstrings or comments", () => {
  assert.equal(pyQuoteStyleOf(`"""Doc."""\nimport os\nT = os.environ['T']\nK = f'a{b}'\n# "x"\n`), "'");
  assert.equal(pyQuoteStyleOf(`'''Doc.'''\nT = os.environ["T"]\n`), '"');
  assert.equal(pyQuoteStyleOf(`a = 'x'\nb = "y"\n`), null);
  assert.equal(pyQuoteStyleOf('n = 1\n'), null);
  // Three in four is clear enough: a boto3 Lambda of single-quoted calls that returns a dict in double quotes.
  const lambda = `x = f('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l')\nreturn {"headers": "x", "body": 1}\n`;
  assert.equal(pyQuoteStyleOf(lambda), "'");
  assert.equal(pyQuoteStyleOf(`x = f('a', 'b', 'c', 'd', 'e')\ny = {"k": "v"}\n`), null, 'five in seven is not');
});

test('Python strings are re-quoted with their escapes; f-string fields take the other quote', () => {
  assert.equal(inPyQuotes(`Key("pk").eq(f"{FEED}#{shard}")`, "'"), `Key('pk').eq(f'{FEED}#{shard}')`);
  assert.equal(inPyQuotes(`f"{item['sk']}#{{x}}"`, "'"), `f'{item["sk"]}#{{x}}'`);
  assert.equal(inPyQuotes(`"it's" + "say \\"hi\\""`, "'"), `'it\\'s' + 'say "hi"'`);
  assert.equal(inPyQuotes(`'it\\'s'`, '"'), `"it's"`);
  assert.equal(inPyQuotes(`rb"a" + r"\\d'"`, "'"), `rb'a' + r"\\d'"`);
  // Docstrings keep """, comments are not strings.
  const doc = `def f():\n    """The "x"."""\n    return "y"  # don't\n`;
  assert.equal(inPyQuotes(doc, "'"), `def f():\n    """The "x"."""\n    return 'y'  # don't\n`);
  // A field holding both quotes cannot be written in the other quote: left as it is.
  assert.equal(inPyQuotes(`f"{a['it\\"s']}"`, "'"), `f"{a['it\\"s']}"`);
  // A fragment that does not lex is left alone.
  assert.equal(inPyQuotes(`x = "a`, "'"), `x = "a`);
});

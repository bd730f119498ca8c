// The quotes a fix writes follow the file's (server/src/features/fixes/quote-style.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inIndent, inQuotes, quoteStyleOf } from '../../server/src/features/fixes/quote-style';

test("a file's quote style is the one four in five of its strings use", () => {
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

// The quotes a fix writes follow the file's (server/src/features/fixes/quote-style.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inQuotes, quoteStyleOf } from '../../server/src/features/fixes/quote-style';

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

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hclComments, ignoreComments } from '../../server/src/engine/frontends/infra/comments';
import { commentSuppressions } from '../../server/src/engine/rules/suppress';

/** The comments `shardlens-ignore` is read from in templates: real comments only, never text that looks like one. */

const texts = (file: string, text: string) => ignoreComments(file, text).map((c) => c.text);

test('YAML: comments found by the parser, not a # in a quoted value or a block scalar', () => {
  const yaml = [
    '# shardlens-ignore SL013',
    'Resources:',
    '  Orders: # shardlens-ignore',
    '    Type: AWS::DynamoDB::Table',
    '    Description: "keys # shardlens-ignore"',
    '    Notes: |',
    '      # shardlens-ignore in a block scalar',
    '    Tags: [a, # shardlens-ignore SL001',
    '      b]',
  ].join('\n');
  assert.deepEqual(texts('template.yaml', yaml), [
    '# shardlens-ignore SL013',
    '# shardlens-ignore',
    '# shardlens-ignore SL001',
  ]);
  assert.deepEqual(texts('template.json', '{"a": "# shardlens-ignore"}'), []);
});

test('HCL: #, // and /* */ comments; strings, interpolations and heredocs stepped over', () => {
  const hcl = [
    '# shardlens-ignore SL013',
    'resource "aws_dynamodb_table" "t" { // shardlens-ignore',
    '  name = "a-${lookup(var.m, "k#x")}-b # no"',
    '  policy = <<-EOT',
    '    # shardlens-ignore in a heredoc',
    '  EOT',
    '  /* shardlens-ignore',
    '     SL013 */',
    '}',
  ].join('\n');
  assert.deepEqual(
    hclComments(hcl).map((c) => c.text),
    ['# shardlens-ignore SL013', '// shardlens-ignore', '/* shardlens-ignore\n     SL013 */'],
  );
});

test('a directive alone on its line also covers the line below; a trailing one only its own', () => {
  const text = ['# shardlens-ignore SL013, SL012', 'Orders:', '  Type: x # shardlens-ignore'].join('\n');
  const s = commentSuppressions(text, ignoreComments('t.yml', text));
  assert.deepEqual(
    [...s].map(([line, codes]) => [line, [...codes]]),
    [
      [0, ['SL013', 'SL012']],
      [1, ['SL013', 'SL012']],
      [2, []],
    ],
  );
});

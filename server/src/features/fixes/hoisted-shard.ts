/**
 * A shard suffix that would push its line past the project's width is computed on a line of
 * its own, just before the statement that writes the key, as a person would write it:
 *
 *   events.put_item(Item={"pk": f"LOGS#{day}", "sk": event_id, "body": body})
 *     → shard = random.randrange(EVENT_SHARDS)
 *       events.put_item(Item={"pk": f"LOGS#{day}#{shard}", "sk": event_id, "body": body})
 *
 * Only where that computes the same value at the same time: the key sits in the statement's
 * own expression — arguments, objects, awaits, a declaration's value — with no function,
 * lambda, comprehension or condition between them (a condition could guard what the shard
 * reads), and the statement is one of a block's, alone at the start of its line.
 */
import type { Node } from 'web-tree-sitter';
import type { SourceLanguage, SourceRange } from '../../engine';
import type { TextChange } from './fix-model';
import { nodeAt, withTree } from './syntax';

/** What may stand between the key and its statement. */
const PASSES = new Set([
  // JavaScript / TypeScript
  'object',
  'pair',
  'arguments',
  'call_expression',
  'new_expression',
  'await_expression',
  'member_expression',
  'parenthesized_expression',
  'variable_declarator',
  'assignment_expression',
  'array',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  // Python
  'dictionary',
  'argument_list',
  'keyword_argument',
  'call',
  'await',
  'attribute',
  'assignment',
  'list',
  'tuple',
]);
const STATEMENTS = new Set(['expression_statement', 'lexical_declaration', 'variable_declaration', 'return_statement']);
const BLOCKS = new Set(['statement_block', 'program', 'block', 'module']);

export interface Hoist {
  /** The name the shard is kept in. */
  name: string;
  /** The line that computes it, inserted before the statement. */
  declaration: TextChange;
}

/**
 * The declaration of `shard` before the statement around `place`, under a name the statement's
 * function (or module) does not use and the fix's other keys did not take there (`taken`:
 * `<function start>:<name>`); null where it cannot go.
 */
export function hoistShard(
  text: string,
  language: SourceLanguage,
  place: SourceRange,
  shard: string,
  taken: Set<string>,
  /** The project's line width and indent unit: a JS declaration longer than the width breaks after `=`, as prettier does. */
  layout: { width: number; unit: string },
): Hoist | null {
  return withTree(place.file, text, (tree) => {
    const key = nodeAt(tree, place.span);
    let statement: Node | null = null;
    for (let p = key?.parent ?? null; p; p = p.parent) {
      if (STATEMENTS.has(p.type)) {
        statement = p;
        break;
      }
      if (!PASSES.has(p.type)) return null;
    }
    if (!statement || !BLOCKS.has(statement.parent?.type ?? '')) return null;
    const lineStart = text.lastIndexOf('\n', statement.startIndex - 1) + 1;
    const indent = text.slice(lineStart, statement.startIndex);
    if (!/^[ \t]*$/.test(indent)) return null;
    const scope = scopeOf(statement);
    const python = language === 'python';
    // Free in the function, and not declared there by another key of the same fix.
    const free = (n: string) => !new RegExp(`\\b${n}\\b`).test(scope.text) && !taken.has(`${scope.startIndex}:${n}`);
    let name = 'shard';
    for (let i = 2; !free(name); i++) name = `shard${i}`;
    taken.add(`${scope.startIndex}:${name}`);
    const oneLine = python ? `${indent}${name} = ${shard}\n` : `${indent}const ${name} = ${shard};\n`;
    const long = oneLine.replace(/\t/g, '  ').length - 1 > layout.width;
    const line = long && !python ? `${indent}const ${name} =\n${indent}${layout.unit}${shard};\n` : oneLine;
    const at = { line: statement.startPosition.row, column: 0 };
    return {
      name,
      declaration: {
        file: place.file,
        span: { startLine: at.line, startColumn: 0, endLine: at.line, endColumn: 0 },
        newText: line,
      },
    };
  });
}

/** The function around `n` (its module when none): where a new name must be free. */
function scopeOf(n: Node): Node {
  for (let p = n.parent; p; p = p.parent) if (/function|method_definition|lambda|arrow/.test(p.type)) return p;
  let root = n;
  while (root.parent) root = root.parent;
  return root;
}

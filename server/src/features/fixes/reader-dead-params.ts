import type { Node } from 'web-tree-sitter';
import type { Span } from '../../engine';
import { offsetAt, positionAt } from './apply';
import type { TextChange } from './fix-model';
import { enclosingFunction, nodeAt, withTree, within } from './syntax';

/**
 * The declaration of the parameters a replaced Query was given, removed when the reader
 * call leaves it unused: `const params = { TableName, KeyConditionExpression, ... };
 * await docClient.query(params).promise()` (or boto3's `table.query(**query_kwargs)`)
 * becomes a reader call that builds its own requests, and the object left behind is the
 * dead local a linter reports (no-unused-vars, pyflakes' "assigned to but never used").
 *
 * Removed only when it is plainly dead: one declaration of the name in the function, a
 * literal object or dict whose values call nothing (removing it then changes nothing the
 * program does), the statement alone on its lines, and no other mention of the name in
 * the function, the new call included. Anything else is left as it was written.
 */
export function deadParamsRemoval(
  file: string,
  text: string,
  call: { span: Span; text: string },
  newCall: string,
  python: boolean,
): TextChange | null {
  const m = python
    ? /\.query\(\s*\*\*\s*([A-Za-z_]\w*)\s*,?\s*\)/.exec(call.text)
    : /(?:\.query|\bQueryCommand)\(\s*([A-Za-z_$][\w$]*)\s*\)/.exec(call.text);
  if (!m) return null;
  const name = m[1];
  if (new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, '\\$')}\\b`).test(newCall)) return null;
  return withTree(file, text, (tree) => {
    const fn = enclosingFunction(nodeAt(tree, call.span));
    if (!fn) return null;
    const declarations: Node[] = [];
    let uses = 0;
    const visit = (n: Node) => {
      if (within(spanOfNode(n), call.span)) return;
      const declared = declarationOf(n, name, python);
      // The declaration's own name is no use of it, and its value calls nothing that could be.
      if (declared) return void declarations.push(declared);
      if (isName(n, name)) uses++;
      for (const c of n.namedChildren) if (c) visit(c);
    };
    const body = fn.childForFieldName('body');
    if (!body) return null;
    visit(body);
    // Only a statement of the function's own body: one inside a block might be the block's only one.
    if (declarations.length !== 1 || uses > 0 || declarations[0].parent?.id !== body.id) return null;
    const removal = statementRemoval(text, declarations[0]);
    return removal && { ...removal, file };
  });
}

/** The statement `n` is when it declares `name` as a literal object (JS) or dict (Python) that calls nothing. */
function declarationOf(n: Node, name: string, python: boolean): Node | null {
  if (python) {
    if (n.type !== 'expression_statement' || n.namedChildCount !== 1) return null;
    const a = n.namedChildren[0];
    if (a?.type !== 'assignment' || a.childForFieldName('left')?.text !== name) return null;
    const right = a.childForFieldName('right');
    return right?.type === 'dictionary' && callsNothing(right) ? n : null;
  }
  if (n.type !== 'lexical_declaration' && n.type !== 'variable_declaration') return null;
  const declarators = n.namedChildren.filter((c) => c?.type === 'variable_declarator');
  if (declarators.length !== 1) return null;
  const d = declarators[0]!;
  if (d.childForFieldName('name')?.text !== name) return null;
  const value = d.childForFieldName('value');
  return value?.type === 'object' && callsNothing(value) ? n : null;
}

const CALLS = new Set([
  'call',
  'call_expression',
  'new_expression',
  'await',
  'await_expression',
  'yield',
  'yield_expression',
  'assignment_expression',
  'augmented_assignment_expression',
  'update_expression',
  'named_expression',
]);

function callsNothing(n: Node): boolean {
  if (CALLS.has(n.type)) return false;
  return n.namedChildren.every((c) => !c || callsNothing(c));
}

/** A mention of `name`: any identifier of that text (a shorthand `{ params }` too), to be safe. */
function isName(n: Node, name: string): boolean {
  return (n.type === 'identifier' || n.type === 'shorthand_property_identifier') && n.text === name;
}

function spanOfNode(n: Node): Span {
  return {
    startLine: n.startPosition.row,
    startColumn: n.startPosition.column,
    endLine: n.endPosition.row,
    endColumn: n.endPosition.column,
  };
}

/** The change deleting the statement's whole lines; null when something else shares them. */
function statementRemoval(text: string, statement: Node): Omit<TextChange, 'file'> | null {
  const s = spanOfNode(statement);
  const lineStart = offsetAt(text, s.startLine, 0);
  const start = offsetAt(text, s.startLine, s.startColumn);
  let end = offsetAt(text, s.endLine, s.endColumn);
  if (text.slice(lineStart, start).trim() !== '') return null;
  const rest = /^[ \t;]*(\r?\n|$)/.exec(text.slice(end));
  if (!rest) return null;
  end += rest[0].length;
  const a = positionAt(text, lineStart);
  const b = positionAt(text, end);
  return {
    span: { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column },
    newText: '',
  };
}

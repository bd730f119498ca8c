import type { Node } from 'web-tree-sitter';
import { type Access, type ImportInfo, type Span, spanOf, words } from '../../engine';
import { textIn } from './apply';
import { readerStyle, wholeCall } from './reader-style';
import { enclosingFunction, functionNameOf, within, withTree } from './syntax';

/**
 * What the program does with an increment's response. A counter spread over N items
 * keeps its meaning only if nothing reads the one item's new count as "the count":
 * when the response is used and `ReturnValues` returns new values, the fix must hand
 * the caller the sum over the shards instead; when it returns old values, or the count
 * serves as an id (N shards count independently, so ids would repeat), no spread keeps
 * the meaning.
 */
export interface IncrementUse {
  /** `ReturnValues` as written (`UPDATED_NEW`), `?` when it is not a literal, null when absent. */
  returnValues: string | null;
  /** The response is used: assigned, returned, awaited into an expression (not a bare statement). */
  used: boolean;
  /** The whole call, whose value is the response (`ddb.send(new UpdateCommand(...))`, `....promise()`). */
  call: Span;
  /** The used new count is named an id (`nextOrderId()`, `order_id = ...`, attribute `seq`). */
  idLike: boolean;
  /** The response is a value the fix can pass through a function (a promise, a boto3 dict), not a callback's. */
  wrappable: boolean;
}

const ID_WORDS = new Set(['id', 'ids', 'seq', 'sequence', 'serial']);

function namesId(name: string | null | undefined): boolean {
  if (!name) return false;
  const w = words(name);
  return w.some((x) => ID_WORDS.has(x)) || (w.includes('next') && w.some((x) => x === 'number' || x === 'no'));
}

/** The variable an expression's value is stored in (`const r = await ...`, `resp = ...`). */
function assignedName(n: Node): string | null {
  const p = n.parent;
  if (p?.type === 'variable_declarator') return p.childForFieldName('name')?.text ?? null;
  if (p?.type === 'assignment' || p?.type === 'assignment_expression') return p.childForFieldName('left')?.text ?? null;
  return null;
}

/**
 * Whether a caller in the file stores the function's result under an id's name
 * (`order_id = allocate()`, `{ invoiceId: await this.allocate() }`).
 */
function callersNameId(fn: string | null, text: string): boolean {
  if (!fn || !/^[A-Za-z_$][\w$]*$/.test(fn)) return false;
  const call = `(?:await\\s+)?(?:(?:this|self)\\.)?${fn.replace(/\$/g, '\\$')}\\(`;
  const stored = new RegExp(`([A-Za-z_$][\\w$]*)["']?\\s*(?:=|:)\\s*${call}`, 'g');
  return [...text.matchAll(stored)].some((m) => namesId(m[1]));
}

export function incrementUse(
  a: Access,
  text: string,
  imports: ImportInfo[],
  attribute: string | null,
): IncrementUse | null {
  const call = textIn(text, a.span);
  const rv = /\bReturnValues\s*[:=]\s*(?:(['"])(\w+)\1|(\S))/.exec(call);
  const returnValues = rv ? (rv[2] ?? '?') : null;
  const whole = wholeCall(a, text);
  // A callback's response, or a v2 request object (not a promise): read where the fix cannot reach.
  const promise = a.call.form !== 'v2-call' || readerStyle(a, text, imports)?.call === 'method';
  if (!whole || !promise)
    return { returnValues, used: returnValues !== null, call: a.span, idLike: false, wrappable: false };
  return withTree(a.file, text, (tree) => {
    // The node of the whole call: the smallest node covering its span may be an inner one.
    const at = { row: whole.span.startLine, column: whole.span.startColumn };
    let n: Node | null = tree.rootNode.namedDescendantForPosition(at, at);
    while (n && !within(whole.span, spanOf(n))) n = n.parent;
    if (!n) return null;
    let outer = n;
    while (outer.parent && ['await_expression', 'parenthesized_expression'].includes(outer.parent.type))
      outer = outer.parent;
    const stored = assignedName(outer);
    // `Update = client.update_item(...)` whose `Update` nothing reads: the response is dropped
    // as surely as in a bare statement, and a total put in its place would cost N reads for nothing.
    const used = outer.parent?.type !== 'expression_statement' && !(stored && neverRead(tree.rootNode, stored));
    const fn = functionNameOf(enclosingFunction(n));
    const idLike =
      used && (namesId(fn) || namesId(assignedName(outer)) || namesId(attribute ?? null) || callersNameId(fn, text));
    return { returnValues, used, call: spanOf(n), idLike, wrappable: true };
  });
}

/** Whether `name` is a plain variable that occurs once in the file: where it is assigned. */
function neverRead(root: Node, name: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return false;
  let seen = 0;
  for (const id of root.descendantsOfType(['identifier', 'shorthand_property_identifier'])) {
    if (id?.text === name && ++seen > 1) return false;
  }
  return seen === 1;
}

/** Whether the caller reads new values from the response (the count after the increment). */
export const readsNewCount = (u: IncrementUse) =>
  u.used && u.returnValues !== null && /^(UPDATED_NEW|ALL_NEW)$/.test(u.returnValues);

/** Whether the caller reads something no spread can keep: old values, or values chosen at run time. */
export const readsUnkeepable = (u: IncrementUse) =>
  u.used && u.returnValues !== null && !/^(NONE|UPDATED_NEW|ALL_NEW)$/.test(u.returnValues);

/**
 * Wrappers whose code is not in the workspace (a company's DynamoDB helper package, a
 * thin client library): judged by the call's shape alone, conservatively. A method with
 * a DynamoDB-like name that receives
 * - a key condition string with `:`-named values (`db.query("pk = :pk", { ":pk": "ALL" })`), or
 * - a key or item object with a partition-key attribute name (`store.putItem({ pk: "FEED", sk })`)
 * is read as that request. Anything the workspace defines or imports from a file of its
 * own is left to the wrapper summaries, and calls the SDK front-ends recognised are
 * never read twice.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { candidateCalls } from '../../syntax/candidates';
import { newContext } from '../evaluation';
import { parseKeyCondition } from '../../requests/expressions';
import { isRequest } from '../../requests/interpret';
import { type CallSite } from '../../model/call-site';
import type { Operation, Span } from '../../model';
import { isPartitionKeyName } from '../names';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import { spanOf, spanWithin } from '../../syntax/span';
import { literalText } from '../../model/template';
import type { Entry, Value } from '../../model/value';

const METHOD =
  /\.\s*(?<name>put_?[Ii]tem|get_?[Ii]tem|update_?[Ii]tem|delete_?[Ii]tem|query(?:_?[Ii]tems)?|save_?[Ii]tem|find_?[Ii]tem|load_?[Ii]tem|put|get|update|delete|query)\s*\(/g;
/** Bare names (`put`, `get`) say little: only a whole request object (`{ Item }`, `{ Key }`) makes them one. */
const BARE = /^(put|get|update|delete|query)$/;

function operationOf(method: string): Operation | null {
  const m = method.toLowerCase().replace(/_/g, '');
  if (m.startsWith('query')) return 'Query';
  if (/^(put|save)/.test(m)) return 'PutItem';
  if (/^(get|find|load)/.test(m)) return 'GetItem';
  if (m.startsWith('update')) return 'UpdateItem';
  if (m.startsWith('delete')) return 'DeleteItem';
  return null;
}

export function outsideWrapperCalls(f: SourceFile, fe: FrontEnd, known: readonly Span[]): CallSite[] {
  const { tree, text, file, language, lookups } = f;
  const types = new Set([fe.syntax.call]);
  const out: CallSite[] = [];
  for (const call of candidateCalls(tree, text, METHOD, types)) {
    const at = spanOf(call);
    if (known.some((k) => spanWithin(k, at) || spanWithin(at, k))) continue;
    const callee = call.childForFieldName('function');
    const method = callee?.childForFieldName(fe.syntax.memberName)?.text ?? '';
    const receiver = callee?.childForFieldName('object') ?? null;
    const operation = operationOf(method);
    if (!operation || !receiver) continue;
    const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
      (a): a is Node => !!a && a.type !== 'comment' && a.type !== 'keyword_argument',
    );
    // The shape is written at the call (a literal object or condition), or there is nothing to read:
    // `cache.get(id)`, `map.put(k, v)` cost no evaluation, in a file edited keystroke by keystroke.
    if (!args.slice(0, 3).some(looksLikeRequest)) continue;
    const ctx = newContext(fe.evaluate, lookups);
    if (definedHere(receiver, fe, ctx)) continue;
    const values = args.slice(0, 3).map((a) => ctx.evaluate(a, ctx));
    const input = requestOf(operation, values, at, BARE.test(method));
    if (!input) continue;
    out.push({
      file,
      language,
      operation,
      sdk: fe.guessedCall.sdk,
      span: at,
      input,
      table: { kind: 'unknown' },
      paginated: false,
      paginator: false,
      call: callStyle(call, text, fe.guessedCall.form, method, receiver.text),
      guessed: true,
    });
  }
  return out;
}

/** The receiver is this file's own code or a workspace module's: the summaries read it, not its shape. */
function definedHere(receiver: Node, fe: FrontEnd, ctx: ReturnType<typeof newContext>): boolean {
  const root = rootName(receiver);
  return root ? fe.isOwnCode(root, ctx) : false;
}

function rootName(n: Node): Node | null {
  let x: Node | null = n;
  while (
    x &&
    (x.type === 'member_expression' || x.type === 'attribute' || x.type === 'call_expression' || x.type === 'call')
  )
    x = x.childForFieldName('object') ?? x.childForFieldName('function');
  return x && (x.type === 'identifier' || x.type === 'this') ? x : null;
}

/** The request a call's arguments spell, when they look like one. */
function requestOf(operation: Operation, values: Array<Value | null>, span: Span, bare: boolean): Value | null {
  const object = (entries: Entry[]): Value => ({ kind: 'object', entries, span });
  // A DocumentClient made with its table bound (`params: { TableName }`) takes the request without it.
  if (values[0]?.kind === 'object' && isRequest(operation, values[0])) return values[0];
  if (operation === 'Query') {
    const condition = values.find((v) => v?.kind === 'scalar' && keyCondition(v));
    const names = values.find((v) => v?.kind === 'object' && v.entries.some(([k]) => k.startsWith(':')));
    return condition && names
      ? object([
          ['KeyConditionExpression', condition],
          ['ExpressionAttributeValues', names],
        ])
      : null;
  }
  const key = values[0];
  if (bare || key?.kind !== 'object' || !key.entries.some(([k]) => isPartitionKeyName(k))) return null;
  return object([[operation === 'PutItem' ? 'Item' : 'Key', key]]);
}

function keyCondition(v: Value): boolean {
  const text = v.kind === 'scalar' ? literalText(v.template) : null;
  return text !== null && /:\w/.test(text) && (parseKeyCondition(text)?.length ?? 0) > 0;
}

const KEYISH =
  /^['"]?(?:Item|Key|KeyConditionExpression|(?:[gl]si_?\d*_?)?(?:pk|pkey)|partition_?key|hash_?key)['"]?$/i;

/** A literal object with a key-like or request property, or a literal string with `:` values. */
function looksLikeRequest(a: Node): boolean {
  if (a.type === 'object' || a.type === 'dictionary') {
    return a.namedChildren.some((p) => {
      const key =
        p?.type === 'pair'
          ? p.childForFieldName('key')?.text
          : p?.type === 'shorthand_property_identifier'
            ? p.text
            : null;
      return !!key && KEYISH.test(key);
    });
  }
  return (a.type === 'string' || a.type === 'template_string') && /:\w/.test(a.text) && /=/.test(a.text);
}

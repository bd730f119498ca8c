import type { Node } from 'web-tree-sitter';
import { type Access, literalText, type Span, spanOf } from '../../engine';
import { lineOf, textIn } from './apply';
import { hasModuleImport } from './header';
import type { FixContext, TextChange } from './fix-model';
import type { NumberKey } from './counter-number';
import { appendShard } from './key-edit';
import { indentUnitOf, restepped, visibleAtTop } from './reader-conventions';
import { rootNames } from './reader-scope';
import { readerStyle, type ReaderStyle } from './reader-style';
import { enclosingFunction, nodeAt, withTree } from './syntax';
import { projectLineWidth } from './line-width';
import { fitPythonBlock } from '../generate/fit-lines-python';
import { wrapWords } from '../generate/wrap-words';
import { importsOwnName } from '../generate/imports';

/**
 * The summing reader of a counter spread over N items, written next to the increment:
 * a method after the incrementing method (`this.doc`, `self.table`), or a function after
 * the top-level statement (a module client, or a client the function builds from module
 * names: `table = dynamodb.Table(TABLE_NAME)` is built again inside the reader). With it,
 * when the caller reads the new count from the increment's response, a second function
 * puts the total in that response (`withXTotal` / `with_x_total`).
 *
 * The reader sums the N shard items and the counter's original item: the count written
 * before the fix stays where it was, so the total goes on from it across the deploy
 * instead of starting again at 0.
 */

export interface CounterReader {
  name: string;
  /** The response wrapper's name: the increment's response with the total in place of one shard's count. */
  wrapper: string;
  /** Whether they are methods (`this.`/`self.`) rather than module functions. */
  member: boolean;
  changes: TextChange[];
  /** Module imports the reader needs at the file's top (Python's `import time`). */
  importLines: string[];
}

/**
 * An attribute of the legacy `AttributeUpdates` parameter whose update adds to it:
 * `{ 'n': { 'Action': 'ADD', 'Value': {'N': '1'} } }`, Value before or after Action.
 */
const LEGACY_ADD = /["']?(\w+)["']?\s*:\s*\{(?:[^{}]|\{[^{}]*\})*?["']?Action["']?\s*:\s*["']ADD["']/;

/**
 * The counter attribute an `ADD n :one` / `SET n = n + :one` update increments, aliases
 * resolved; or the attribute a legacy `AttributeUpdates` entry ADDs to.
 */
export function counterAttribute(call: string): string | null {
  const m = /\bADD\s+(#?\w+)/.exec(call) ?? /\bSET\s+(#?\w+)\s*=\s*(?:if_not_exists\(\s*)?\1/.exec(call);
  if (!m) return /\bAttributeUpdates\b/.test(call) ? (LEGACY_ADD.exec(call)?.[1] ?? null) : null;
  if (!m[1].startsWith('#')) return m[1];
  const alias = new RegExp(`["']${m[1]}["']\\s*:\\s*["'](\\w+)["']`).exec(call);
  return alias?.[1] ?? null;
}

/** `receiver = <expr>` in the function's own text, when <expr> uses only names the module defines. */
function rebuiltReceiver(fn: Node, receiver: string, python: boolean): string | null {
  const body = fn.text;
  const esc = receiver.replace(/[$]/g, '\\$');
  const m = python
    ? new RegExp(`^\\s*${esc}\\s*=\\s*([^\\n]+)$`, 'm').exec(body)
    : new RegExp(`^\\s*(?:const|let|var)\\s+${esc}\\s*(?::[^=]+)?=\\s*([^\\n;]+);?\\s*$`, 'm').exec(body);
  if (!m || /[({[]$/.test(m[1].trim())) return null;
  return m[1].trim();
}

export interface ReaderOptions {
  /** The reader's and the wrapper's names, free in every file that will use them. */
  names: { reader: string; wrapper: string };
  /** Write the response wrapper too (the caller reads the new count). */
  withWrapper: boolean;
  /** Export the reader (JS/TS): reads of the counter in other modules call it. */
  exported: boolean;
  /** A Number key: the shards are the ids `base * N + shard`, read with the original id once. */
  number?: NumberKey | null;
}

export function summingReader(
  ctx: FixContext,
  a: Access,
  text: string,
  sep: string,
  count: string,
  opts: ReaderOptions,
): CounterReader | null {
  const call = textIn(text, a.span);
  const attr = counterAttribute(call);
  const receiver = a.call.receiver;
  if (!attr || !receiver || !a.partitionKey || literalText(a.partitionKey.template) === null) return null;
  // Attribute names must be the names themselves, never source text (`[Keys.pk]`).
  if ([a.partitionKey.attribute, a.sortKey?.attribute].some((n) => n !== undefined && /^[#[]|^$/.test(n))) return null;
  const python = a.language === 'python';
  const imports = ctx.analysisOf(a.file)?.imports ?? [];
  const style = readerStyle(a, text, imports);
  if (!style) return null;
  const visible = (name: string) =>
    visibleAtTop(name, text, imports, python) ||
    imports.some((i) => i.names.length === 0 && i.module.split('.')[0] === name);
  const member = /^(this|self)\./.test(receiver);
  const number = opts.number ?? null;
  const original = number ? number.expression : textIn(text, a.partitionKey.span).trim();
  const keyExpr = number ? `${number.expression} * ${count} + shard` : appendShard(a.language, original, sep, 'shard');
  const sk = a.sortKey ? ([a.sortKey.attribute, textIn(text, a.sortKey.span)] as const) : null;
  // The table, for the client styles that name it: the increment's own expression, which the reader must see too.
  let table: string | null = null;
  if (a.sdk !== 'boto3-resource') {
    table = a.table.span ? textIn(text, a.table.span) : null;
    if (!table) return null;
    const own = /^(this|self)\./.test(table);
    if (own ? !member : !rootNames(table).every(visible)) return null;
  }
  const { reader: name, wrapper } = opts.names;
  const place = withTree(a.file, text, (tree) => {
    const fn = enclosingFunction(nodeAt(tree, a.span));
    let anchor: Node | null = fn;
    let setup: string | null = null;
    if (member) {
      // A method: the new method goes after it, in the same class.
      if (!fn || !['method_definition', 'function_definition'].includes(fn.type)) return null;
      if (fn.parent?.type === 'decorated_definition') anchor = fn.parent;
    } else {
      // A module-level client, or one the function builds from module names: after the top-level statement.
      if (!visible(receiver)) {
        const rebuilt = fn && rebuiltReceiver(fn, receiver, python);
        if (!rebuilt || !rootNames(rebuilt).every(visible)) return null;
        setup = python ? `${receiver} = ${rebuilt}` : `const ${receiver} = ${rebuilt};`;
      }
      anchor = nodeAt(tree, a.span);
      while (anchor?.parent && anchor.parent.parent) anchor = anchor.parent;
    }
    return anchor ? { span: spanOf(anchor), setup } : null;
  });
  if (!place) return null;
  const indent = member ? (lineOf(text, place.span.startLine).match(/^\s*/)?.[0] ?? '') : '';
  const parts: Parts = {
    name,
    wrapper: opts.withWrapper ? wrapper : null,
    exported: opts.exported && !member,
    member,
    receiver,
    table,
    original,
    keyExpr,
    sk,
    attr,
    count,
    setup: place.setup,
    numeric: !!number,
  };
  const pause = python ? pausePlan(text) : 'imported';
  // The Python reader's own locals must not hide a module name its expressions read (`total = total + ...`).
  const read = [receiver, original, table ?? '', sk?.[1] ?? '', place.setup ?? '']
    .join(' ')
    // String literals count only by what an f-string interpolates: a key named "total" is fine.
    .replace(/(["'])(?:\\.|(?!\1).)*\1/g, (str) => (str.match(/\{[^{}]*\}/g) ?? []).join(' '));
  if (python && PY_LOCALS.some((n) => new RegExp(`(?<![\\w.])${n}\\b`).test(read))) return null;
  const unit = indentUnitOf(text, python);
  // Python is fitted to the width in the file's own step; JS is written in two-space steps.
  const body = python
    ? pythonSource(a, parts, pause, projectLineWidth(a.file, text) - indent.length, unit)
    : jsSource(a, style, parts);
  if (!body) return null;
  const block = (python ? body : restepped(body, 2, unit))
    .split('\n')
    .map((l) => (l ? indent + l : l))
    .join('\n');
  const end = place.span;
  const at: Span = {
    startLine: end.endLine,
    startColumn: end.endColumn,
    endLine: end.endLine,
    endColumn: end.endColumn,
  };
  const changes: TextChange[] = [];
  const getName =
    style.call !== 'send'
      ? null
      : style.sdk === 'lib-dynamodb'
        ? 'GetCommand'
        : style.sdk === 'aws-sdk-v3'
          ? 'GetItemCommand'
          : null;
  // Imported as itself, else added to the import of the call's command (`ddb.GetCommand` and
  // an alias bind no `GetCommand`: with neither, no reader is offered).
  const declared = (name: string) => new RegExp(`\\b(?:const|let|var|class|function)\\s+${name}\\b`).test(text);
  if (getName && !importsOwnName(text, imports, getName) && !declared(getName)) {
    const imp = imports.find((i) => i.names.includes(a.call.callee));
    const line = imp ? lineOf(text, imp.span.startLine) : '';
    const brace = imp && imp.span.startLine === imp.span.endLine ? line.indexOf('}') : -1;
    if (brace < 0) return null;
    const col = line.slice(0, brace).replace(/\s+$/, '').length;
    const pos = { startLine: imp!.span.startLine, startColumn: col, endLine: imp!.span.startLine, endColumn: col };
    changes.push({ file: a.file, span: pos, newText: `, ${getName}` });
  }
  changes.push({ file: a.file, span: at, newText: `\n${python && !member ? '\n' : ''}\n${block}` });
  return { name, wrapper, member, changes, importLines: pause === 'add' ? ['import time'] : [] };
}

interface Parts {
  name: string;
  wrapper: string | null;
  exported: boolean;
  member: boolean;
  receiver: string;
  table: string | null;
  /** The key's expression as the increment wrote it: the item that counted before the fix. */
  original: string;
  keyExpr: string;
  sk: readonly [string, string] | null;
  attr: string;
  count: string;
  setup: string | null;
  /** The key is a Number: ids, not strings; the original id may be one of the shards' (id 0), so each is read once. */
  numeric: boolean;
}

const DOC_LINES = (count: string) => [
  `The counter's total: its ${count} items (each increment goes to a random one)`,
  'and the item that counted before them.',
];
const WRAP_DOC = "The increment's response with the counter's total in place of one item's count.";

/** The wrapper's local for the total (it reads only `response` and the reader). */
const TOTAL_LOCAL = 'total';

const PY_LOCALS = [
  'time',
  'table_name',
  'ids',
  'keys',
  'total',
  'start',
  'request',
  'attempt',
  'got',
  'items',
  'item',
  'shard',
  'counter_key',
];

/**
 * Python reads the items in one BatchGetItem (100 keys a call), not one GetItem each in
 * turn: an increment that returns the total waits for one round trip, not N + 1. Keys
 * DynamoDB leaves unprocessed (throttling, 16 MB) are asked again after a pause growing
 * from 50 ms, ten times at most. A resource table's `meta.client` takes and returns
 * plain values, as the table does.
 */
function pythonSource(a: Access, p: Parts, pause: PausePlan, width: number, unit: string): string {
  const q = (s: string) => JSON.stringify(s);
  const low = a.sdk === 'boto3-client';
  const pk = q(a.partitionKey!.attribute);
  const key = low
    ? `{${pk}: {${p.numeric ? '"N": str(counter_key)' : '"S": counter_key'}}${p.sk ? `, ${q(p.sk[0])}: {"S": ${p.sk[1]}}` : ''}}`
    : `{${pk}: counter_key${p.sk ? `, ${q(p.sk[0])}: ${p.sk[1]}` : ''}}`;
  const client = low ? p.receiver : `${p.receiver}.meta.client`;
  const tableName = low ? p.table! : `${p.receiver}.name`;
  const value = low ? `int(item.get(${q(p.attr)}, {}).get("N", "0"))` : `int(item.get(${q(p.attr)}, 0))`;
  const self = p.member ? 'self' : '';
  const total = `${p.member ? 'self.' : ''}${p.name}()`;
  const ids = `[${p.original}] + [${p.keyExpr} for shard in range(${p.count})]`;
  const source = [
    `def ${p.name}(${self}):`,
    ...wrapWords(`${DOC_LINES(p.count).join(' ')}"""`, width, '    """', '    '),
    ...(pause === 'local' ? ['    import time', ''] : []),
    ...(p.setup ? [`    ${p.setup}`] : []),
    `    table_name = ${tableName}`,
    // The ids apart from the keys: each line stays short enough to read.
    `    ids = ${ids}`,
    p.numeric
      ? `    keys = [${key} for counter_key in dict.fromkeys(ids)]`
      : `    keys = [${key} for counter_key in ids]`,
    '    total = 0',
    '    # One BatchGetItem per 100 items; the keys it leaves unprocessed are asked',
    '    # again after a pause.',
    '    for start in range(0, len(keys), 100):',
    '        request = {table_name: {"Keys": keys[start : start + 100]}}',
    '        for attempt in range(10):',
    `            got = ${client}.batch_get_item(RequestItems=request)`,
    '            items = got["Responses"].get(table_name, [])',
    `            total += sum(${value} for item in items)`,
    '            request = got.get("UnprocessedKeys")',
    '            if not request:',
    '                break',
    '            time.sleep(0.05 * 2**attempt)',
    '        else:',
    '            raise RuntimeError("DynamoDB left counter items unprocessed after 10 tries")',
    '    return total',
    ...(p.wrapper
      ? [
          '',
          ...(p.member ? [] : ['']),
          `def ${p.wrapper}(${p.member ? 'self, ' : ''}response):`,
          ...wrapWords(`${WRAP_DOC}"""`, width, '    """', '    '),
          `    response.setdefault("Attributes", {})[${q(p.attr)}] = ${low ? `{"N": str(${total})}` : total}`,
          '    return response',
        ]
      : []),
  ].join('\n');
  return fitPythonBlock(source, width, unit);
}

/**
 * How the Python reader reaches `time.sleep`: the module imports `time` already, it can
 * (`import time` added at the top: nothing else there is called `time`), or the reader
 * imports it for itself (`from datetime import time` in the file).
 */
type PausePlan = 'imported' | 'add' | 'local';

function pausePlan(text: string): PausePlan {
  if (hasModuleImport(text, 'time')) return 'imported';
  const bound = /^(?:from\s+\S+\s+import\s+[^\n]*\btime\b|time\s*(?::[^=\n]*)?=|def\s+time\b|class\s+time\b)/m;
  return bound.test(text) ? 'local' : 'add';
}

/** An object key: bare when it is a name. */
const prop = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function jsSource(a: Access, style: ReaderStyle, p: Parts): string | null {
  const typed = a.language === 'typescript' || a.language === 'tsx';
  const pk = a.partitionKey!.attribute;
  const low = style.sdk === 'aws-sdk-v3';
  const wrap = (e: string) => (low ? `{ S: ${e} }` : e);
  const key = `{ ${prop(pk)}: ${p.numeric ? (low ? '{ N: String(counterKey) }' : 'counterKey') : wrap('counterKey')}${p.sk ? `, ${prop(p.sk[0])}: ${wrap(p.sk[1])}` : ''} }`;
  const input = `{ TableName: ${p.table}, Key: ${key} }`;
  let get: string;
  if (style.call === 'method') get = `${p.receiver}.${low ? 'getItem' : 'get'}(${input})`;
  else if (style.sdk === 'lib-dynamodb') get = `${p.receiver}.send(new GetCommand(${input}))`;
  else if (low) get = `${p.receiver}.send(new GetItemCommand(${input}))`;
  else if (style.sdk === 'aws-sdk-v2-document-client') get = `${p.receiver}.get(${input}).promise()`;
  else return null;
  const item = /^[A-Za-z_$][\w$]*$/.test(p.attr) ? `r.Item?.${p.attr}` : `r.Item?.[${JSON.stringify(p.attr)}]`;
  const value = low ? `Number(${item}?.N ?? 0)` : `Number(${item} ?? 0)`;
  const head = p.member ? `async ${p.name}()` : `${p.exported ? 'export ' : ''}async function ${p.name}()`;
  const total = `await ${p.member ? 'this.' : ''}${p.name}()`;
  const T = typed ? '<T extends { Attributes?: Record<string, any> }>' : '';
  const wrapHead = p.member ? `async ${p.wrapper}${T}` : `async function ${p.wrapper}${T}`;
  return [
    '/**',
    ...DOC_LINES(p.count).map((l) => ` * ${l}`),
    ' */',
    `${head}${typed ? ': Promise<number>' : ''} {`,
    ...(p.setup ? [`  ${p.setup}`] : []),
    `  const shards = Array.from({ length: ${p.count} }, (_, shard) => ${p.keyExpr});`,
    // One line a step: the keys, the read of each (prettier breaks the chain so).
    '  const got = await Promise.all(',
    p.numeric
      ? `    [...new Set([${p.original}, ...shards])].map((counterKey) =>`
      : `    [${p.original}, ...shards].map((counterKey) =>`,
    `      ${get},`,
    '    ),',
    '  );',
    `  return got.reduce((sum, r) => sum + ${value}, 0);`,
    '}',
    ...(p.wrapper
      ? [
          '',
          `/** ${WRAP_DOC} */`,
          // Typed, the head passes 80 columns: its parameter on a line of its own, as prettier puts it.
          ...(typed ? [`${wrapHead}(`, '  response: T,', '): Promise<T> {'] : [`${wrapHead}(response) {`]),
          `  const ${TOTAL_LOCAL} = ${total};`,
          `  return { ...response, Attributes: { ...response.Attributes, ${prop(p.attr)}: ${low ? `{ N: String(${TOTAL_LOCAL}) }` : TOTAL_LOCAL} } };`,
          '}',
        ]
      : []),
  ].join('\n');
}

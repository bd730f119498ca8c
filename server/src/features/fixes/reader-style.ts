import { type Access, escapeRegExp, type ImportInfo, type SdkStyle, type Span } from '../../engine';
import { offsetAt, positionAt } from './apply';

/**
 * The SDK style generated code must use to call the client a site calls, decided from
 * what the file imports and how the client is made, not from the request's shape alone:
 *
 * - `send(new XCommand(...))`: the package the command class is imported from
 *   (`@aws-sdk/lib-dynamodb` or `@aws-sdk/client-dynamodb`), so a file importing both
 *   gets the commands of the one this call uses;
 * - a method call (`db.query({...})`): SDK v2 (`.promise()`) only when the client is
 *   v2's; SDK v3's aggregated clients (`DynamoDBDocument`, `DynamoDB` from
 *   `@aws-sdk/client-dynamodb`) have the same methods and return promises, so their
 *   calls are awaited as they are;
 * - boto3: the engine's `Table` resource or client.
 *
 * Null when the client cannot be told (a v2-looking call on a wrapper of the project's
 * own): then no code is generated for it.
 */
export interface ReaderStyle {
  sdk: SdkStyle;
  /** `send`: `client.send(new QueryCommand(...))`; `promise`: v2's `.promise()`; `method`: an awaited method call. */
  call: 'send' | 'promise' | 'method';
}

const LIB = '@aws-sdk/lib-dynamodb';
const CLIENT = '@aws-sdk/client-dynamodb';
const V2 = new Set(['aws-sdk', 'aws-sdk/clients/dynamodb', 'aws-sdk/global']);

const imported = (imports: ImportInfo[], module: string, name: string) =>
  imports.some((i) => i.module === module && i.names.includes(name));

/** The line declaring `receiver` (`const db = DynamoDBDocument.from(...)`, `this.db = ...`). */
function declarationOf(receiver: string, text: string): string | null {
  const name = receiver.replace(/^(this|self)\./, '');
  const esc = name.replace(/[$]/g, '\\$');
  const re = new RegExp(
    `(?:\\b(?:const|let|var)\\s+|this\\.|\\b(?:private|public|protected|readonly)\\s+(?:readonly\\s+)?)${esc}\\s*(?::[^=\\n]*)?=\\s*([^;\\n]+)`,
  );
  return re.exec(text)?.[1] ?? null;
}

export function readerStyle(site: Access, text: string, imports: ImportInfo[]): ReaderStyle | null {
  const form = site.call.form;
  if (site.language === 'python') return { sdk: site.sdk, call: 'method' };
  if (form === 'send-command' || form === 'paginator') {
    const callee = site.call.callee;
    if (imported(imports, LIB, callee)) return { sdk: 'lib-dynamodb', call: 'send' };
    if (imported(imports, CLIENT, callee)) return { sdk: 'aws-sdk-v3', call: 'send' };
    return { sdk: site.sdk, call: 'send' };
  }
  // `.promise()` is SDK v2's alone.
  if (form === 'v2-promise') return { sdk: site.sdk, call: 'promise' };
  // Another method call: whose client is it?
  const receiver = site.call.receiver;
  const made = receiver ? (declarationOf(receiver, text) ?? '') : '';
  const v2Imported = imports.some((i) => V2.has(i.module));
  const libAggregate = imported(imports, LIB, 'DynamoDBDocument');
  const clientAggregate = imported(imports, CLIENT, 'DynamoDB');
  const lowLevel = site.sdk === 'aws-sdk-v2';
  // The declaration says which, when it is in the file.
  if (/\bDynamoDBDocument\.from\(/.test(made)) return { sdk: 'lib-dynamodb', call: 'method' };
  if (/\bDocumentClient\b|\bAWS\./.test(made)) return { sdk: site.sdk, call: 'promise' };
  if (/\bnew\s+DynamoDB\(/.test(made)) {
    if (clientAggregate) return { sdk: 'aws-sdk-v3', call: 'method' };
    if (v2Imported) return { sdk: site.sdk, call: 'promise' };
  }
  // Else the imports, when they leave one choice.
  const choices = [v2Imported, libAggregate, clientAggregate].filter(Boolean).length;
  if (choices !== 1) return null;
  if (v2Imported) return form === 'v2-call' && !made ? null : { sdk: site.sdk, call: 'promise' };
  if (libAggregate && !lowLevel) return { sdk: 'lib-dynamodb', call: 'method' };
  if (clientAggregate && lowLevel) return { sdk: 'aws-sdk-v3', call: 'method' };
  return null;
}

/**
 * The whole call a read stands in, as an expression that resolves to the response:
 * `ddb.send(new QueryCommand({...}))` (the engine's span is the command), a v2
 * `docClient.query({...}).promise()`, `table.query(...)`. Null when the text around
 * the command is not that shape.
 */
export function wholeCall(read: Access, text: string): { span: Span; text: string } | null {
  let start = offsetAt(text, read.span.startLine, read.span.startColumn);
  let end = offsetAt(text, read.span.endLine, read.span.endColumn);
  const form = read.call.form;
  if (form === 'send-command') {
    const receiver = read.call.receiver;
    if (!receiver) return null;
    const before = text.slice(0, start);
    const esc = escapeRegExp(receiver);
    const open = new RegExp(`(?:^|[^\\w$.])(${esc}\\s*\\.send\\(\\s*)$`).exec(before);
    const close = /^\s*,?\s*\)/.exec(text.slice(end));
    if (!open || !close) return null;
    start -= open[1].length;
    end += close[0].length;
  } else if (form === 'v2-promise') {
    const promise = /^\s*\.promise\(\s*\)/.exec(text.slice(end));
    if (!promise) return null;
    end += promise[0].length;
  } else if (form !== 'boto3-table' && form !== 'boto3-client' && form !== 'v2-call') return null;
  const a = positionAt(text, start);
  const b = positionAt(text, end);
  return {
    span: { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column },
    text: text.slice(start, end),
  };
}

import type { Access } from '../../engine';
import type { FixAction, FixContext } from './fix-model';
import { indentUnitOf, isTyped } from './reader-conventions';
import { wholeCall } from './reader-style';

/**
 * SL008 in place: a scatter-gather read that reads one page per shard becomes a read of
 * every page, without touching the code around it. The call expression is replaced by
 * an async function expression that sends the same request with `ExclusiveStartKey`
 * until `LastEvaluatedKey` is empty and resolves to the last response with every page's
 * `Items` — the same shape the code already reads, so nothing else changes.
 *
 * Only done where that is certain: SDK v3 `send(new QueryCommand({...}))` or v2
 * `query({...}).promise()` with the request written inline, not limited, with no
 * `ExclusiveStartKey` of its own, and no name the wrapper uses. Elsewhere (Python,
 * a request built elsewhere) the fix offered is the generated reader instead.
 */

const WRAPPER_NAMES = /\b(pageItems|pageStart|lastPage)\b/;

export function paginateInPlace(read: Access, ctx: FixContext): FixAction | null {
  if (read.language === 'python' || read.operation !== 'Query' || read.limited) return null;
  const text = ctx.textOf(read.file);
  if (text === null) return null;
  const form = read.call.form;
  if (form !== 'send-command' && form !== 'v2-promise') return null;
  const whole = wholeCall(read, text);
  if (!whole) return null;
  const { span, text: callText } = whole;
  const shape =
    form === 'send-command'
      ? /^([\s\S]*\bnew\s+QueryCommand\(\s*\{)([\s\S]*?)(,?\s*\}\s*,?\s*\)\s*,?\s*\))$/.exec(callText)
      : /^([\s\S]*\.query\(\s*\{)([\s\S]*?)(,?\s*\}\s*,?\s*\)\s*\.promise\(\s*\))$/.exec(callText);
  if (!shape || /ExclusiveStartKey/.test(callText) || WRAPPER_NAMES.test(callText)) return null;
  const typed = isTyped(read.file);
  const T = (t: string) => (typed ? t : '');
  const unit = indentUnitOf(text, false);
  const base = read.call.indent;
  const ind = (d: number) => base + unit.repeat(d);
  // The new property on its own line, indented like the last one, when the request spans lines.
  const lastLine = shape[2].slice(shape[2].lastIndexOf('\n') + 1);
  const propIndent = /^\s*/.exec(lastLine)![0];
  const added = shape[2].includes('\n')
    ? `,\n${propIndent}ExclusiveStartKey: pageStart`
    : ', ExclusiveStartKey: pageStart';
  const request = `${shape[1]}${shape[2]}${added}${shape[3]}`;
  const lines = [
    '(async () => {',
    `${ind(1)}const pageItems${T(': Record<string, any>[]')} = [];`,
    `${ind(1)}let pageStart${T(': Record<string, any> | undefined')};`,
    `${ind(1)}let lastPage;`,
    `${ind(1)}do {`,
    `${ind(2)}lastPage = await ${request};`,
    `${ind(2)}pageItems.push(...(lastPage.Items ?? []));`,
    `${ind(2)}pageStart = lastPage.LastEvaluatedKey;`,
    `${ind(1)}} while (pageStart);`,
    `${ind(1)}return { ...lastPage, Items: pageItems, Count: pageItems.length };`,
    `${base}})()`,
  ];
  return {
    title: 'Follow LastEvaluatedKey on every shard (read all pages)',
    id: 'paginate-shards',
    rule: 'SL008',
    preferred: true,
    safe: false,
    asks: [],
    changes: [{ file: read.file, span, newText: lines.join('\n') }],
  };
}

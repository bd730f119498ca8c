import { type Access, type Finding, render } from '../../engine';
import {
  JS_HELPER_NAME,
  jsCacheHelper,
  PY_HELPER_IMPORTS,
  PY_HELPER_NAME,
  pythonCacheHelper,
  tsCacheHelper,
} from '../generate/cache-helper';
import { offsetAt, positionAt } from './apply';
import { cacheKeyCode, sameOnEveryCall } from './cache-key';
import { atWrapper, wrapperCall, wrapperOwnRead } from './cache-wrapper';
import { libraryCallRange, libraryNotCacheable } from './cache-library';
import type { FixAction, FixContext, FixProvider, TextChange } from './fix-model';
import { pythonImportPoint } from '../generate/imports';
import { hasModuleImport, headerChanges } from './header';
import { projectLineWidth } from './line-width';
import { indentUnitOf } from './reader-conventions';
import { fittedCallInLine } from './fitted-call';
import { wrapWords } from '../generate/wrap-words';
import { where } from './key-sites';
import { writtenBack } from './written-back';

/**
 * The cache fix for a read of a read-hot key (`cache-read`, docs/fixes.md): the read is
 * wrapped, where it stands, in a call of a small in-process TTL cache with single-flight
 * refresh (`../generate/cache-helper.ts`), added once to the file with a named TTL
 * constant. The wrapped call is the same request sent the same way, so the code gets
 * what it got before, up to TTL seconds old; the function's signature does not change.
 *
 * Only a request that is the same on every call is cached under one entry: a GetItem or
 * a Query whose key and sort key are constant, sent whole (not page by page) and with no
 * `Limit` or filter computed per call. Anything else says why it is not offered.
 */

type Blocked = { blocked: string };

export const blockedAction = (f: Finding, why: string): FixAction => ({
  title: `No cache fix: ${why}`,
  id: 'cache-fix-blocked',
  rule: f.rule,
  safe: false,
  asks: [],
  changes: [],
});

export const cacheReadFix: FixProvider = (finding, ctx): FixAction[] => {
  const d = finding.fixes.find((x) => x.kind === 'cache-read');
  if (!d || d.kind !== 'cache-read' || finding.access.kind !== 'read') return [];
  if (finding.access.through) {
    // The wrapper's request cached for every caller, when its read is a finding of its own.
    const own = wrapperOwnRead(finding, ctx);
    if (own) return cacheReadFix(own, ctx).map((a) => atWrapper(a, finding, ctx));
    // A library's read in a wrapper: `cache-elsewhere.ts` says why.
    if (finding.access.library) return [];
  }
  const r = cacheEdit(finding, d.ttlSeconds, ctx);
  return 'blocked' in r ? [blockedAction(finding, r.blocked)] : [r];
};

function cacheEdit(finding: Finding, ttlSeconds: number, ctx: FixContext): FixAction | Blocked {
  const a = finding.access;
  const text = ctx.textOf(a.file);
  if (text === null) return { blocked: 'the file cannot be read' };
  const why = notCacheable(a, text) ?? (a.library ? libraryNotCacheable(a, text) : null);
  if (why) return { blocked: why };
  const back = writtenBack(a, text, ctx);
  if (back) {
    const { write, where: meet } = back;
    const at = write.file === a.file ? `line ${write.span.startLine + 1}` : where(ctx, write.file, write.span);
    return {
      blocked: `the ${write.operation} at ${at} writes the item back ${meet}: a value read up to ${ttlSeconds} s old would be written over newer ones`,
    };
  }
  const call = a.library ? libraryCallRange(a, text) : a.through ? wrapperCall(a, text, ctx) : callRange(a, text);
  if (!call) return { blocked: `the ${a.operation} call is not written in a form the fix can wrap` };
  if ('blocked' in call) return call;
  if (alreadyCached(text, call.start)) return { blocked: 'the read is served from the cache already' };
  const python = a.language === 'python';
  const typed = /\.(ts|tsx|mts|cts)$/.test(a.file);
  const constant = sameOnEveryCall(a.partitionKey!);
  const cacheKey = cacheKeyCode(a, text, call);
  if ('blocked' in cacheKey) return cacheKey;
  const keyText = cacheKey.text;
  // A library read is named by its entity (`PROMPT_CACHE_TTL_MS`), not by its stored key's words.
  const ttl = ttlName(a.library?.entity ?? keyText, python);
  const width = projectLineWidth(a.file, text);
  const from = positionAt(text, call.start);
  const to = positionAt(text, call.end);
  const span = { startLine: from.line, startColumn: from.column, endLine: to.line, endColumn: to.column };
  const wrapped = fittedCallInLine(
    python ? PY_HELPER_NAME : JS_HELPER_NAME,
    [cacheKey.code, ttl, `${python ? 'lambda: ' : '() => '}${text.slice(call.start, call.end)}`],
    { text, span, indentUnit: indentUnitOf(text, python), width, python },
  );
  const blocks: string[] = [];
  if (!new RegExp(`^\\s*(const|let|var)?\\s*${ttl}\\s*=`, 'm').test(text))
    blocks.push(ttlDeclaration(ttl, keyText, ttlSeconds, python, width));
  const hasHelper = python
    ? new RegExp(`^def ${PY_HELPER_NAME}\\(`, 'm').test(text)
    : new RegExp(`function ${JS_HELPER_NAME}\\b`).test(text);
  if (!hasHelper) blocks.push(python ? pythonCacheHelper(width) : typed ? tsCacheHelper(width) : jsCacheHelper());
  const fileImports = ctx.analysisOf(a.file)?.imports ?? [];
  const missing = python && !hasHelper ? PY_HELPER_IMPORTS.filter((m) => !hasModuleImport(text, m)) : [];
  const header = headerChanges(
    a.file,
    text,
    fileImports,
    { value: 0, name: ttl, reused: true, declare: null, importChange: null },
    // Python wants two blank lines around a top-level function (and after it: `headerChanges`).
    { blocks: python ? [blocks.join('\n\n\n')].filter((b) => b.trim()) : blocks },
  );
  // The standard-library imports the helper needs, each at its place in the group (before the header).
  const points = new Map<number, { before: string; after: string; lines: string[] }>();
  for (const m of [...missing].sort()) {
    const p = pythonImportPoint(text, fileImports, m);
    const at = points.get(p.offset) ?? { before: p.before, after: p.after, lines: [] };
    at.lines.push(`import ${m}`);
    points.set(p.offset, at);
  }
  const importChanges = [...points].map(([offset, p]): TextChange => {
    const at = positionAt(text, offset);
    const span = { startLine: at.line, startColumn: at.column, endLine: at.line, endColumn: at.column };
    return { file: a.file, span, newText: p.before + p.lines.join('\n') + p.after };
  });
  header.unshift(...importChanges);
  const change: TextChange = { file: a.file, span: wrapped.span, newText: wrapped.text };
  return {
    // A key of a few values keeps one entry per value (`STATUS#{status}`): the title says so.
    title: `Cache reads of '${keyText}' for ${ttlSeconds} s${constant === null ? ', one entry per value' : ''} (readers may see values up to ${ttlSeconds} s old)`,
    id: 'cache-read',
    rule: finding.rule,
    preferred: true,
    safe: false,
    asks: [],
    changes: [...header, change],
  };
}

/** Why this read cannot be served from one cache entry, or null when it can. */
function notCacheable(a: Access, text: string): string | null {
  if (a.operation !== 'GetItem' && a.operation !== 'Query')
    return `a ${a.operation} is not cached (only GetItem and Query)`;
  const forms = a.language === 'python' ? ['boto3-table', 'boto3-client'] : ['send-command', 'v2-promise'];
  // A library's call is not an SDK form: `cache-library.ts` says whether it is wrapped.
  if (!a.library && !forms.includes(a.call.form))
    return `the ${a.operation} is sent as ${a.call.form}, which the fix does not wrap`;
  // A blocking boto3 call in an `async def` (a FastAPI route) runs to its end before any other
  // coroutine does, so the threaded cache serves it; an awaited one (aioboto3) returns a coroutine.
  if (a.language === 'python' && a.call.async && awaited(a, text))
    return 'the read is awaited (an asyncio client), which the threaded cache does not serve';
  const sort = a.sortCondition?.operands ?? (a.sortKey ? [a.sortKey] : []);
  const varying = sort.find((o) => sameOnEveryCall(o) === null);
  if (varying)
    return `its sort key varies per call (${render(varying.template)}): one cache entry would serve other items`;
  const r = a.read;
  // A library's one call that reads every page (ElectroDB's `pages: 'all'`) returns them all: one entry.
  if ((a.paginated && !a.library) || r?.exclusiveStartKey || r?.paginator) return 'it reads the key page by page';
  if (r?.limit === 'dynamic') return 'its Limit is computed per call';
  if (r?.shaping.includes('FilterExpression')) return 'its FilterExpression may differ per call';
  return null;
}

/** The range of the whole call that sends the request: `ddb.send(new GetCommand(...))`, `doc.get(...).promise()`, `table.get_item(...)`. */
function callRange(a: Access, text: string): { start: number; end: number } | null {
  let start = offsetAt(text, a.span.startLine, a.span.startColumn);
  let end = offsetAt(text, a.span.endLine, a.span.endColumn);
  if (a.call.form === 'send-command') {
    const before = /([\w$.]+|this\.[\w$.]+)\.send\(\s*$/.exec(text.slice(Math.max(0, start - 200), start));
    const after = /^\s*,?\s*\)/.exec(text.slice(end));
    if (!before || !after || !a.call.receiver || !before[1].endsWith(a.call.receiver)) return null;
    start -= before[0].length;
    end += after[0].length;
  } else if (a.call.form === 'v2-promise') {
    const after = /^\s*\.promise\(\s*\)/.exec(text.slice(end));
    if (!after) return null;
    end += after[0].length;
  }
  return { start, end };
}

/** Whether the call is written after `await`. */
function awaited(a: Access, text: string): boolean {
  const start = offsetAt(text, a.span.startLine, a.span.startColumn);
  return /\bawait\s+$/.test(text.slice(Math.max(0, start - 40), start));
}

/** Whether the call is the load of a cache call already (`shardlensCached(k, ttl, () => <call>)`). */
function alreadyCached(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 400), start);
  return new RegExp(`(${JS_HELPER_NAME}|${PY_HELPER_NAME})\\([^()]*,[^()]*,\\s*(\\(\\)\\s*=>|lambda:)\\s*$`).test(
    before,
  );
}

/** `GLOBAL_CONFIG_CACHE_TTL_MS` / `GLOBAL_CONFIG_CACHE_TTL_SECONDS`, from the key's words. */
function ttlName(keyText: string, python: boolean): string {
  let base = keyText
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!base) base = 'READ';
  if (/^[0-9]/.test(base)) base = `KEY_${base}`;
  return `${base}_CACHE_TTL_${python ? 'SECONDS' : 'MS'}`;
}

/** The TTL constant, under a comment that says what it does, wrapped to the file's width. */
function ttlDeclaration(name: string, keyText: string, seconds: number, python: boolean, width: number): string {
  const why = `Reads of ${JSON.stringify(keyText)} are served from memory this long: readers may see a value up to ${seconds} s old.`;
  if (python) return [...wrapWords(why, width, '# '), `${name} = ${seconds}`].join('\n');
  const comment = `/** ${why} */`.length <= width ? [`/** ${why} */`] : ['/**', ...wrapWords(why, width, ' * '), ' */'];
  return [...comment, `const ${name} = ${seconds} * 1000;`].join('\n');
}

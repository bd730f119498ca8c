import { directRequestOf, directRequestReason } from './direct-reads';
import * as path from 'node:path';
import { type Access, literalText, type LogicalKey } from '../../engine';
import { textIn } from './apply';
import type { FixContext, TextChange } from './fix-model';
import { where } from './key-sites';
import { fittedPythonChange } from './fitted-call';
import { projectLineWidth } from './line-width';
import { indentUnitOf, quoteOf } from './reader-conventions';
import { pythonModuleFor } from './reader-scope';
import { readerStyle, wholeCall } from './reader-style';
import { afterImports, importOf } from './shard-count';

/**
 * The other accesses of a counter's item, which the spread must repair in the same edit.
 * A `GetItem` of the counter (the dashboard that shows the count) would read only the
 * count written before the fix once the increments go to N other items: it is replaced
 * by a call to the summing reader that answers in the GetItem's own response shape
 * (`{ Item: { pk, views } }`), so the code around it reads the count where it did. Any
 * other access of the item — another increment, a put or delete, a query of its
 * partition, a callback-style read — cannot be carried over, and the fix is not offered.
 */

export interface CounterReads {
  /** The GetItems of the counter to replace. */
  gets: Access[];
  /** What blocks the fix (`a Query at stats.ts:12`), or null. */
  blocker: string | null;
}

const sameSpan = (x: Access, y: Access) =>
  x.file === y.file && x.span.startLine === y.span.startLine && x.span.startColumn === y.span.startColumn;
const sortText = (s: Access) => (s.sortKey ? literalText(s.sortKey.template) : '');

export function counterReads(a: Access, key: LogicalKey, ctx: FixContext): CounterReads {
  const direct = directRequestOf(key, ctx);
  if (direct) return { gets: [], blocker: directRequestReason(direct, key, ctx) };
  const gets: Access[] = [];
  const sort = sortText(a);
  for (const s of ctx.accessesOf(key)) {
    if (sameSpan(s, a)) continue;
    // Another item of the same partition (another sort key) stays where it is: the fix does not move it.
    const sameItem = sort === null || sortText(s) === null || sortText(s) === sort;
    if (s.operation !== 'Query' && !sameItem) continue;
    const bare = s.partitionKey && literalText(s.partitionKey.template) === literalText(a.partitionKey!.template);
    if (s.operation === 'GetItem' && bare && sort !== null && sortText(s) === sort) gets.push(s);
    else
      return {
        gets: [],
        blocker: `${article(s.operation)} at ${where(ctx, s.file, s.span)} reads or writes the counter's item`,
      };
  }
  return { gets, blocker: null };
}

const article = (op: string) => (/^[AEIOU]/.test(op) ? `an ${op}` : `a ${op}`);

export interface ReaderRef {
  /** The writer's file, where the reader is defined. */
  file: string;
  name: string;
  /** A method of the writer's class (`this.` / `self.`), not a module function. */
  member: boolean;
  attribute: string;
}

/**
 * The edits that make one GetItem of the counter a call to the summing reader, with the
 * reader imported when it lives in another module; null when the read cannot take it
 * (a callback's response, a method reader out of its class, a module it cannot import).
 */
export function getReplacement(site: Access, reader: ReaderRef, ctx: FixContext, numeric = false): TextChange[] | null {
  const text = ctx.textOf(site.file);
  if (text === null || !site.partitionKey) return null;
  const whole = wholeCall(site, text);
  const imports = ctx.analysisOf(site.file)?.imports ?? [];
  const style = readerStyle(site, text, imports);
  if (!whole || !style || site.call.form === 'v2-call') return null;
  const python = site.language === 'python';
  const here = site.file === reader.file;
  if (reader.member && !(here && /^(this|self)\./.test(site.call.receiver ?? ''))) return null;
  const call = `${reader.member ? (python ? 'self.' : 'this.') : ''}${reader.name}()`;
  const low = python ? site.sdk === 'boto3-client' : style.sdk === 'aws-sdk-v3' || style.sdk === 'aws-sdk-v2';
  const name = (attr: string) => (!python && /^[A-Za-z_$][\w$]*$/.test(attr) ? attr : JSON.stringify(attr));
  const typed = (expr: string) => (numeric ? (python ? `{"N": ${expr}}` : `{ N: ${expr} }`) : wrapS(expr, python));
  const key = (attr: string, expr: string) => `${name(attr)}: ${low ? typed(expr) : expr}`;
  const keys = [key(site.partitionKey.attribute, textIn(text, site.partitionKey.span).trim())];
  if (site.sortKey) keys.push(key(site.sortKey.attribute, textIn(text, site.sortKey.span).trim()));
  const attr = name(reader.attribute);
  const replacement = python
    ? `{"Item": {${keys.join(', ')}, ${attr}: ${low ? `{"N": str(${call})}` : call}}}`
    : `${call}.then((total) => ({ Item: { ${keys.join(', ')}, ${attr}: ${low ? '{ N: String(total) }' : 'total'} } }))`;
  const changes: TextChange[] = [
    python
      ? fittedPythonChange(
          site.file,
          text,
          whole.span,
          replacement,
          indentUnitOf(text, true),
          projectLineWidth(site.file, text),
        )
      : { file: site.file, span: whole.span, newText: replacement },
  ];
  if (here) return changes;
  // Another module: import the reader the way the file imports its neighbours.
  if (python) {
    const mod = pythonModuleFor(site.file, reader.file, ctx);
    if (!mod || importsBack(reader.file, site.file, ctx)) return null;
    changes.push(afterImports(site.file, text, imports, `from ${mod} import ${reader.name}`));
    return changes;
  }
  const imp = importOf(site, imports, text, reader.name, reader.file);
  if (!imp || importsBack(reader.file, site.file, ctx)) return null;
  const q = quoteOf(text, imports);
  const line = typeof imp === 'string' ? imp.replace(/"([^"]*)"/, `${q}$1${q}`) : imp;
  changes.push(typeof line === 'string' ? afterImports(site.file, text, imports, line) : line);
  return changes;
}

const wrapS = (expr: string, python: boolean) => (python ? `{"S": ${expr}}` : `{ S: ${expr} }`);

/** Whether the writer's module imports the reading module (importing back would be circular). */
function importsBack(writer: string, reading: string, ctx: FixContext): boolean {
  const stem = path.basename(reading).replace(/\.\w+$/, '');
  return (ctx.analysisOf(writer)?.imports ?? []).some((i) => i.module.split(/[./]/).pop() === stem);
}

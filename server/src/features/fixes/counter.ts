import { addShardSuffix, logicalKeyOf, type Span } from '../../engine';
import { textIn } from './apply';
import { counterNames } from './counter-names';
import { isNumberKey, numberKeyChange, numberKeyOf, numberRangeBlocker, shardIds } from './counter-number';
import { counterReads, getReplacement } from './counter-reads';
import { counterAttribute, summingReader, type CounterReader } from './counter-reader';
import { incrementUse, readsNewCount, readsUnkeepable } from './counter-use';
import type { FixAction, FixAnswers, FixProvider, TextChange } from './fix-model';
import { headerChanges, hasRandomImport } from './header';
import { keyChange } from './key-edit';
import { indentUnitOf } from './reader-conventions';
import { projectLineWidth } from './line-width';
import { wrapWords } from '../generate/wrap-words';
import { where } from './key-sites';
import { planShardCount } from './shard-count';
import { countQuestion } from './shard-fix';
import { randomShardExpression } from './write-shard';

/**
 * SL004: a counter item every request increments. The fix spreads the count over N
 * items — each increment goes to a random one — and writes a function next to the
 * writer that sums them. When the caller reads the new count from the increment's
 * response (`ReturnValues: UPDATED_NEW`), the response is handed through a wrapper that
 * puts the total there, so the returned count still means the count; when that cannot
 * be written, or the response's old values are read, the fix is not offered.
 *
 * A counter whose new value serves as an id cannot be spread at all (N items count
 * independently, so ids would repeat): a UUID or ULID is unique without coordination.
 * That is said in the title of an edit-less action rather than done, since removing
 * the counter changes the ids' shape. So is a counter whose key is a Number (a shard
 * suffix would make it a string, which the table rejects), and a counter whose item is
 * accessed elsewhere in a way the fix cannot carry over; a GetItem of the counter is
 * replaced by a call to the summing reader in the same edit.
 */
export const spreadCounter: FixProvider = (finding, ctx, answers?: FixAnswers): FixAction[] => {
  const a = finding.access;
  if (!finding.fixes.some((x) => x.kind === 'spread-counter') || a.kind !== 'write' || !a.partitionKey) return [];
  const text = ctx.textOf(a.file);
  const key = logicalKeyOf(a);
  if (text === null || !key) return [];
  const d = addShardSuffix(a, key, null);
  if (d.kind !== 'add-shard-suffix') return [];
  const imports = ctx.analysisOf(a.file)?.imports ?? [];
  const use = incrementUse(a, text, imports, counterAttribute(textIn(text, a.span)));
  if (!use) return [];
  if (use.idLike && readsNewCount(use)) return [idAdvice(finding.rule)];
  if (readsUnkeepable(use))
    return [
      blocked(finding.rule, `the caller reads the count before the increment (ReturnValues ${use.returnValues})`),
    ];
  // A Number key keeps its type: the shards get numeric ids (`base * N + shard`), if the table leaves them free.
  const number = isNumberKey(a, ctx) ? numberKeyOf(a, ctx) : null;
  if (number && 'blocked' in number) return [blocked(finding.rule, number.blocked)];
  // A counter that is this item on some paths only (`VIEWS#${page}`, page defaulting to site):
  // the spread's summing reader reads this item, not the one its other values name.
  const partial = [a, ...ctx.accessesOf(key)].find((x) => x.partitionKey?.someOfPaths);
  if (partial)
    return [
      blocked(
        finding.rule,
        `the ${partial.operation} at ${where(ctx, partial.file, partial.span)} uses this item on some paths only (its key can name another counter)`,
      ),
    ];
  const reads = counterReads(a, key, ctx);
  if (reads.blocker) return [blocked(finding.rule, reads.blocker)];
  const attribute = counterAttribute(textIn(text, a.span));
  const others = [...new Set(reads.gets.map((g) => g.file).filter((f) => f !== a.file))];
  const names = counterNames(
    a,
    text,
    attribute,
    others.map((f) => ctx.textOf(f) ?? ''),
  );
  const count = planShardCount(a, null, ctx, answers, names.count);
  if (number) {
    const taken = numberRangeBlocker(a, number, count.value, [a, ...reads.gets], ctx);
    if (taken) return [blocked(finding.rule, taken)];
    const [lo, hi] = shardIds(number.base, count.value);
    // The ids the shards take, where a reviewer sees them: no other item of the table may use them.
    const note = `Counter items with ids ${lo}..${hi} (${number.expression} * N + shard); no other item of the table may use these ids.`;
    if (count.declare)
      count.declare = count.declare.replace(/^(# |\/\*\* ).*?( \*\/)?$/m, (_, open: string) =>
        noteComment(open, note, projectLineWidth(a.file, text)),
      );
  }
  const keyEdit = number
    ? numberKeyChange(a, number, count.name)
    : keyChange(
        ctx,
        a.language,
        { file: a.file, span: a.partitionKey.span },
        d.at,
        d.separator,
        randomShardExpression(a, count.name),
      );
  if (!keyEdit) return [];
  const wrapped = readsNewCount(use);
  const reader = summingReader(ctx, a, text, d.separator, count.name, {
    names,
    withWrapper: wrapped,
    exported: others.length > 0,
    number,
  });
  // The caller reads one item's count: without the total in its place, the fix would change what it returns.
  if (wrapped && !use.wrappable)
    return [blocked(finding.rule, 'the caller reads the new count in a callback, where the total cannot be put')];
  if (wrapped && !reader)
    return [
      blocked(finding.rule, 'the caller reads the new count, and no summing reader can be written here for the total'),
    ];
  // Every GetItem of the counter reads the total instead of the item that no longer counts alone.
  const getChanges: TextChange[] = [];
  for (const g of reads.gets) {
    const ref = reader && attribute ? { file: a.file, name: reader.name, member: reader.member, attribute } : null;
    const edit = ref && getReplacement(g, ref, ctx, !!number);
    if (!edit)
      return [blocked(finding.rule, `the GetItem at ${where(ctx, g.file, g.span)} cannot call the summing reader`)];
    getChanges.push(...edit);
  }
  const needsRandom = a.language === 'python' && !hasRandomImport(text);
  const header = headerChanges(a.file, text, imports, count, {
    importLines: [...(needsRandom ? ['import random'] : []), ...(reader?.importLines ?? [])],
  });
  const changes: TextChange[] = [
    ...header,
    keyEdit,
    ...(reader?.changes ?? []),
    ...(wrapped && reader ? wrapResponse(a.file, a.language === 'python', use.call, reader, text) : []),
    ...getChanges,
  ];
  return [
    {
      title:
        `Spread the counter over ${count.value} items` +
        (reader ? ` and sum them in ${reader.name}()` : '') +
        (wrapped ? ', returning the total' : '') +
        (reads.gets.length ? ` (${reads.gets.length} read${reads.gets.length > 1 ? 's' : ''} of the count too)` : ''),
      id: 'spread-counter',
      rule: finding.rule,
      preferred: true,
      safe: false,
      asks: countQuestion(count, ctx),
      changes,
      reveal: reader ? { file: a.file, span: reader.changes[reader.changes.length - 1].span } : undefined,
    },
  ];
};

/**
 * Why the spread is not offered, as an edit-less action: the caller reads one item's count,
 * and after a spread it would get one shard's (a few of the total).
 */
function blocked(rule: FixAction['rule'], reason: string): FixAction {
  return {
    title: `Not spread over N items: ${reason}`,
    id: 'counter-not-spread',
    rule,
    safe: false,
    asks: [],
    changes: [],
  };
}

function idAdvice(rule: FixAction['rule']): FixAction {
  return {
    title: 'Ids from a counter: a UUID or ULID needs no counter item (see docs/fixes.md; no automatic edit)',
    id: 'counter-use-uuid',
    rule,
    safe: false,
    asks: [],
    changes: [],
  };
}

/**
 * The increment's response through the wrapper: `X.then(withTotal)` in JavaScript (both
 * SDKs' calls are promises here), `with_total(X)` in Python. Insertions at the call's ends
 * only, so they never overlap the key edit inside it.
 */
function wrapResponse(file: string, python: boolean, call: Span, reader: CounterReader, text: string): TextChange[] {
  const start: Span = {
    startLine: call.startLine,
    startColumn: call.startColumn,
    endLine: call.startLine,
    endColumn: call.startColumn,
  };
  const end: Span = {
    startLine: call.endLine,
    startColumn: call.endColumn,
    endLine: call.endLine,
    endColumn: call.endColumn,
  };
  if (python) {
    const opening = `${reader.member ? 'self.' : ''}${reader.wrapper}(`;
    const lines = text.split('\n').slice(call.startLine, call.endLine + 1);
    // A triple-quoted string's lines are its text: the call's lines stay where they are.
    const movable = !lines.some((l) => l.includes('"""') || l.includes("'''"));
    const hanging = movable ? blackWrap(file, text, lines, call, opening, start, end) : null;
    if (hanging) return hanging;
    return [
      { file, span: start, newText: opening },
      ...(movable ? visualIndentShift(file, lines, call, opening.length) : []),
      { file, span: end, newText: ')' },
    ];
  }
  const then = reader.member ? `.then((response) => this.${reader.wrapper}(response))` : `.then(${reader.wrapper})`;
  return [{ file, span: end, newText: then }];
}

/**
 * The wrapper as black writes it around a call that breaks its arguments one step in
 * (`table.update_item(` then the arguments, then `)`), or around a one-line call the wrapper
 * would push past the width: the call on lines of its own one step deeper, between
 * `with_total(` and `)`. Insertions only: at the call's ends and a step at each of its
 * other lines. Null for a call whose lines align with its parenthesis (PEP 8's visual indent).
 * `lines` are the call's lines, none holding a triple-quoted string.
 */
function blackWrap(
  file: string,
  text: string,
  lines: readonly string[],
  call: Span,
  opening: string,
  start: Span,
  end: Span,
): TextChange[] | null {
  const first = lines[0];
  const indent = /^[ \t]*/.exec(first)![0];
  const oneLine = call.startLine === call.endLine;
  const hanging = !oneLine && /\(\s*$/.test(first.slice(call.startColumn));
  const wrappedWidth = first.length + opening.length + 1;
  if (!hanging && !(oneLine && wrappedWidth > projectLineWidth(file, text))) return null;
  const step = indentUnitOf(text, true);
  const shifted: TextChange[] = [];
  lines.forEach((l, i) => {
    const line = call.startLine + i;
    if (i > 0 && l.trim())
      shifted.push({ file, span: { startLine: line, startColumn: 0, endLine: line, endColumn: 0 }, newText: step });
  });
  return [
    { file, span: start, newText: `${opening}\n${indent}${step}` },
    ...shifted,
    { file, span: end, newText: `\n${indent})` },
  ];
}

/**
 * Continuation lines aligned with the call's opening parenthesis (PEP 8's visual indent:
 * `client.update_item(TableName=...,` then `Key=...` under `TableName`) move right with
 * the wrapper written before the call, so they stay aligned. Lines of a hanging indent
 * (indented less than the call's start) stay. `lines` are the call's lines.
 */
function visualIndentShift(file: string, lines: readonly string[], call: Span, width: number): TextChange[] {
  const changes: TextChange[] = [];
  lines.slice(1).forEach((line, i) => {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === '' || indent <= call.startColumn) return;
    const at = { startLine: call.startLine + 1 + i, startColumn: 0, endLine: call.startLine + 1 + i, endColumn: 0 };
    changes.push({ file, span: at, newText: ' '.repeat(width) });
  });
  return changes;
}

/** The note as the comment it replaces (a `#` line or a doc comment), over several lines past the width. */
function noteComment(open: string, note: string, width: number): string {
  if (open === '# ') return wrapWords(note, width, '# ').join('\n');
  const one = `/** ${note} */`;
  return one.length <= width ? one : ['/**', ...wrapWords(note, width, ' * '), ' */'].join('\n');
}

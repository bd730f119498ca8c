import type { Node } from 'web-tree-sitter';
import { type Span, spanOf } from '../../../../engine';
import type { FixContext, TextChange } from '../../fix-model';
import { where, type Blocked } from '../../key-sites';
import { withTree } from '../../syntax';
import { exactly } from './keys';
import type { ModelKeyPlan } from './plan';
import { snake } from './python';
import { fitPythonBlock } from '../../../generate/fit-lines-python';
import { wrapWords } from '../../../generate/wrap-words';
import { projectLineWidth } from '../../line-width';

/**
 * Every query of the key becomes a call of a reader of every shard, written in the query's
 * module after the function holding it. The reader takes the query's own arguments (the call
 * keeps them: `BoardScore.query("global", limit=100)` → `query_board_score_board_shards("global",
 * limit=100)`), runs the same PynamoDB query on each shard (`Model.query` or `Model.<index>.query`,
 * whose result iterator reads every page), and merges the shards by the range key, as the one
 * query returned its items, the first `limit` of them (PynamoDB's `limit` counts the items it
 * returns, after the filter, so each shard's first `limit` hold the key's). It returns an
 * iterator, as the query did, for `for`, `list()` and `next()` alike.
 */
export const readerName = (plan: ModelKeyPlan) => `query_${snake(plan.model)}_${plan.hash}_shards`;

export interface ReaderFile {
  file: string;
  /** The reader's definition, and where it goes. */
  insert: TextChange;
  /** `import heapq` / `import itertools`. */
  imports: string[];
  /** The reader is annotated `-> Iterator[Model]`: the file imports `Iterator` from typing. */
  typingIterator: boolean;
}

interface Found {
  replace: TextChange;
  receiver: string;
  insertAt: Span;
  after: boolean;
}

/** Replacements of the queries and one reader per file, or what blocks them. */
export function readerChanges(
  ctx: FixContext,
  plan: ModelKeyPlan,
  count: string,
  sep: string,
  typed: (file: string) => boolean,
): { replaced: TextChange[]; readers: ReaderFile[] } | Blocked {
  const replaced: TextChange[] = [];
  const readers = new Map<string, ReaderFile>();
  for (const q of plan.queries) {
    const text = ctx.textOf(q.file) ?? '';
    const place = where(ctx, q.file, q.span);
    const found = withTree(q.file, text, (tree): Found | Blocked => {
      const call = exactly(tree, q.span);
      const fn = call?.type === 'call' ? call.childForFieldName('function') : null;
      const receiver = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
      if (!call || !fn || !receiver || !/^[A-Za-z_]\w*(\.\w+)*$/.test(receiver.text))
        return { blocked: `the query at ${place} is not a call on the model` };
      const why = notReplaceable(call, text);
      if (why) return { blocked: `the query at ${place} cannot be replaced by a reader of every shard: ${why}` };
      const root = receiver.text.split('.')[0];
      const known = new RegExp(
        `^(class\\s+${root}\\b|${root}\\s*=|from\\s+\\S+\\s+import\\s[^\\n]*\\b${root}\\b)`,
        'm',
      );
      if (!known.test(text))
        return { blocked: `the query at ${place} calls ${root}, which its module does not define` };
      // After the top-level definition holding the query; before a module-level statement running it.
      const top = topLevel(call);
      const after = /^(function|class|decorated)_definition$/.test(top.type);
      const at = after
        ? { line: top.endPosition.row, column: top.endPosition.column }
        : { line: top.startPosition.row, column: 0 };
      return {
        replace: { file: q.file, span: spanOf(fn), newText: readerName(plan) },
        receiver: receiver.text,
        insertAt: { startLine: at.line, startColumn: at.column, endLine: at.line, endColumn: at.column },
        after,
      };
    });
    if (!found) return { blocked: `${q.file} cannot be parsed` };
    if ('blocked' in found) return found;
    replaced.push(found.replace);
    if (readers.has(q.file)) continue;
    if (new RegExp(`^def\\s+${readerName(plan)}\\s*\\(`, 'm').test(text))
      return { blocked: `${readerName(plan)} is already defined in ${where(ctx, q.file, q.span)}` };
    const hinted = typed(q.file) && text.includes(plan.model);
    const source = readerSource(plan, found.receiver, { count, sep }, hinted, projectLineWidth(q.file, text));
    readers.set(q.file, {
      file: q.file,
      insert: {
        file: q.file,
        span: found.insertAt,
        newText: found.after ? `\n\n\n${source}` : `${source}\n\n\n`,
      },
      imports: [...(plan.range ? ['import heapq'] : []), 'import itertools'],
      typingIterator: hinted,
    });
  }
  return { replaced, readers: [...readers.values()] };
}

/** What the reader would change for this call's caller, if anything. */
function notReplaceable(call: Node, text: string): string | null {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  // Model.query and Index.query agree on their first three positions only.
  const positional = args.filter((a) => a && a.type !== 'keyword_argument' && a.type !== 'comment');
  if (positional.length > 3 || positional.some((a) => a!.type === 'list_splat' || a!.type === 'dictionary_splat'))
    return 'it passes arguments past the filter condition by position or by a splat';
  if (args.some((a) => a?.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'last_evaluated_key'))
    return 'it starts from a last_evaluated_key, a page of one partition';
  if (call.parent?.type === 'attribute') return 'its result iterator is used for more than its items';
  const fn = topLevel(call);
  if (/\.(last_evaluated_key|total_count|page_iter)\b/.test(text.slice(fn.startIndex, fn.endIndex)))
    return 'the function around it reads the result iterator’s paging state';
  return null;
}

function topLevel(n: Node): Node {
  let top = n;
  while (top.parent && top.parent.type !== 'module') top = top.parent;
  return top;
}

/** The reader's definition. */
export function readerSource(
  plan: ModelKeyPlan,
  receiver: string,
  shards: { count: string; sep: string },
  typed: boolean,
  width: number,
): string {
  const { count, sep } = shards;
  const value = plan.hash;
  const head = typed
    ? [
        `    ${value}: str,`,
        '    range_key_condition=None,',
        '    filter_condition=None,',
        '    scan_index_forward=None,',
        '    limit=None,',
        '    **kwargs,',
        `) -> Iterator[${plan.model}]:`,
      ]
    : [
        `    ${value},`,
        '    range_key_condition=None,',
        '    filter_condition=None,',
        '    scan_index_forward=None,',
        '    limit=None,',
        '    **kwargs,',
        '):',
      ];
  const order = plan.range
    ? [
        `    merged = heapq.merge(*per_shard, key=lambda item: item.${plan.range}, reverse=scan_index_forward is False)`,
        '    return itertools.islice(merged, limit)',
      ]
    : ['    return itertools.islice(itertools.chain.from_iterable(per_shard), limit)'];
  const lines = [
    `def ${readerName(plan)}(`,
    ...head,
    ...wrapWords(`${receiver}.query of ${value} over its ${count} write shards.`, width, '    """', '    '),
    '',
    "    Each shard's result iterator reads all its pages; the shards are merged",
    plan.range ? `    by ${plan.range}, as one query orders its items, and cut at limit.` : '    and cut at limit.',
    '    """',
    '    per_shard = [',
    '        list(',
    `            ${receiver}.query(`,
    `                f"{${value}}${sep}{shard}",`,
    '                range_key_condition=range_key_condition,',
    '                filter_condition=filter_condition,',
    '                scan_index_forward=scan_index_forward,',
    '                limit=limit,',
    '                **kwargs,',
    '            )',
    '        )',
    `        for shard in range(${count})`,
    '    ]',
    ...order,
  ];
  return fitPythonBlock(lines.join('\n'), width);
}

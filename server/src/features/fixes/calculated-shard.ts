import type { Node } from 'web-tree-sitter';
import type { Access } from '../../engine/model';
import { spanOf } from '../../engine/span';
import { classifyName } from '../../engine/names';
import { classifyTemplate } from '../../engine/template';
import type { FixAction, FixAnswers, FixContext, FixProvider } from './fix-model';
import { definesHashHelper, hashHelperSource, hashShardExpression } from './hash-helper';
import { headerChanges } from './header';
import { keyChange } from './key-edit';
import { planShardCount } from './shard-count';
import { siblingAttributes, withTree, type ItemAttribute } from './syntax';
import { countQuestion, suffixDescriptor } from './write-shard';

/**
 * The attributes a calculated shard can hash: those written beside the key in the same
 * item whose value is a plain read (hashing it again gives the same value) and that
 * are high-cardinality — the sort key when it is an entity id, or a name that says
 * id (`playerId`, `user_id`, `email`). The sort key comes first.
 */
export function hashCandidates(ctx: FixContext, a: Access): ItemAttribute[] {
  const text = ctx.textOf(a.file);
  if (!text || !a.partitionKey) return [];
  const found = a.through
    ? passedAttributes(a, text)
    : (withTree(a.file, text, (tree, language) => siblingAttributes(tree, language, a.partitionKey!.use)) ?? []);
  const sk = a.sortKey;
  const high = (x: ItemAttribute) =>
    (sk?.attribute === x.name && classifyTemplate(sk.template) === 'high-cardinality') ||
    classifyName(x.name)?.kind === 'entity-id' ||
    classifyName(x.expression.split('.').pop() ?? '')?.kind === 'entity-id';
  const out = found.filter(high);
  return out.sort((x, y) => Number(y.name === sk?.attribute) - Number(x.name === sk?.attribute));
}

/**
 * At a wrapper's caller the item is built in the wrapper: the arguments the caller
 * passes as plain reads of an id (`messageId`, `input.user.id`) can be hashed there.
 */
function passedAttributes(a: Access, text: string): ItemAttribute[] {
  return (
    withTree(a.file, text, (tree) => {
      const at = { row: a.span.startLine, column: a.span.startColumn };
      let call: Node | null = tree.rootNode.descendantForPosition(at);
      while (call && call.type !== 'call_expression' && call.type !== 'call') call = call.parent;
      const args = call?.childForFieldName('arguments')?.namedChildren ?? [];
      return args.flatMap((arg): ItemAttribute[] => {
        if (!arg || !/^(identifier|member_expression|attribute)$/.test(arg.type)) return [];
        const last = arg.text.split('.').pop() ?? '';
        return classifyName(last)?.kind === 'entity-id'
          ? [{ name: last, expression: arg.text, span: spanOf(arg) }]
          : [];
      });
    }) ?? []
  );
}

/**
 * Fix 2: a calculated shard suffix — hash(attribute) mod N. The writes spread like a
 * random suffix's, but one item's shard can be computed again from the attribute, so
 * a single item can still be read directly. The suffix is written at the use site,
 * where the item's other attributes are in scope.
 */
export const calculatedWriteShard: FixProvider = (finding, ctx, answers?: FixAnswers): FixAction[] => {
  const d = suffixDescriptor(finding);
  if (!d) return [];
  const a = finding.access;
  const text = ctx.textOf(a.file);
  const options = hashCandidates(ctx, a);
  if (text === null || options.length === 0) return [];
  const chosen = options.find((o) => o.name === answers?.hashAttribute) ?? options[0];
  const count = planShardCount(a, d.shardCount, ctx, answers);
  const shard = hashShardExpression(a.language, chosen.expression, count.name);
  const key = keyChange(ctx, a.language, { file: a.file, span: a.partitionKey!.span }, d.at, d.separator, shard);
  if (!key) return [];
  const helper = definesHashHelper(a.language, text) ? [] : [hashHelperSource(a.language)];
  const header = headerChanges(a.file, text, ctx.analysisOf(a.file)?.imports ?? [], count, { blocks: helper });
  return [
    {
      title: `Add a calculated shard suffix: hash(${chosen.name}) mod ${count.value}`,
      id: 'add-hash-shard',
      rule: finding.rule,
      safe: false,
      asks: [{ kind: 'hash-attribute', options: options.map((o) => o.name) }, ...countQuestion(count, ctx)],
      changes: [...header, key],
    },
  ];
};

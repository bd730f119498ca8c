import type { Node, Tree } from 'web-tree-sitter';
import { type Access, sameSpan, type Span, spanOf } from '../../../../engine';
import type { FixContext, TextChange } from '../../fix-model';
import { where, type Blocked } from '../../key-sites';
import { nodeAt, withTree } from '../../syntax';
import { accessAt } from '../../whole-key';
import type { ModelKeyPlan } from './plan';
import { pure, snake } from './python';
import { fitPythonBlock } from '../../../generate/fit-lines-python';
import { wrapWords } from '../../../generate/wrap-words';

/**
 * How the caller's value and the shard combine. PynamoDB calls a `default=` with no
 * argument, so a default cannot see the value a call gives (`board="global"`) nor the item's
 * other attributes: a key the schema fixes (`default="FEED"`) gets a default that draws the
 * shard itself, and a key the calls give gets a key builder beside the model, called at every
 * access that gives the key: `board_score_board_key("global")` stores `global#3`.
 */
export type ShardKind = 'random' | 'hash';

/** `board_score_board_key`: the model's key builder for the hash key attribute. */
export const builderName = (plan: ModelKeyPlan) => `${snake(plan.model)}_${plan.hash}_key`;

/** The builder's definition, placed in the model's module. */
export function builderSource(
  plan: ModelKeyPlan,
  kind: ShardKind,
  shards: { count: string; sep: string },
  typed: boolean,
  width: number,
): string {
  const { count, sep } = shards;
  const value = plan.hash;
  const id = plan.range!;
  const [v, i, ret] = typed ? [`${value}: str`, `${id}: object`, ' -> str'] : [value, id, ''];
  const doc = (text: string) => wrapWords(text, width, '    """', '    ');
  const lines =
    kind === 'random'
      ? [
          `def ${builderName(plan)}(${v})${ret}:`,
          ...doc(`${plan.model}.${value} as stored: the value and a random write shard, one of ${count}."""`),
          `    return f"{${value}}${sep}{random.randrange(${count})}"`,
        ]
      : [
          `def ${builderName(plan)}(${v}, ${i})${ret}:`,
          ...doc(`${plan.model}.${value} as stored: the value and the write shard of the item's ${id}.`),
          '',
          ...wrapWords(
            `The shard is FNV-1a of the ${id}'s text modulo ${count}, so a get, update or delete of one ${id} computes the shard its save wrote.`,
            width,
            '    ',
          ),
          '    """',
          `    return f"{${value}}${sep}{shardlens_hash(str(${id})) % ${count}}"`,
        ];
  return fitPythonBlock(lines.join('\n'), width);
}

/** Whether the module already defines the builder (another fix of the key wrote it). */
export const definesBuilder = (plan: ModelKeyPlan, text: string) =>
  new RegExp(`^def\\s+${builderName(plan)}\\s*\\(`, 'm').test(text);

/**
 * The value a call gives, wrapped in the builder (`"global"` → `board_score_board_key("global",
 * event["player"])`); a calculated shard hashes the range key the same call gives, read again as
 * written there. Two accesses of one instance (a get, then its update) share one edit.
 */
export function keyChanges(ctx: FixContext, plan: ModelKeyPlan, kind: ShardKind): TextChange[] | Blocked {
  const out: TextChange[] = [];
  for (const a of plan.given) {
    const text = ctx.textOf(a.file) ?? '';
    const edit = withTree(a.file, text, (tree): TextChange | Blocked => {
      const value = exactly(tree, a.partitionKey!.span);
      if (!value) return { blocked: `the key at ${where(ctx, a.file, a.partitionKey!.span)} cannot be edited` };
      let args = value.text;
      if (kind === 'hash') {
        const sk = a.sortKey;
        const id = sk && sk.via.length <= 1 ? exactly(tree, sk.span) : null;
        if (!id || !pure(id))
          return {
            blocked: `the ${accessAt(ctx, a)} gives no ${plan.range ?? 'range key'} that can be read again to compute the shard`,
          };
        args += `, ${id.text}`;
      }
      return { file: a.file, span: spanOf(value), newText: `${builderName(plan)}(${args})` };
    });
    if (!edit) return { blocked: `${a.file} cannot be parsed` };
    if ('blocked' in edit) return edit;
    out.push(edit);
  }
  return out;
}

export function exactly(tree: Tree, span: Span): Node | null {
  const n = nodeAt(tree, span);
  return n && sameSpan(spanOf(n), span) ? n : null;
}

/**
 * The key attribute's constant `default=` made a callable that draws the shard:
 * `default="FEED"` → `default=lambda: f"FEED#{random.randrange(FEED_ENTRY_FEED_SHARDS)}"`. PynamoDB
 * calls it for each new item, so every save that leaves the key out gets its own shard.
 */
export function defaultChange(ctx: FixContext, schema: Access, count: string, sep: string): TextChange | Blocked {
  // The attribute's declaration: the site is the model's class name where it inherits the attribute.
  const { file, span } = schema.library!.declaration;
  const text = ctx.textOf(file) ?? '';
  const found = withTree(file, text, (tree): TextChange | Blocked => {
    const decl = nodeAt(tree, span);
    const arg = decl
      ?.descendantsOfType('keyword_argument')
      .find((k) => /^default(_for_new)?$/.test(k?.childForFieldName('name')?.text ?? ''));
    const value = arg?.childForFieldName('value');
    const shard = `random.randrange(${count})`;
    const literal = value ? plainString(value) : null;
    const body =
      literal !== null
        ? `f${literal.quote}${literal.content.replace(/[{}]/g, (b) => b + b)}${sep}{${shard}}${literal.quote}`
        : value && /^(identifier|attribute)$/.test(value.type)
          ? `f"{${value.text}}${sep}{${shard}}"`
          : null;
    if (!value || !body) return { blocked: `the default at ${where(ctx, file, span)} is not a string or a name` };
    return { file, span: spanOf(value), newText: `lambda: ${body}` };
  });
  return found ?? { blocked: `${file} cannot be parsed` };
}

/** A string literal with no prefix and no escapes: its quote and content. */
function plainString(n: Node): { quote: string; content: string } | null {
  if (n.type !== 'string') return null;
  const quote = n.text[0];
  if ((quote !== '"' && quote !== "'") || n.text.startsWith(quote.repeat(3)) || n.text.includes('\\')) return null;
  return { quote, content: n.text.slice(1, -1) };
}

import type { Node } from 'web-tree-sitter';
import {
  type Access,
  classifyName,
  classifyTemplate,
  type Finding,
  type TemplatePart,
  languageForFile,
  type ShardSuffix,
  spanOf,
} from '../../engine';
import { type FixAction, type FixAnswers, type FixContext, type FixProvider, type TextChange } from './fix-model';
import { definesHashHelper, hashHelperSource, hashShardExpression } from './hash-helper';
import { tableKeyAttributes, writesIndexKey } from './index-key-ids';
import { keyChanges } from './key-edit';
import { where, type Blocked, type KeySite } from './key-sites';
import { planShardCount } from './shard-count';
import { nodeAt, sameSpan, withTree, within, type ItemAttribute } from './syntax';
import { countQuestion, shardFix, wholeKeyEdit, wholeKeyPlan } from './shard-fix';
import { accessAt, isBlocked } from './whole-key';

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

/** A value read again gives the same value: names, property and index reads (`s["id"]`), strings and templates of them. */
const PURE_TYPES = new Set([
  'identifier',
  'member_expression',
  'subscript_expression',
  'subscript',
  'property_identifier',
  'shorthand_property_identifier',
  'this',
  'attribute',
  'string',
  'string_fragment',
  'string_content',
  'string_start',
  'string_end',
  'escape_sequence',
  'template_string',
  'template_substitution',
  'interpolation',
  'binary_expression',
  'binary_operator',
  'parenthesized_expression',
  'concatenated_string',
]);

function pure(n: Node): boolean {
  if (!PURE_TYPES.has(n.type)) return false;
  if ((n.type === 'binary_expression' || n.type === 'binary_operator') && n.childForFieldName('operator')?.text !== '+')
    return false;
  return n.namedChildren.every((c) => !c || pure(c));
}

/** Hole kinds a key helper builds from its arguments alone: calling it again gives the same text. */
const REPEATABLE = new Set(['constant', 'entity-id', 'low-cardinality']);

/**
 * A key helper's call (`player_sk(player_id)`, `keys.order(o.id)`) read again gives the same
 * value when its arguments are plain reads and the engine read it to literals and those
 * arguments only: no clock, random, counter or unknown part (`sk: newId()` would hash
 * another id than the one stored).
 */
function repeatableCall(n: Node, template: { parts: TemplatePart[] }): boolean {
  if (n.type !== 'call_expression' && n.type !== 'call') return false;
  const callee = n.childForFieldName('function');
  if (!callee || !/^(identifier|member_expression|attribute)$/.test(callee.type)) return false;
  const args = n.childForFieldName('arguments')?.namedChildren ?? [];
  if (!args.every((x) => !!x && pure(x))) return false;
  return template.parts.every(
    (p) => 'literal' in p || REPEATABLE.has(p.hole.kind) || (p.hole.kind === 'time' && !!p.hole.input),
  );
}

/**
 * The sort key's own value at an access (`TICKET#${ticketId}`, `f"VISIT#{visit_id}"`),
 * when reading it again gives the same value: it names the item at every access, so
 * hashing it puts a put, a get and an update of one item on one shard.
 */
function sortKeyAttribute(ctx: FixContext, a: Access): ItemAttribute | null {
  const sk = a.sortKey;
  const text = ctx.textOf(a.file);
  if (!sk || text === null || classifyTemplate(sk.template) === 'constant') return null;
  // Only an expression of the call itself: a value the engine followed into a helper
  // (`sk: orderKey(o)` → `${order.placedAt}#...`) names that helper's variables.
  if (!within(sk.span, a.span)) return null;
  return (
    withTree(a.file, text, (tree) => {
      const n = nodeAt(tree, sk.span);
      if (!n || !sameSpan(spanOf(n), sk.span) || !(pure(n) || repeatableCall(n, sk.template))) return null;
      return { name: sk.attribute, expression: n.text, span: sk.span };
    }) ?? null
  );
}

/** Whether an attribute names one item: the sort key (not a constant), or an id; never a table or a constant. */
function identifies(x: ItemAttribute, a: Access): boolean {
  const last = x.expression.split('.').pop() ?? '';
  if (/table/i.test(x.name) || /table/i.test(last) || /^[A-Z][A-Z0-9_]*$/.test(last)) return false;
  const sk = a.sortKey;
  return (
    (sk?.attribute === x.name && classifyTemplate(sk.template) !== 'constant') ||
    classifyName(x.name)?.kind === 'entity-id' ||
    classifyName(last)?.kind === 'entity-id'
  );
}

/**
 * The attributes one site can hash, the sort key first. A write of an index's key also
 * offers the table's key it finds its item by (`tableKeys`: named in some update's `Key`,
 * so a put's attribute of that name is the same identity).
 */
function siteCandidates(ctx: FixContext, site: KeySite, tableKeys: Set<string>): ItemAttribute[] {
  const a = site.access;
  const text = ctx.textOf(a.file) ?? '';
  const found = a.through ? passedAttributes(a, text) : [...site.siblings];
  if (!site.mapper) {
    const sk = sortKeyAttribute(ctx, a);
    if (sk && !found.some((x) => x.name === sk.name)) found.push(sk);
  }
  const out = found.filter((x) => identifies(x, a) || (writesIndexKey(a) && tableKeys.has(x.name)));
  for (const k of tableKeyAttributes(ctx, a)) if (!out.some((x) => x.name === k.name)) out.push(k);
  const sk = a.sortKey?.attribute;
  return out.sort((x, y) => Number(y.name === sk) - Number(x.name === sk));
}

/**
 * Fix 2: a calculated shard suffix — hash(attribute) mod N. The writes spread like a
 * random suffix's, and one item's shard can be computed again from the attribute that
 * identifies it, so every access of the key is rewritten in one edit: each put, get,
 * update and delete computes the same shard from the same attribute (the sort key, or
 * an id present at every access), and each Query becomes a read of every shard.
 */
export const calculatedWriteShard: FixProvider = (finding, ctx, answers?: FixAnswers): FixAction[] => {
  const r = calculatedShardFix(finding, ctx, answers);
  return r && !isBlocked(r) ? [r] : [];
};

export function calculatedShardFix(
  finding: Finding,
  ctx: FixContext,
  answers?: FixAnswers,
): FixAction | Blocked | null {
  return shardFix('hash', finding, ctx, answers, hashFix);
}

function hashFix(finding: Finding, d: ShardSuffix, ctx: FixContext, answers?: FixAnswers): FixAction | Blocked | null {
  const plan = wholeKeyPlan(finding, ctx);
  if (isBlocked(plan)) return plan;
  const a = finding.access;
  const sites = [...plan.writers, ...plan.points];
  const own = sites.find((s) => s.access === a) ?? sites[0];
  if (!own) return null;
  const tableKeys = new Set(sites.flatMap((s) => tableKeyAttributes(ctx, s.access).map((x) => x.name)));
  const perSite = new Map(sites.map((s) => [s, siteCandidates(ctx, s, tableKeys)] as const));
  const options = perSite.get(own)!.filter((o) => sites.every((s) => perSite.get(s)!.some((x) => x.name === o.name)));
  if (options.length === 0) {
    const lacking = sites.find((s) => perSite.get(s)!.length === 0) ?? own;
    return {
      blocked: `no attribute that identifies the item (a sort key or an id) is at every access of the key (${accessAt(ctx, lacking.access)})`,
    };
  }
  const chosen = options.find((o) => o.name === answers?.hashAttribute) ?? options[0];
  const home = { ...a, file: own.target.file };
  const files = [...new Set([...sites.map((s) => s.target.file), ...plan.queries.map((q) => q.file)])];
  const count0 = planShardCount(home, d.shardCount, ctx, answers);
  const keys: TextChange[] = [];
  const taken = new Set<string>();
  for (const s of sites) {
    const expression = perSite.get(s)!.find((x) => x.name === chosen.name)!.expression;
    const language = languageForFile(s.target.file) ?? s.access.language;
    const shard = hashShardExpression(language, expression, count0.name);
    const at = s.at && s.at.file === s.target.file ? s.at : null;
    const key = keyChanges(ctx, language, s.target, at, d.separator, shard, taken);
    if (!key) return { blocked: `the key at ${where(ctx, s.target.file, s.target.span)} cannot be edited` };
    keys.push(...key);
  }
  const hashing = new Set(sites.map((s) => s.target.file));
  const edit = wholeKeyEdit({ plan, d, home, files, keys }, 'hash', ctx, answers, (file) => {
    const language = languageForFile(file);
    const text = ctx.textOf(file) ?? '';
    const helper =
      language && hashing.has(file) && !definesHashHelper(language, text) ? [hashHelperSource(language)] : [];
    return { blocks: helper };
  });
  if (isBlocked(edit)) return edit;
  const { changes, count } = edit;
  const others = sites.length - 1 + plan.queries.length;
  return {
    title: `Add a calculated shard suffix: hash(${chosen.name}) mod ${count.value}${others ? ` (and ${others} other access${others > 1 ? 'es' : ''} of the key)` : ''}`,
    id: 'add-hash-shard',
    rule: finding.rule,
    safe: false,
    // A name read only at wrappers' callers (`messageId`) is a variable there, not known to be stored.
    shard: {
      method: 'hash',
      count: count.value,
      countName: count.name,
      hashAttribute: sites.some((s) => !s.access.through) ? chosen.name : null,
    },
    asks: [{ kind: 'hash-attribute', options: options.map((o) => o.name) }, ...countQuestion(count, ctx)],
    changes,
  };
}

import type { Node } from 'web-tree-sitter';
import {
  type Access,
  type Finding,
  type LogicalKey,
  logicalKeyOf,
  type ShardSuffix,
  type Span,
  shardSetOf,
  spanOf,
} from '../../../../engine';
import { memoized, type FixContext } from '../../fix-model';
import { where, type Blocked } from '../../key-sites';
import { isBlocked } from '../../whole-key';
import { argsOf, topStatement, withCall } from '../call-syntax';
import { entityAt, type EntitySyntax } from './entity-syntax';

/**
 * A TypeDORM shard fix is a refactor of the entity's key, like the SDK fixes (docs/fixes.md):
 * the key is written once, in the `@Entity` template, and TypeDORM fills it from the item on
 * every create, so creates need no edit. A `findOne`, `exists`, `update` or `delete` builds the
 * key from the attributes it is given alone (defaults run on create only), so each one is
 * given the shard; every `find` of the key becomes a reader of every shard. The plan gathers
 * what the edit needs and says what blocks it, and where.
 */
export interface EntityPlan {
  finding: Finding;
  d: ShardSuffix;
  entity: EntitySyntax;
  /** `primary`, or the index whose partition key is sharded. */
  key: string;
  finds: Find[];
  points: Point[];
}

/** A `findOne`, `exists`, `update` or `delete` of the key: its key object gains the shard. */
export interface Point {
  access: Access;
  /** The key object's properties: name → the expression given (the name itself when shorthand). */
  given: Map<string, string>;
  /** Where `, shard: ...` goes: right after the last property. */
  after: Span;
  /** An update's body names these attributes. */
  body: Set<string>;
}

/** A `find` of the key: `manager.find(Score, ` becomes `findScoreShards(manager, `. */
export interface Find {
  access: Access;
  /** From the callee to the partition attributes: the span the reader's call replaces. */
  head: Span;
  receiver: string;
  /** The entity class as the file names it. */
  entity: string;
  /** The top-level statement holding the call: the reader goes after it. */
  statement: Span;
}

export const SHARD = 'shard';
/** The find options the reader passes to each shard's find; any other one changes what a find returns. */
const PASSED = new Set(['queryIndex', 'keyCondition', 'limit', 'orderBy', 'where', 'consistentRead']);
const POINTS = new Set(['findOne', 'exists', 'update', 'delete']);

export function planEntity(finding: Finding, d: ShardSuffix, ctx: FixContext): EntityPlan | Blocked {
  return memoized(ctx, finding.access, `typedorm-plan:${JSON.stringify(d)}`, () => plan(finding, d, ctx));
}

function plan(finding: Finding, d: ShardSuffix, ctx: FixContext): EntityPlan | Blocked {
  const lib = finding.access.library!;
  const key = logicalKeyOf(finding.access);
  const entity = entityAt(ctx, lib.declaration);
  if (!key || !entity) return { blocked: `the key of ${lib.entity} is not a partitionKey template in its @Entity` };
  if (entity.fields.includes(SHARD) || /\{\{\s*shard\s*\}\}/.test(entity.partition.text))
    return { blocked: `${entity.className} already has an attribute named ${SHARD}` };
  const out: EntityPlan = { finding, d, entity, key: lib.accessPattern, finds: [], points: [] };
  for (const a of templateAccesses(finding.access, key, ctx)) {
    const at = `the ${a.call.callee || a.operation} at ${where(ctx, a.file, a.span)}`;
    if (
      a.library?.library !== 'typedorm' ||
      a.library.entity !== lib.entity ||
      a.library.accessPattern !== lib.accessPattern
    )
      return { blocked: `${at} addresses the key outside the ${lib.entity} entity` };
    if (a.partitionKey && shardSetOf(a.partitionKey.template)) continue;
    if (a.library.schema || a.call.callee === 'create') continue; // the default fills the shard of a create
    if (a.call.callee === 'find') {
      const f = findOf(ctx, a, at);
      if (isBlocked(f)) return f;
      out.finds.push(f);
    } else if (a.operation === 'PutItem' && a.index)
      return { blocked: `${at} rewrites the ${a.index} key from its body, which does not hold the item's shard` };
    else if (POINTS.has(a.call.callee)) {
      const p = pointOf(ctx, a, at);
      if (isBlocked(p)) return p;
      out.points.push(p);
    } else return { blocked: `${at} reads the key in a way the fix cannot spread over the shards` };
  }
  return out;
}

/**
 * Every access of the template, not only of the finding's value of it: the edit changes the
 * key of every item of the entity (`STATUS#ACTIVE` as well as `STATUS#INVITED`).
 */
function templateAccesses(access: Access, key: LogicalKey, ctx: FixContext): Access[] {
  const lib = access.library!;
  const all = ctx.accessesOf(key);
  const files = ctx.files?.() ?? [...new Set(all.map((a) => a.file))];
  for (const file of files)
    for (const a of ctx.analysisOf(file)?.accesses ?? [])
      if (
        a.library?.library === 'typedorm' &&
        a.library.entity === lib.entity &&
        a.library.accessPattern === lib.accessPattern &&
        a.library.declaration.file === lib.declaration.file
      )
        all.push(a);
  all.push(access);
  return [...new Map(all.map((a) => [`${a.file}:${JSON.stringify(a.span)}:${a.operation}:${a.index}`, a])).values()];
}

function pointOf(ctx: FixContext, a: Access, at: string): Point | Blocked {
  const found = withCall(ctx, a, (call): Point | Blocked => {
    const [, keyArg, body] = argsOf(call);
    if (keyArg?.type !== 'object') return { blocked: `${at} is given its key built elsewhere` };
    const given = new Map<string, string>();
    for (const c of keyArg.namedChildren) {
      if (c?.type === 'shorthand_property_identifier') given.set(c.text, c.text);
      else if (c?.type === 'pair') given.set(nameOf(c), c.childForFieldName('value')?.text ?? '');
      else if (c && c.type !== 'comment') return { blocked: `${at} spreads its key from elsewhere` };
    }
    const last = keyArg.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment').pop();
    if (!last) return { blocked: `${at} gives an empty key` };
    const names =
      body?.type === 'object' ? body.namedChildren.flatMap((c) => (c?.type === 'pair' ? [nameOf(c)] : [])) : [];
    return { access: a, given, after: spanOf(last), body: new Set(names) };
  });
  return found ?? { blocked: `${at} is not found in its file` };
}

const nameOf = (pair: Node) => pair.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') ?? '';

/** A find the reader can replace: `manager.find(Entity, attributes, { ...options it passes })`. */
function findOf(ctx: FixContext, a: Access, at: string): Find | Blocked {
  const found = withCall(ctx, a, (call): Find | Blocked => {
    const fn = call.childForFieldName('function');
    const object = fn?.childForFieldName('object');
    const [entity, attributes, options, more] = argsOf(call);
    if (fn?.type !== 'member_expression' || !object || entity?.type !== 'identifier' || !attributes)
      return { blocked: `${at} is not written as manager.find(Entity, attributes, options)` };
    if (more) return { blocked: `${at} is given metadata options, which the reader does not pass on` };
    if (options && options.type !== 'object') return { blocked: `${at} is given its options built elsewhere` };
    for (const c of options?.namedChildren ?? []) {
      if (c?.type === 'comment') continue;
      const name = c?.type === 'pair' ? nameOf(c) : '...';
      if (!PASSED.has(name))
        return { blocked: `${at} pages or shapes its result (${name}), which a read of every shard cannot keep` };
    }
    const head = spanOf(fn);
    const start = spanOf(attributes);
    return {
      access: a,
      head: {
        startLine: head.startLine,
        startColumn: head.startColumn,
        endLine: start.startLine,
        endColumn: start.startColumn,
      },
      receiver: object.text,
      entity: entity.text,
      statement: spanOf(topStatement(call)),
    };
  });
  return found ?? { blocked: `${at} is not found in its file` };
}

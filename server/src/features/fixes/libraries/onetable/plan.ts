import {
  type Access,
  type Finding,
  logicalKeyOf,
  type ShardSuffix,
  type Span,
  shardSetOf,
  spanOf,
} from '../../../../engine';
import { memoized, type FixContext } from '../../fix-model';
import { isPointAccess, where, type Blocked } from '../../key-sites';
import { argsOf, topStatement, withCall } from '../call-syntax';
import { isBlocked } from '../../whole-key';
import { modelObject, objectAt, stringText, type ObjectSyntax, type PairSyntax } from './schema-syntax';

/**
 * A OneTable shard fix is a refactor of the model's key, like the SDK fixes (docs/fixes.md):
 * the key is written once, in the schema's value template, so the creates, gets, updates and
 * removes of the model fill the new template themselves and need no edit; every find of the
 * key is replaced by a reader of every shard. The plan gathers what the edit needs and says
 * what blocks it, and where.
 */
export interface ModelPlan {
  finding: Finding;
  d: ShardSuffix;
  model: string;
  fields: ObjectSyntax;
  table: ObjectSyntax;
  /** The key's field (`pk: { type: String, value: 'board#${board}' }`) and its value template. */
  key: PairSyntax;
  template: { text: string; span: Span };
  /** The finds of the key: each becomes a call of the reader. */
  finds: Find[];
  /** Gets, updates, upserts and removes: one item by its key (a random shard would lose it). */
  points: Access[];
  /** Creates and point accesses, each with the properties it gives (null when a spread may hide some). */
  given: Array<{ access: Access; names: Set<string> | null; constants: Set<string> }>;
}

/** A find call and what its replacement needs. */
export interface Find {
  access: Access;
  /** `Score.find`: the callee the reader's name replaces; `Score` the model's name in that file. */
  callee: Span;
  receiver: string;
  /** The top-level statement holding the call: the reader goes after it. */
  statement: Span;
}

const SHARD_FIELD = 'shard';
/** The find options the reader passes through; any other one changes what a find returns. */
const PASSED = new Set(['index', 'reverse', 'limit', 'where', 'substitutions', 'consistent', 'log', 'follow']);

export function planModel(finding: Finding, d: ShardSuffix, ctx: FixContext): ModelPlan | Blocked {
  return memoized(ctx, finding.access, `onetable-plan:${JSON.stringify(d)}`, () => plan(finding, d, ctx));
}

function plan(finding: Finding, d: ShardSuffix, ctx: FixContext): ModelPlan | Blocked {
  const lib = finding.access.library!;
  const model = lib.entity;
  if (lib.accessPattern !== 'primary')
    return {
      blocked: `the key is the partition key of index ${lib.accessPattern}, which only the table's key fix covers`,
    };
  const key = logicalKeyOf(finding.access);
  if (!key || !lib.modelAt || !lib.tableAt) return { blocked: 'the model is not known' };
  const fields = modelObject(ctx, lib.modelAt.file, model);
  const table = objectAt(ctx, lib.tableAt);
  if (!fields || !table) return { blocked: `the ${model} model is not written as an object literal` };
  const attribute = finding.access.partitionKey?.attribute;
  const keyPair = fields.pairs.find((p) => (stringText(p.props.get('map') ?? NONE) ?? p.name) === attribute);
  const valueProp = keyPair?.props.get('value');
  const template = valueProp ? stringText(valueProp) : null;
  if (!keyPair || !valueProp || template === null)
    return { blocked: `the key of ${model} is not a value template in the schema` };
  if (fields.open) return { blocked: `the ${model} model's fields are not all written in its schema` };
  if (fields.pairs.some((p) => p.name === SHARD_FIELD))
    return { blocked: `the ${model} model already has a field named ${SHARD_FIELD}` };
  const all = [...ctx.accessesOf(key)];
  const known = (a: Access) =>
    all.some((b) => b.file === a.file && sameSpan(b.span, a.span) && b.operation === a.operation);
  if (!known(finding.access)) all.push(finding.access);
  // The schema is shared by every Table built from it, and those may name other tables (an
  // environment variable here, a literal in a seed script): the edit reaches the model's
  // calls through all of them, whatever key the analysis gives each.
  for (const a of modelAccesses(ctx, model, fields.file, all)) if (!known(a)) all.push(a);
  const out: ModelPlan = {
    finding,
    d,
    model,
    fields,
    table,
    key: keyPair,
    template: { text: template, span: valueProp.span },
    finds: [],
    points: [],
    given: [],
  };
  for (const a of all) {
    const at = `the ${a.operation} at ${where(ctx, a.file, a.span)}`;
    if (a.library?.library !== 'dynamodb-onetable' || a.library.entity !== model)
      return { blocked: `${at} addresses the key outside the ${model} model` };
    if (a.partitionKey && shardSetOf(a.partitionKey.template)) continue;
    if (a.library.schema) continue; // the model's creates, read at its schema
    // A call that gives the key's field itself is not filled from the template: it would
    // keep writing or reading the unsharded key.
    if (givenAt(ctx, a).names?.has(keyPair.name))
      return { blocked: `${at} gives ${keyPair.name} itself, so the template's shard would not reach it` };
    if (a.operation === 'Query') {
      const f = findOf(ctx, a, at);
      if (isBlocked(f)) return f;
      out.finds.push(f);
      continue;
    }
    if (isPointAccess(a)) out.points.push(a);
    out.given.push({ access: a, ...givenAt(ctx, a) });
  }
  return out;
}

const NONE = { text: '', type: '' };

const sameSpan = (x: Span, y: Span) =>
  x.startLine === y.startLine &&
  x.startColumn === y.startColumn &&
  x.endLine === y.endLine &&
  x.endColumn === y.endColumn;

/** The calls of `model` on its primary key through any Table built from the schema in `schemaFile`. */
function modelAccesses(ctx: FixContext, model: string, schemaFile: string, seen: Access[]): Access[] {
  const files = ctx.files?.() ?? [...new Set(seen.map((a) => a.file))];
  return files.flatMap((file) =>
    (ctx.analysisOf(file)?.accesses ?? []).filter(
      (a) =>
        a.library?.library === 'dynamodb-onetable' &&
        a.library.entity === model &&
        a.library.accessPattern === 'primary' &&
        a.library.modelAt?.file === schemaFile,
    ),
  );
}

/** The properties a create or point access gives by name, and those it gives as constants. */
function givenAt(ctx: FixContext, a: Access): { names: Set<string> | null; constants: Set<string> } {
  const none = { names: null, constants: new Set<string>() };
  return (
    withCall(ctx, a, (call) => {
      const props = argsOf(call).find((x) => x.type === 'object');
      if (!props) return none;
      const names = new Set<string>();
      const constants = new Set<string>();
      for (const c of props.namedChildren) {
        if (c?.type === 'shorthand_property_identifier') names.add(c.text);
        else if (c?.type === 'pair') {
          const k = c.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') ?? '';
          const v = c.childForFieldName('value');
          names.add(k);
          if (v && /^(string|number|true|false|template_string)$/.test(v.type) && !v.text.includes('${'))
            constants.add(k);
        } else if (c && c.type !== 'comment') return none;
      }
      return { names, constants };
    }) ?? none
  );
}

/** A find the reader can replace: `Model.find(properties, { ...options it passes })`. */
function findOf(ctx: FixContext, a: Access, at: string): Find | Blocked {
  const found = withCall(ctx, a, (call): Find | Blocked => {
    const fn = call.childForFieldName('function');
    const object = fn?.childForFieldName('object');
    if (fn?.type !== 'member_expression' || object?.type !== 'identifier')
      return { blocked: `${at} names its model through the table, not a model of its own` };
    const [props, params] = argsOf(call);
    if (props && props.type !== 'object') return { blocked: `${at} is given its properties built elsewhere` };
    if (params) {
      if (params.type !== 'object') return { blocked: `${at} is given its options built elsewhere` };
      const names = params.namedChildren.flatMap((c) =>
        c?.type === 'pair' ? [c.childForFieldName('key')?.text ?? ''] : c?.type === 'comment' ? [] : ['...'],
      );
      const other = names.find((n) => !PASSED.has(n));
      if (other)
        return { blocked: `${at} pages or shapes its result (${other}), which a read of every shard cannot keep` };
      if (names.includes('limit') && names.includes('where'))
        return {
          blocked: `${at} counts its limit before the where filter, so each shard's first items are not the key's`,
        };
    }
    return { access: a, callee: spanOf(fn), receiver: object.text, statement: spanOf(topStatement(call)) };
  });
  return found ?? { blocked: `${at} is not found in its file` };
}

import type { Node } from 'web-tree-sitter';
import { callersOrOwn, chooseArms, throughName, valueOfAlternatives } from '../alternatives';
import {
  parameterProperty,
  declarationOf,
  deeper,
  holeValue,
  importedValue,
  limitValue,
  loopElementValue,
  namedValue,
  numberOf,
  onceUnless,
  recordNode,
  scalar,
  soleHole,
  unknownValue,
  envReadNamedBy,
} from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import { concat, literal, literalText } from '../../model/template';
import { assignedValue, enumMember, memberOf, operate, pageOfList, type Assigning } from '../value-ops';
import type { Entry, Value } from '../../model/value';
import { classValue } from './classes';
import { constructionValue, declaredClassValue, recordedReference } from './constructions';
import { callValue } from './library';
import { loopValue, ownParameterValue, paramValue } from './loops';
import { withMutations } from './mutations';
import type { Binding } from './bindings';
import { reachingBindings } from './reaching-bindings';
import { withoutExcluded } from '../literal-guards';
import { PYTHON_LITERAL_GUARDS } from './literal-guards';
import { attributeValueNode } from './class-members';
import { isAttributeValueTag } from '../names';
import { resolve } from './scope';
import { percentFormat, stringTemplate, stringValue } from './strings';

/**
 * Evaluates a Python expression into a Value: dicts into objects, lists and tuples
 * into arrays, strings, f-strings and `%`/`.format` formatting into key templates
 * whose holes say where each part comes from. Names are followed to their
 * bindings in the file; every step goes through `deeper` so evaluation stays finite.
 */
export function evaluate(n: Node | null, ctx: EvalContext): Value | null {
  if (!n) return null;
  // `self.table` is bound by assignments elsewhere in the class: an edit naming it must re-evaluate.
  recordNode(
    ctx,
    n,
    n.type === 'identifier' ? n.text : n.type === 'attribute' ? n.childForFieldName('attribute')?.text : undefined,
  );
  const next = deeper(ctx);
  if (!next) return limitValue(n, ctx);
  return evaluateNode(n, next);
}

function evaluateNode(n: Node, ctx: EvalContext): Value {
  switch (n.type) {
    case 'parenthesized_expression':
    case 'await':
      return evaluate(n.namedChild(0), ctx) ?? unknownValue(n);
    case 'string':
      return stringValue(n, ctx);
    case 'concatenated_string':
      return scalar(
        n,
        concat(...n.namedChildren.map((c) => (c?.type === 'string' ? stringTemplate(c, ctx) : literal('')))),
      );
    case 'integer':
    case 'float':
      return scalar(n, literal(n.text.replace(/_/g, '')));
    case 'true':
    case 'false':
    case 'none':
      return scalar(n, literal(n.text));
    case 'unary_operator':
      return /^-\s*\d/.test(n.text) && numberOf(evaluate(n.namedChild(0), ctx)) !== null
        ? scalar(n, literal(n.text.replace(/\s+|_/g, '')))
        : unknownValue(n);
    case 'dictionary':
      return dictValue(n, ctx);
    case 'class_definition':
      return declaredClassValue(n, ctx) ?? classValue(n, ctx);
    case 'list':
    case 'tuple':
    case 'set':
    case 'expression_list':
      return { kind: 'array', items: itemsOf(n, ctx), span: spanOf(n) };
    case 'list_comprehension':
    case 'generator_expression':
      // `[{"PutRequest": {"Item": {...}}} for s in scores]`: items shaped like its body.
      return { kind: 'array', items: [evaluate(n.childForFieldName('body'), ctx) ?? unknownValue(n)], span: spanOf(n) };
    case 'identifier':
      return identifierValue(n, ctx);
    case 'attribute':
      return attributeValue(n, ctx);
    case 'subscript':
      return subscriptValue(n, ctx);
    case 'binary_operator':
      return binaryValue(n, ctx);
    case 'conditional_expression':
      return chooseArms(n, [n.namedChild(0), n.namedChild(2)], (a) => evaluate(a, ctx));
    case 'boolean_operator':
      return chooseArms(n, [n.childForFieldName('left'), n.childForFieldName('right')], (a) => evaluate(a, ctx));
    case 'comparison_operator':
    case 'not_operator':
      return holeValue(n, { kind: 'low-cardinality' });
    case 'call':
      return constructionValue(n, ctx) ?? callValue(n, ctx);
    // A recorded class a module imports, as the module passes it on (`topLevelDeclarations`).
    case 'dotted_name':
    case 'aliased_import':
      return recordedReference(n) ?? unknownValue(n);
    case 'assignment':
      return evaluate(n.childForFieldName('right'), ctx) ?? unknownValue(n);
    case 'named_expression':
      return evaluate(n.childForFieldName('value'), ctx) ?? unknownValue(n);
    default:
      return unknownValue(n);
  }
}

function dictValue(n: Node, ctx: EvalContext): Value {
  const entries: Entry[] = [];
  let hidden: Value | undefined;
  for (const c of n.namedChildren) {
    if (c?.type === 'pair') {
      const k = c.childForFieldName('key');
      const v = c.childForFieldName('value');
      if (k && v) entries.push([keyName(k, ctx), evaluate(v, ctx) ?? unknownValue(v), spanOf(c)]);
    } else if (c?.type === 'dictionary_splat') {
      // `{**defaults, "pk": x}`: merge what we can see; later keys win.
      const v = evaluate(c.namedChild(0), ctx) ?? unknownValue(c);
      if (v.kind === 'object') {
        entries.push(...v.entries);
        if (v.hidden) hidden ??= v.hidden;
      } else if (v.kind !== 'scalar' || literalText(v.template) === null) hidden ??= v;
    }
  }
  return { kind: 'object', entries, span: spanOf(n), ...(hidden ? { hidden } : {}) };
}

/** A dict key's text; a key that is not a known string reads as `[expr]`. */
function keyName(k: Node, ctx: EvalContext): string {
  const v = evaluate(k, ctx);
  const text = v?.kind === 'scalar' ? literalText(v.template) : null;
  // A name read from somewhere (`TABLE` set from `os.environ["TABLE"]`) keeps where it came from.
  return text ?? `[${(v && soleHole(v)?.source) ?? k.text}]`;
}

function itemsOf(n: Node, ctx: EvalContext): Value[] {
  return n.namedChildren.flatMap((c) => {
    if (!c || c.type === 'comment') return [];
    if (c.type === 'list_splat') {
      const inner = evaluate(c.namedChild(0), ctx);
      return inner?.kind === 'array' ? inner.items : [];
    }
    return [evaluate(c, ctx) ?? unknownValue(c)];
  });
}

function identifierValue(n: Node, ctx: EvalContext): Value {
  return withoutExcluded(n, reachingValue(n, ctx), ctx, PYTHON_LITERAL_GUARDS);
}

/** What the assignments and bindings that may reach `n` make it. */
function reachingValue(n: Node, ctx: EvalContext): Value {
  const b = resolve(n, ctx);
  if (!b) return namedValue(n, n.text);
  // `if`/`else` (or `try`/`except`) assigning the name: each assignment is an alternative.
  const alternatives = b.kind === 'value' || b.kind === 'param' ? reachingBindings(n) : null;
  const chosen = alternatives
    ? valueOfAlternatives(n, alternatives, (a) =>
        a.kind === 'value' ? assignedValue(n, a.node, ctx, ASSIGNING) : bindingValue(n, a, ctx),
      )
    : null;
  if (chosen) return chosen;
  return bindingValue(n, b, ctx);
}

/** How this language's assignments reach a use (`assignedValue` in value-ops.ts). */
// Arrows, not the functions themselves: read when called, so an import cycle cannot leave one unset.
const ASSIGNING: Assigning = {
  evaluate: (n, ctx) => evaluate(n, ctx),
  withMutations: (value, name, assigned, use, ctx) => withMutations(value, name, assigned, use, ctx),
  inFunction: (n) => inFunction(n),
};

/** Whether `n` runs each time a function is called (else once: at module level or in a class body). */
function inFunction(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (p.type === 'function_definition' || p.type === 'lambda') return true;
  return false;
}

function bindingValue(n: Node, b: Binding, ctx: EvalContext): Value {
  switch (b.kind) {
    case 'value':
      return throughName(assignedValue(n, b.node, ctx, ASSIGNING), n, declarationOf(n.text, b.node));
    case 'augmented':
      return augmentedValue(n, b.node, ctx);
    case 'param':
      return callersOrOwn(n.text, paramValue(n, b, ctx), () => ownParameterValue(n, b, ctx));
    case 'loop':
      return loopValue(n, b.iter, b.path, ctx) ?? namedValue(n, n.text);
    case 'import':
      return (b.name ? importedValue(n, b.module, b.name, ctx) : null) ?? namedValue(n, n.text);
    case 'class':
      return declaredClassValue(b.node, ctx) ?? classValue(b.node, ctx);
    default:
      return namedValue(n, n.text);
  }
}

/** `pk += suffix`: the value the name had before, joined with the right side. */
function augmentedValue(n: Node, a: Node, ctx: EvalContext): Value {
  const left = a.childForFieldName('left');
  const op = a.childForFieldName('operator')?.text;
  const prev = left ? evaluate(left, ctx) : null;
  const right = evaluate(a.childForFieldName('right'), ctx);
  if (op === '+=' && prev?.kind === 'scalar' && right?.kind === 'scalar') {
    const sum =
      numberOf(prev) !== null && numberOf(right) !== null
        ? literal(String(numberOf(prev)! + numberOf(right)!))
        : concat(prev.template, right.template);
    return scalar(a, sum);
  }
  return namedValue(n, n.text);
}

const TIME_PARTS = /^(year|month|day|hour|minute|isocalendar|weekday)$/;

/**
 * The module an import may name as a whole, for `db.boards`: `app.db` for `from app import db`
 * and for `import app.db as db`, `.db` for `from . import db`.
 */
function moduleImported(b: { module: string; name: string }): string {
  if (!b.name) return b.module;
  return b.module.endsWith('.') ? b.module + b.name : `${b.module}.${b.name}`;
}

function attributeValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('object');
  const attr = n.childForFieldName('attribute')?.text ?? '';
  if (!obj) return unknownValue(n);
  const assigned = attributeValueNode(n, ctx);
  // A class attribute (`pk = f"X#{random.randrange(10)}"` in the body) is evaluated once.
  if (assigned) return onceUnless(inFunction(assigned) || !inFunction(n), evaluate(assigned, ctx) ?? unknownValue(n));
  // `Keys.PK` of a class imported from another module: its body's value.
  const imported = obj.type === 'identifier' ? resolve(obj, ctx) : null;
  if (imported?.kind === 'import') {
    const found = memberOf(evaluate(obj, ctx), attr) ?? importedValue(n, moduleImported(imported), attr, ctx);
    if (found) return found;
  }
  // `Status.OPEN` (and its `.value`): an enum member is one fixed value.
  const member = enumMember(n, obj.text, attr);
  if (member) return member;
  if (attr === 'value' && /^[A-Z][A-Za-z0-9]*\.[A-Z][A-Z0-9_]*$/.test(obj.text))
    return evaluate(obj, ctx) ?? unknownValue(n);
  // `Status.OPEN.name` is the member's own name, whatever its value.
  if (attr === 'name' && /^[A-Z][A-Za-z0-9]*\.[A-Z][A-Z0-9_]*$/.test(obj.text))
    return scalar(n, literal(obj.text.split('.')[1]));
  if (obj.type === 'identifier' && /^(self|cls)$/.test(obj.text)) return namedValue(n, attr);
  const base = evaluate(obj, ctx);
  const found = memberOf(base, attr);
  if (found) return found;
  const fromParam = parameterProperty(n, base, attr);
  if (fromParam) return fromParam;
  const h = base ? soleHole(base) : null;
  if (h?.kind === 'time' && TIME_PARTS.test(attr)) return holeValue(n, { kind: 'time', time: 'bucket' });
  if ((h?.kind === 'random' || h?.kind === 'time') && /^(hex|int|urn|bytes)$/.test(attr)) return base!;
  return namedValue(n, attr);
}

function subscriptValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('value');
  const index = n.childForFieldName('subscript');
  if (!obj || !index) return unknownValue(n);
  // `os.environ["TABLE"]`: an unknown value whose source names the variable.
  if (/(^|\.)environ$/.test(obj.text))
    return index.type === 'string'
      ? unknownValue(n)
      : envReadNamedBy(n, evaluate(index, ctx), (v) => `os.environ["${v}"]`);
  if (index.type === 'slice') return sliceValue(n, obj, index, ctx);
  const base = evaluate(obj, ctx);
  const key = index.type === 'string' ? literalText(stringTemplate(index, ctx)) : null;
  if (base?.kind === 'array') {
    const i = numberOf(evaluate(index, ctx));
    const item = i === null ? undefined : base.items[i < 0 ? base.items.length + i : i];
    if (item) return item;
    const idx = evaluate(index, ctx);
    return idx && soleHole(idx)?.kind === 'shard' ? idx : loopElementValue(n, base.items, false);
  }
  const found = memberOf(base, key);
  if (found) return found;
  if (key === null) return unknownValue(n);
  const fromParam = isAttributeValueTag(key) ? null : parameterProperty(n, base, key);
  if (fromParam) return fromParam;
  // `record["NewImage"]["pk"]["S"]` is named by the attribute, not by its type tag.
  const outer = obj.type === 'subscript' ? obj.childForFieldName('subscript') : null;
  const name = isAttributeValueTag(key) && outer?.type === 'string' ? literalText(stringTemplate(outer, ctx)) : key;
  return namedValue(n, name ?? key);
}

/** `x[a:b]`: a date cut from a timestamp (`[:10]`, `[:13]`) is a bucket; a literal is cut; a list keeps its elements. */
function sliceValue(n: Node, obj: Node, slice: Node, ctx: EvalContext): Value {
  const bounds: Array<Node | null> = [null, null];
  let part = 0;
  for (const c of slice.children) {
    if (c?.type === ':') part++;
    else if (c && part < 2) bounds[part] = c;
  }
  const [start, end] = bounds.map((b) => (b ? numberOf(evaluate(b, ctx)) : null));
  const base = evaluate(obj, ctx);
  if (base?.kind === 'array')
    return pageOfList(
      n,
      base.items,
      [start, end].map((value, i) => ({ written: bounds[i] !== null, value })),
    );
  const h = base ? soleHole(base) : null;
  if (h?.kind === 'time')
    return holeValue(n, { kind: 'time', time: end !== null && end >= 0 && end < 19 ? 'bucket' : h.time });
  const text = base?.kind === 'scalar' ? literalText(base.template) : null;
  if (text !== null && (start !== null || bounds[0] === null) && (end !== null || bounds[1] === null)) {
    return scalar(n, literal(text.slice(start ?? 0, end ?? undefined)));
  }
  return base?.kind === 'scalar' && h ? holeValue(n, { ...h }) : unknownValue(n);
}

function binaryValue(n: Node, ctx: EvalContext): Value {
  const op = n.childForFieldName('operator')?.text ?? '';
  const leftNode = n.childForFieldName('left');
  const left = evaluate(leftNode, ctx);
  const leftText = left?.kind === 'scalar' ? literalText(left.template) : null;
  if (op === '%' && leftText !== null && numberOf(left) === null)
    return percentFormat(n, leftText, n.childForFieldName('right'), ctx);
  const rightNode = n.childForFieldName('right');
  const right = evaluate(rightNode, ctx);
  if (op === '&' && left?.kind === 'condition' && right?.kind === 'condition') {
    return { kind: 'condition', clauses: [...left.clauses, ...right.clauses], span: spanOf(n) };
  }
  // `time.time() // 3600` is the current hour; `time.time() * 1000` and `now - timedelta(1)` are still
  // times; `today.isoformat() + "#" + user_id` is a concatenation.
  const shiftsTime = numberOf(right) !== null || /^(\w+\.)?(timedelta|relativedelta)\(/.test(rightNode?.text ?? '');
  const joinsText = [leftNode, rightNode].some(
    (side) => side?.type === 'string' || side?.type === 'concatenated_string',
  );
  return operate(n, op, { left, right, rightNode, shiftsTime, joinsText }) ?? unknownValue(n);
}

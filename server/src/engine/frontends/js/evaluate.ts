import type { Node } from 'web-tree-sitter';
import { callersOrOwn, chooseArms, joinPaths, throughName, valueOfAlternatives } from '../alternatives';
import {
  parameterProperty,
  declarationOf,
  deeper,
  holeValue,
  originAt,
  importedValue,
  limitValue,
  loopElementValue,
  namedValue,
  numberOf,
  recordNode,
  scalar,
  soleHole,
  templateOf,
  unknownValue,
  envReadNamedBy,
} from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import { concat, literal, literalText } from '../../model/template';
import { assignedValue, enumMember, memberOf, operate, propertyOrDefault, type Assigning } from '../value-ops';
import { entryOf, type Entry, type Value } from '../../model/value';
import { classValue } from './classes';
import { fieldInitializer } from './fields';
import { injectedModelToken } from './nest-models';
import { injectedBinding } from './inversify';
import { callValue, newValue } from './library';
import { recordedMember } from './constructions';
import { loopValue, ownParameterValue, paramValue } from './loops';
import { withMutations } from './mutations';
import { reachingBindings } from './reaching-bindings';
import { withoutExcluded } from '../literal-guards';
import { isAttributeValueTag } from '../names';
import { JS_LITERAL_GUARDS } from './literal-guards';
import { isFunction, resolve, type Binding } from './scope';

/**
 * Evaluates a JavaScript/TypeScript expression into a Value: object literals into
 * objects, strings and template literals into key templates whose holes say where
 * each part comes from. Identifiers are followed to their declarations in the file.
 */
export function evaluate(n: Node | null, ctx: EvalContext): Value | null {
  if (!n) return null;
  recordNode(ctx, n, n.type === 'identifier' || n.type === 'shorthand_property_identifier' ? n.text : undefined);
  const next = deeper(ctx);
  if (!next) return limitValue(n, ctx);
  return evaluateNode(n, next);
}

const PASS_THROUGH = new Set([
  'parenthesized_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'type_assertion',
]);

function evaluateNode(n: Node, ctx: EvalContext): Value {
  if (PASS_THROUGH.has(n.type)) return evaluate(n.namedChild(0), ctx) ?? unknownValue(n);
  switch (n.type) {
    case 'string':
      return scalar(
        n,
        literal(
          n.namedChildren
            .map((c) => (c?.type === 'string_fragment' || c?.type === 'escape_sequence' ? unescape(c.text) : ''))
            .join(''),
        ),
      );
    case 'template_string':
      return templateValue(n, ctx);
    case 'number':
      return scalar(n, literal(n.text.replace(/_/g, '')));
    case 'true':
    case 'false':
    case 'null':
    case 'undefined':
      return scalar(n, literal(n.text));
    case 'object':
      return objectValue(n, ctx);
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class':
    case 'enum_declaration':
      return classValue(n, ctx);
    case 'array':
      return {
        kind: 'array',
        items: n.namedChildren.flatMap((c) =>
          c && c.type !== 'spread_element' ? [evaluate(c, ctx) ?? unknownValue(c)] : [],
        ),
        span: spanOf(n),
      };
    case 'identifier':
    case 'shorthand_property_identifier':
      return identifierValue(n, ctx);
    case 'member_expression':
      return memberValue(n, ctx);
    case 'subscript_expression':
      return subscriptValue(n, ctx);
    case 'binary_expression':
      return binaryValue(n, ctx);
    case 'ternary_expression':
      return chooseArms(n, [n.childForFieldName('consequence'), n.childForFieldName('alternative')], (a) =>
        evaluate(a, ctx),
      );
    case 'call_expression':
      return callValue(n, ctx);
    case 'new_expression':
      return newValue(n, ctx);
    case 'await_expression':
      return evaluate(n.namedChild(0), ctx) ?? unknownValue(n);
    case 'unary_expression':
      return n.text.startsWith('!') ? holeValue(n, { kind: 'low-cardinality' }) : unknownValue(n);
    default:
      return unknownValue(n);
  }
}

function unescape(s: string): string {
  return s.startsWith('\\') ? ({ '\\n': '\n', '\\t': '\t' }[s] ?? s.slice(1)) : s;
}

/** `` `USER#${id}` ``: literal fragments and the templates of the substitutions. */
function templateValue(n: Node, ctx: EvalContext): Value {
  const values: Array<Value | null> = [];
  const parts = n.namedChildren.map((c) => {
    if (!c) return literal('');
    if (c.type === 'string_fragment' || c.type === 'escape_sequence') return literal(unescape(c.text), originAt(c));
    if (c.type !== 'template_substitution') return literal('');
    const inner = c.namedChild(0);
    const v = evaluate(inner, ctx);
    values.push(v);
    return templateOf(v, inner ?? c);
  });
  return joinPaths(scalar(n, concat(...parts)), ...values);
}

function propertyKey(k: Node, ctx: EvalContext): string {
  if (k.type === 'string') return k.text.slice(1, -1);
  if (k.type === 'computed_property_name') {
    const v = evaluate(k.namedChild(0), ctx);
    return (
      (v?.kind === 'scalar' ? literalText(v.template) : null) ??
      `[${(v && soleHole(v)?.source) ?? k.text.slice(1, -1)}]`
    );
  }
  return k.text;
}

function objectValue(n: Node, ctx: EvalContext): Value {
  const entries: Entry[] = [];
  let hidden: Value | undefined;
  let hiddenAt = 0;
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'pair') {
      const k = c.childForFieldName('key');
      const v = c.childForFieldName('value');
      if (k && v) entries.push([propertyKey(k, ctx), evaluate(v, ctx) ?? unknownValue(v), spanOf(c)]);
    } else if (c.type === 'shorthand_property_identifier') {
      entries.push([c.text, evaluate(c, ctx) ?? unknownValue(c), spanOf(c)]);
    } else if (c.type === 'spread_element') {
      // `...defaults`: merge what we can see; later keys override earlier ones.
      for (const v of spreadObjects(c.namedChild(0), ctx)) {
        if (hidden) {
          if (v.kind === 'object') entries.push(...v.entries);
          continue;
        }
        if (v.kind === 'object') {
          entries.push(...v.entries);
          if (v.hidden) hidden = v.hidden;
        } else if (v.kind !== 'scalar' || literalText(v.template) === null) hidden = v;
        if (hidden) hiddenAt = entries.length;
      }
    }
  }
  return {
    kind: 'object',
    entries,
    span: spanOf(n),
    ...(hidden ? { hidden } : {}),
    ...(hidden && hiddenAt ? { hiddenAt } : {}),
  };
}

/**
 * The objects a spread may bring in: `...base`, and the conditional forms
 * `...(lastKey && { ExclusiveStartKey: lastKey })` and `...(c ? { a } : {})`; a part
 * that is not a known object (`...input`) comes back as the value it is.
 */
function spreadObjects(n: Node | null, ctx: EvalContext): Value[] {
  let inner = n;
  while (inner?.type === 'parenthesized_expression') inner = inner.namedChild(0);
  if (!inner) return [];
  const parts =
    inner.type === 'binary_expression' && /^(&&|\?\?|\|\|)$/.test(inner.childForFieldName('operator')?.text ?? '')
      ? [inner.childForFieldName('right')]
      : inner.type === 'ternary_expression'
        ? [inner.childForFieldName('consequence'), inner.childForFieldName('alternative')]
        : [inner];
  return parts.flatMap((p) => {
    const v = p ? (evaluate(p, ctx) ?? unknownValue(p)) : null;
    return v?.kind === 'object' || v?.kind === 'scalar' ? [v] : [];
  });
}

function identifierValue(n: Node, ctx: EvalContext): Value {
  return withoutExcluded(n, reachingValue(n, ctx), ctx, JS_LITERAL_GUARDS);
}

/** What the assignments and bindings that may reach `n` make it. */
function reachingValue(n: Node, ctx: EvalContext): Value {
  const b = resolve(n, ctx);
  // `let pk = ...; if (c) { pk = "DEFAULT"; }`: each assignment that may reach is an alternative.
  const alternatives = b?.kind === 'loop' ? null : reachingBindings(n, b);
  const chosen = alternatives
    ? valueOfAlternatives(n, alternatives, (a) =>
        a.kind === 'value' ? assignedValue(n, a.node, ctx, ASSIGNING) : bindingValue(n, a, ctx),
      )
    : null;
  if (chosen) return chosen;
  return b ? bindingValue(n, b, ctx) : namedValue(n, n.text);
}

/** How this language's assignments reach a use (`assignedValue` in value-ops.ts). */
// Arrows, not the functions themselves: read when called, so an import cycle cannot leave one unset.
const ASSIGNING: Assigning = {
  evaluate: (n, ctx) => evaluate(n, ctx),
  withMutations: (value, name, assigned, use, ctx) => withMutations(value, name, assigned, use, ctx),
  inFunction: (n) => inFunction(n),
};

/** Whether `n` runs each time a function is called (else once, when the module or class is loaded). */
function inFunction(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (isFunction(p)) return true;
  return false;
}

function bindingValue(n: Node, b: Binding, ctx: EvalContext): Value {
  switch (b.kind) {
    case 'value':
      return throughName(assignedValue(n, b.node, ctx, ASSIGNING), n, declarationOf(n.text, b.node));
    case 'param':
      return callersOrOwn(n.text, paramValue(n, b.fn, b.index, ctx, b.path, b.fallback), () =>
        ownParameterValue(n, b.fn, b.index, ctx, b.name, b.path),
      );
    case 'loop':
      return loopValue(n, b.loop, ctx) ?? namedValue(n, n.text);
    case 'import':
      return importedValue(n, b.source, b.name, ctx) ?? namedValue(n, n.text);
    case 'class':
      return classValue(b.node, ctx);
    case 'field': {
      const declared = declarationOf(n.text, b.node);
      if (!b.fallback) {
        const found = entryOf(evaluate(b.node, ctx) ?? undefined, b.key);
        return found ? throughName(found[1], n, declared) : namedValue(n, n.text);
      }
      // `const { board = "global" } = body`.
      const fallback = evaluate(b.fallback, ctx) ?? unknownValue(b.fallback);
      return throughName(propertyOrDefault(n, evaluate(b.node, ctx), b.key, fallback), n, declared);
    }
    default:
      return namedValue(n, n.text);
  }
}

function memberValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('object');
  const prop = n.childForFieldName('property')?.text ?? '';
  if (obj?.text === 'process.env') return unknownValue(n);
  // `db.TABLE` with `import * as db from "./db"` or `const db = require("./db")`.
  const module = obj?.type === 'identifier' ? resolve(obj, ctx) : null;
  if (module?.kind === 'import' && module.name === '*') {
    const v = importedValue(n, module.source, prop, ctx);
    if (v) return v;
  }
  // `Dynamo.Service` with `import { Dynamo } from "./dynamo"`, where the module exports itself
  // as a namespace (`export * as Dynamo from "./dynamo"`, as SST's templates lay out `core`).
  if (module?.kind === 'import' && module.name !== '*' && module.name !== 'default') {
    const v = importedValue(n, module.source, `${module.name}.${prop}`, ctx);
    if (v) return v;
  }
  const base = obj ? evaluate(obj, ctx) : null;
  if (base?.kind === 'object') {
    const found = memberOf(base, prop);
    if (found) return found;
    if (base.echoes) return scalar(n, literal(prop));
    const recorded = base.made ? recordedMember(n, base, prop) : null;
    if (recorded) return recorded;
  }
  // \`this.tickets\` a constructor set to a library's model (\`table.getModel("Ticket")\`): that model.
  const model = obj?.type === 'this' ? (fieldModel(n, ctx) ?? injectedModel(n, ctx) ?? injectedBinding(n, ctx)) : null;
  if (model) return model;
  // `record.dynamodb.NewImage.playerId.S` is named by the attribute, not by its type tag.
  if (isAttributeValueTag(prop)) return namedValue(n, tagged(obj) ?? prop);
  const fromParam = parameterProperty(n, base, prop);
  if (fromParam) return fromParam;
  // `Status.OPEN`: an enum member is one fixed value.
  const member = obj ? enumMember(n, obj.text, prop) : null;
  if (member) return member;
  if (prop === 'length') return unknownValue(n);
  return namedValue(n, prop);
}

/** The attribute a type tag is read from: `playerId` of `image.playerId.S` or `image["playerId"].S`. */
function tagged(obj: Node | null): string | null {
  if (obj?.type === 'member_expression') return obj.childForFieldName('property')?.text ?? null;
  const index = obj?.type === 'subscript_expression' ? obj.childForFieldName('index') : null;
  return index?.type === 'string' ? index.text.slice(1, -1) : null;
}

/**
 * A class field holding a DynamoDB library's model (a recorded construction, \`Value.made\`),
 * from its initialiser or the constructor's assignment. Only such values: what other fields
 * hold (a table name, a client) is read by the wrappers' own rules for injected fields.
 */
function fieldModel(member: Node, ctx: EvalContext): Value | null {
  const init = fieldInitializer(member);
  const v = init && !init.equals(member) ? evaluate(init, ctx) : null;
  return v?.kind === 'object' && v.made ? v : null;
}

/**
 * A constructor parameter property a framework fills by name: nestjs-dynamoose's
 * `@InjectModel('User') private readonly userModel` is the model the workspace registers
 * under `User` (`Lookups.injectedModel`).
 */
function injectedModel(member: Node, ctx: EvalContext): Value | null {
  const lookup = ctx.lookups.injectedModel;
  const token = lookup ? injectedModelToken(member) : null;
  const name = token ? evaluate(token, ctx) : null;
  const text = name?.kind === 'scalar' ? literalText(name.template) : null;
  return text !== null && lookup ? lookup(text) : null;
}

function subscriptValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('object');
  const index = n.childForFieldName('index');
  if (obj?.text === 'process.env' && index && index.type !== 'string')
    return envReadNamedBy(n, evaluate(index, ctx), (v) => `process.env.${v}`);
  const base = evaluate(obj, ctx);
  // `date.split('T')[0]` keeps the time-ness of what was split.
  const h = base ? soleHole(base) : null;
  if (h?.kind === 'time') return holeValue(n, { kind: 'time', time: 'bucket', ...(h.input ? { input: true } : {}) });
  if (base?.kind === 'array') {
    const i = numberOf(evaluate(index, ctx));
    if (i !== null && base.items[i]) return base.items[i];
    const idx = index ? evaluate(index, ctx) : null;
    if (idx && soleHole(idx)?.kind === 'shard' && base.items.length > 0) return idx;
    return loopElementValue(n, base.items, false);
  }
  const found = index?.type === 'string' ? memberOf(base, index.text.slice(1, -1)) : undefined;
  if (found) return found;
  const key = index?.type === 'string' ? index.text.slice(1, -1) : null;
  if (key !== null && isAttributeValueTag(key)) return namedValue(n, tagged(obj) ?? key);
  if (key !== null) return parameterProperty(n, base, key) ?? namedValue(n, key);
  return unknownValue(n);
}

function binaryValue(n: Node, ctx: EvalContext): Value {
  const op = n.childForFieldName('operator')?.text ?? '';
  const leftNode = n.childForFieldName('left');
  const rightNode = n.childForFieldName('right');
  // `a && b` is `b` wherever `a` holds (`body.id && String(body.id).trim()`), as Python's `and`:
  // one of its arms, not a boolean.
  if (op === '??' || op === '||' || op === '&&') return chooseArms(n, [leftNode, rightNode], (a) => evaluate(a, ctx));
  if (op === '===' || op === '!==' || op === '==' || op === '!=' || op === '<' || op === '>') {
    return holeValue(n, { kind: 'low-cardinality' });
  }
  const left = evaluate(leftNode, ctx);
  const right = evaluate(rightNode, ctx);
  const joinsText = [leftNode, rightNode].some((side) => side?.type === 'string' || side?.type === 'template_string');
  return operate(n, op, { left, right, rightNode, joinsText }) ?? unknownValue(n);
}

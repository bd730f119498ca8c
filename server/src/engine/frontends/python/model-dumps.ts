/**
 * The item a model instance turns into: pydantic's `entry.model_dump()` (v2) or
 * `entry.dict()` (v1), a dataclass's `asdict(entry)`. Services written with AWS Lambda
 * Powertools and pydantic put `Item=entry.model_dump()`; the fields are those the class
 * call names (`ProductEntry(id=product.id, name=...)`) over the defaults its class body
 * gives (`pk: str = "METRICS"`), so a constant key written as a model default is seen.
 */
import type { Node } from 'web-tree-sitter';
import { unknownValue } from '../evaluation';
import type { EvalContext } from '../../model/eval-context';
import type { Entry, Value } from '../../model/value';
import { classValue } from './classes';
import { resolve } from './scope';
import { kwargsValue } from './structures';

/** The methods that dump a model's fields as a dict. */
export const DUMP_METHODS = new Set(['model_dump', 'dict']);

/** Bases that add no field of their own: the class body holds every default. */
const PLAIN_BASES = /^(?:(?:pydantic\.)?BaseModel|object)$/;

/**
 * The fields of the instance `receiver` names, when it is made right there or by an
 * assignment in scope with a call of a capitalised class, else null. A class this module
 * does not declare, or one with other bases, may hold more fields: the object then hides
 * more (`hidden`), so a key it does not show is not taken as missing.
 */
export function dumpedInstance(receiver: Node | null, ctx: EvalContext): Value | null {
  let made = receiver;
  if (made?.type === 'identifier') {
    const b = resolve(made, ctx);
    made = b?.kind === 'value' ? b.node : null;
  }
  if (made?.type !== 'call') return null;
  const fn = made.childForFieldName('function');
  if (fn?.type !== 'identifier' || !/^[A-Z]\w*$/.test(fn.text)) return null;
  const given = kwargsValue(made, ctx);
  if (given.kind !== 'object') return null;
  const cls = resolve(fn, ctx);
  const body = cls?.kind === 'class' ? cls.node : null;
  // A class imported from another module brings the defaults its body gives there.
  const defaults = body ? classValue(body, ctx) : cls?.kind === 'import' ? ctx.evaluate(fn, ctx) : null;
  const entries: Entry[] = [...(defaults?.kind === 'object' ? defaults.entries : []), ...given.entries];
  if (entries.length === 0) return null;
  const bases = body?.childForFieldName('superclasses')?.namedChildren.map((b) => b?.text ?? '') ?? [];
  const whole = body !== null && bases.every((b) => PLAIN_BASES.test(b));
  return { kind: 'object', entries, span: given.span, ...(whole ? {} : { hidden: unknownValue(made) }) };
}

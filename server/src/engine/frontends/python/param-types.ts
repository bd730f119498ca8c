/**
 * What a Python parameter's annotation says of its values, as `param-types.ts` of the
 * JavaScript front-end reads a TypeScript one: `Literal["free", "pro"]` (also as
 * `typing.Literal`), `bool`, an `Enum` subclass of the module (`class Plan(str, Enum)`), an
 * alias of either declared at the module's top (`Channel = Literal["email", "sms"]`), and
 * unions of those (`Optional[...]`, `Union[...]`, `X | None`) take only a few values, whatever
 * the parameter is called. Types imported from another module are not read.
 */
import type { Node } from 'web-tree-sitter';

/** Annotations deeper than this are not unfolded: a type that deep is no short list of values. */
const MAX_DEPTH = 6;

/** The base classes that make a class an enumeration. */
const ENUM_BASES = /^(?:enum\.)?(?:Enum|IntEnum|StrEnum|Flag|IntFlag)$/;

/** Whether the parameter `name` of `fn` is annotated with a few-valued type. */
export function fewValuedPythonParameter(fn: Node, name: string): boolean {
  const parameter = fn
    .childForFieldName('parameters')
    ?.namedChildren.find((p) => p !== null && parameterName(p) === name);
  const type = parameter?.childForFieldName('type')?.namedChild(0) ?? null;
  return type ? fewValued(type, moduleOf(fn), 0) : false;
}

function parameterName(p: Node): string | null {
  if (p.type === 'typed_default_parameter') return p.childForFieldName('name')?.text ?? null;
  if (p.type === 'typed_parameter') return p.namedChildren.find((c) => c?.type === 'identifier')?.text ?? null;
  return null;
}

function moduleOf(n: Node): Node | null {
  let at: Node | null = n;
  while (at && at.type !== 'module') at = at.parent;
  return at;
}

function fewValued(t: Node, module: Node | null, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  switch (t.type) {
    case 'type':
      return !!t.namedChild(0) && fewValued(t.namedChild(0)!, module, depth + 1);
    case 'generic_type': {
      const generic = t.namedChild(0)?.text ?? '';
      const args = t.namedChildren.find((c) => c?.type === 'type_parameter')?.namedChildren ?? [];
      return genericFewValued(generic, args, module, depth);
    }
    // `typing.Literal["q"]`, `Literal["a", "b"]` read as a subscript.
    case 'subscript': {
      const generic = t.childForFieldName('value')?.text ?? '';
      const args = t.childrenForFieldName('subscript');
      return genericFewValued(generic, args, module, depth);
    }
    case 'binary_operator':
      return [t.childForFieldName('left'), t.childForFieldName('right')].every(
        (side) => !!side && (isNothing(side) || fewValued(side, module, depth + 1)),
      );
    case 'identifier':
    case 'attribute':
      return t.text === 'bool' || namedFewValued(t.text, module, depth);
    default:
      return false;
  }
}

function genericFewValued(generic: string, args: Array<Node | null>, module: Node | null, depth: number): boolean {
  const name = generic.replace(/^(?:typing|typing_extensions)\./, '');
  const present = args.filter((a): a is Node => a !== null);
  if (name === 'Literal')
    return present.length > 0 && present.every((a) => isLiteral(a.type === 'type' ? a.namedChild(0) : a));
  if (name === 'Optional' || name === 'Union')
    return present.length > 0 && present.every((a) => isNothing(a) || fewValued(a, module, depth + 1));
  return false;
}

function isLiteral(n: Node | null): boolean {
  return !!n && ['string', 'integer', 'true', 'false', 'none'].includes(n.type);
}

/** `None` in a union (`Optional[X]`, `X | None`) adds no value a key is written with. */
function isNothing(n: Node): boolean {
  const inner = n.type === 'type' ? n.namedChild(0) : n;
  return inner?.type === 'none';
}

/** A class of the module deriving from an enum base, or a top-level alias of a few-valued type. */
function namedFewValued(name: string, module: Node | null, depth: number): boolean {
  for (const s of module?.namedChildren ?? []) {
    const statement = s?.type === 'decorated_definition' ? s.childForFieldName('definition') : s;
    if (statement?.type === 'class_definition' && statement.childForFieldName('name')?.text === name) {
      const bases = statement.childForFieldName('superclasses')?.namedChildren ?? [];
      return bases.some((b) => !!b && ENUM_BASES.test(b.text));
    }
    const assignment = statement?.type === 'expression_statement' ? statement.namedChild(0) : null;
    if (assignment?.type === 'assignment' && assignment.childForFieldName('left')?.text === name) {
      const value = assignment.childForFieldName('right');
      return !!value && fewValued(value, module, depth + 1);
    }
  }
  return false;
}

/**
 * The classes Python code declares its variables with, for the reachability pass: a
 * method called on a variable or a field of a known class runs that class's method (or an
 * override), not every method of its name in the modules imported.
 */
import type { Node } from 'web-tree-sitter';
import { PLAIN_DATA, type SeenBinding } from '../../model/entry-point';
import type { Span } from '../../model/range';
import { spanOf } from '../../syntax/span';

/** Type hints that wrap the type the value has: `Annotated[Repo, Depends(...)]`, `Optional[Repo]`. */
const WRAPPERS = new Set(['Annotated', 'Optional']);

/**
 * The class a type hint names: `Repo`, `repos.Repo` and `"Repo"` → `Repo`; the first argument
 * of `Annotated[...]` and `Optional[...]`; `Repository[User]` → `Repository`. Null for others.
 */
export function hintedClass(hint: Node | null): string | null {
  const t = hint?.type === 'type' ? hint.namedChild(0) : hint;
  if (!t) return null;
  if (t.type === 'identifier') return t.text;
  if (t.type === 'attribute') return t.childForFieldName('attribute')?.text ?? null;
  if (t.type === 'string') return /^['"](\w+)['"]$/.exec(t.text)?.[1] ?? null;
  if (t.type === 'generic_type') {
    const name = t.namedChild(0);
    if (name?.type !== 'identifier') return null;
    if (!WRAPPERS.has(name.text)) return name.text;
    const first = t.namedChildren.find((c) => c.type === 'type_parameter')?.namedChild(0) ?? null;
    return hintedClass(first);
  }
  return null;
}

/** The class a call makes, by the convention that classes are capitalised: `Repo(db)`, `repos.Repo(db)`. */
function madeClass(value: Node | null): string | null {
  if (value?.type !== 'call') return null;
  const f = value.childForFieldName('function');
  const name =
    f?.type === 'identifier' ? f.text : f?.type === 'attribute' ? f.childForFieldName('attribute')?.text : null;
  return name && /^[A-Z]/.test(name) ? name : null;
}

/** Parameter name → class, for the parameters with a type hint naming one. */
function parameterTypes(fn: Node): Map<string, string> {
  const params = new Map<string, string>();
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p.type !== 'typed_parameter' && p.type !== 'typed_default_parameter') continue;
    const name = p.type === 'typed_parameter' ? p.namedChild(0) : p.childForFieldName('name');
    const type = hintedClass(p.childForFieldName('type'));
    if (name?.type === 'identifier' && type) params.set(name.text, type);
  }
  return params;
}

/**
 * What a function's parameters are declared with: the class a type hint names
 * (`repo: VideoRepository = Depends(get_repo)`, `store: "OrderStore"`); any other parameter
 * is bound too, to nothing known (it hides a variable of its name around the function).
 */
export function parameterBindings(fn: Node): SeenBinding[] {
  const out: SeenBinding[] = [];
  // One span for all: it places the names in the function, and each span read costs a node's marshalling.
  let span: Span | undefined;
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    const name =
      p.type === 'identifier'
        ? p
        : p.type === 'typed_parameter'
          ? p.namedChild(0)
          : p.type === 'typed_default_parameter' || p.type === 'default_parameter'
            ? p.childForFieldName('name')
            : null;
    if (name?.type !== 'identifier') continue;
    const type = p.type.startsWith('typed') ? hintedClass(p.childForFieldName('type')) : null;
    out.push({ name: name.text, span: (span ??= spanOf(p)), ...(type && isClassName(type) ? { type } : {}) });
  }
  return out;
}

/**
 * What an assignment to a name gives it: a class by its hint (`store: Store = make_store()`)
 * or called (`repo = FeatureRepository(db)`), plain data (a literal, a DynamoDB response),
 * what is read from another variable (`item = resp["Item"]`), or nothing known.
 */
export function assignmentBinding(a: Node): SeenBinding | null {
  const left = a.childForFieldName('left');
  if (left?.type !== 'identifier') return null;
  const right = a.childForFieldName('right');
  const hinted = hintedClass(a.childForFieldName('type'));
  const type = (hinted && isClassName(hinted) ? hinted : null) ?? madeClass(right) ?? plainData(right);
  const binding: SeenBinding = { name: left.text, span: spanOf(a) };
  if (type) binding.type = type;
  else {
    const from = readFrom(right);
    if (from) binding.readFrom = from;
  }
  return binding;
}

/** Classes are capitalised: `key: str` and `limit: int` say nothing of which method runs. */
function isClassName(type: string): boolean {
  return /^[A-Z]/.test(type);
}

const LITERALS = new Set([
  'dictionary',
  'list',
  'tuple',
  'set',
  'string',
  'concatenated_string',
  'integer',
  'float',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
]);

/** What a boto3 table or client answers with a dict. */
const DYNAMODB_METHODS = new Set([
  'get_item',
  'put_item',
  'update_item',
  'delete_item',
  'query',
  'scan',
  'batch_get_item',
  'batch_write_item',
  'transact_get_items',
  'transact_write_items',
  'execute_statement',
]);

/** `PLAIN_DATA` for a literal or a DynamoDB call's response (`table.get_item(...)`, `...["Item"]`); else null. */
function plainData(value: Node | null): string | null {
  if (!value) return null;
  if (LITERALS.has(value.type)) return PLAIN_DATA;
  for (let n: Node | null = value, depth = 0; n && depth < 16; depth++) {
    if (n.type === 'call') {
      const f = n.childForFieldName('function');
      if (f?.type === 'attribute' && DYNAMODB_METHODS.has(f.childForFieldName('attribute')?.text ?? ''))
        return PLAIN_DATA;
      n = f;
    } else n = inner(n);
  }
  return null;
}

/** The variable a value is read from (`resp["Item"]`, `resp.get("Items", [])`, `resp`), or null. */
function readFrom(value: Node | null): string | null {
  for (let n: Node | null = value, depth = 0; n && depth < 16; depth++) {
    if (n.type === 'identifier') return n.text;
    n = n.type === 'call' ? n.childForFieldName('function') : inner(n);
  }
  return null;
}

/** What an attribute, a subscript or an await reads from. */
function inner(n: Node): Node | null {
  if (n.type === 'attribute') return n.childForFieldName('object');
  if (n.type === 'subscript') return n.childForFieldName('value');
  return n.type === 'await' ? n.namedChild(0) : null;
}

/**
 * The declared types of a class's fields: class-level annotations (`store: OrderStore`), and
 * in `__init__` annotated fields (`self.store: OrderStore = ...`), fields set from an annotated
 * parameter (`def __init__(self, store: OrderStore): self.store = store`) or from a class
 * called (`self.client = Client(...)`).
 */
export function fieldTypes(body: Node | null): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const stmt of body?.namedChildren ?? []) {
    const a = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
    if (a?.type === 'assignment' && a.childForFieldName('left')?.type === 'identifier') {
      const type = hintedClass(a.childForFieldName('type'));
      if (type) fields[a.childForFieldName('left')!.text] = type;
    }
    const fn = stmt.type === 'decorated_definition' ? stmt.childForFieldName('definition') : stmt;
    if (fn?.type !== 'function_definition' || fn.childForFieldName('name')?.text !== '__init__') continue;
    const params = parameterTypes(fn);
    for (const s of fn.childForFieldName('body')?.descendantsOfType('assignment') ?? []) {
      const left = s?.childForFieldName('left');
      if (left?.type !== 'attribute' || left.childForFieldName('object')?.text !== 'self') continue;
      const field = left.childForFieldName('attribute')?.text;
      const right = s!.childForFieldName('right');
      const type =
        hintedClass(s!.childForFieldName('type')) ??
        (right?.type === 'identifier' ? params.get(right.text) : undefined) ??
        madeClass(right);
      if (field && type) fields[field] = type;
    }
  }
  return fields;
}

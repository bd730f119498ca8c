/**
 * What a Python CDK file says to the files that construct its classes: each class (a
 * stack, a construct of the project's own) with its `__init__` parameters after
 * `self, scope, id` (passed by position or by keyword: `ApiStack(app, "Api",
 * table=data.table)`) and the fields it assigns (`self.table = ...`), and each import,
 * so the reader (`infra/cdk/links.ts`) can follow a construction into the class.
 */
import type { Node } from 'web-tree-sitter';
import type { CdkBase, CdkClass, CdkImport, CdkParam } from '../../model/cdk';
import { spanOf } from '../../syntax/span';
import type { CdkReader } from '../cdk-reader';

export function classOf(n: Node, reader: CdkReader, camelCase: (name: string) => string): CdkClass | null {
  if (n.type !== 'class_definition') return null;
  const name = n.childForFieldName('name')?.text;
  const body = n.childForFieldName('body');
  if (!name || !body) return null;
  const fields: CdkClass['fields'] = [];
  for (const [field, value] of selfAssignments(body))
    fields.push({ name: camelCase(field), value: reader.boundValue(value) });
  const top = n.parent?.type === 'module' || n.parent?.parent?.type === 'module';
  const base = baseOf(n, body, reader);
  return { name, exported: top, params: params(body, camelCase), fields, ...(base ? { base } : {}), span: spanOf(n) };
}

function initOf(body: Node): Node | null {
  for (const c of body.namedChildren) {
    const d = c?.type === 'decorated_definition' ? c.childForFieldName('definition') : c;
    if (d?.type === 'function_definition' && d.childForFieldName('name')?.text === '__init__') return d;
  }
  return null;
}

/** `class AppTable(dynamodb.Table)` with `super().__init__(scope, id, partition_key=..., **kwargs)` in `__init__`. */
function baseOf(n: Node, body: Node, reader: CdkReader): CdkBase | null {
  const extended = n.childForFieldName('superclasses')?.namedChildren.find((c) => c?.type !== 'comment');
  if (!extended || (extended.type !== 'identifier' && extended.type !== 'attribute')) return null;
  const init = initOf(body);
  let call: Node | null = null;
  for (const s of init?.childForFieldName('body')?.namedChildren ?? []) {
    const e = s?.type === 'expression_statement' ? s.namedChild(0) : null;
    const fn = e?.type === 'call' ? e.childForFieldName('function') : null;
    if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === '__init__') {
      const object = fn.childForFieldName('object');
      if (object?.type === 'call' && object.childForFieldName('function')?.text === 'super') call = e;
    }
    if (call) break;
  }
  if (!init || !call) return null;
  const value = reader.superValue(call);
  if (value.kind !== 'call') return null;
  const names: string[] = [];
  let kwargs: string | null = null;
  for (const p of init.childForFieldName('parameters')?.namedChildren ?? []) {
    if (!p || p.type === 'comment') continue;
    if (p.type === 'dictionary_splat_pattern') kwargs = p.namedChild(0)?.text ?? null;
    else if (p.type === 'identifier') names.push(p.text);
    else if (p.type !== 'keyword_separator' && p.type !== 'positional_separator' && p.type !== 'list_splat_pattern')
      names.push((p.childForFieldName('name') ?? p.namedChild(0))?.text ?? '');
  }
  return {
    qualified: extended.text,
    scope: names[1] ?? null,
    id: names[2] ?? null,
    kwargs,
    args: value.args,
    props: value.props,
  };
}

/** Each `self.x = value` of the class (the first of each name), outside nested classes. */
function selfAssignments(body: Node): Map<string, Node> {
  const out = new Map<string, Node>();
  walkClassBody(body, (n) => {
    const name = n.type === 'assignment' ? selfAttribute(n.childForFieldName('left')) : null;
    const right = name && !out.has(name) ? n.childForFieldName('right') : null;
    if (name && right) out.set(name, right);
  });
  return out;
}

/** `self.name`: the name; null for anything else. */
export function selfAttribute(n: Node | null): string | null {
  if (n?.type !== 'attribute' || n.childForFieldName('object')?.text !== 'self') return null;
  return n.childForFieldName('attribute')?.text ?? null;
}

/**
 * Every node of a class body but those of classes nested in it (they have their own
 * `self`), in document order; `visit` returning true stops the walk.
 */
export function walkClassBody(body: Node, visit: (n: Node) => boolean | void): void {
  const walk = (n: Node): boolean => {
    if (visit(n)) return true;
    for (const c of n.namedChildren) if (c && c.type !== 'class_definition' && walk(c)) return true;
    return false;
  };
  walk(body);
}

/**
 * `__init__`'s parameters after self, scope and id: by position until `*`, and by keyword.
 * The id is the parameter after scope only where its name says so (`id`, `id_`, `construct_id`):
 * a plain class the stack hands its constructs to takes `(self, scope, resources, lambdas)`.
 */
function params(body: Node, camelCase: (name: string) => string): CdkParam[] {
  const init = body.namedChildren
    .map((c) => (c?.type === 'decorated_definition' ? c.childForFieldName('definition') : c))
    .find((c) => c?.type === 'function_definition' && c.childForFieldName('name')?.text === '__init__');
  const list = init?.childForFieldName('parameters');
  const out: CdkParam[] = [];
  let position: number | null = 0;
  let index = 0;
  for (const p of list?.namedChildren ?? []) {
    if (!p || p.type === 'comment') continue;
    if (p.type === 'keyword_separator' || p.type === 'list_splat_pattern') {
      position = null;
      continue;
    }
    if (p.type === 'dictionary_splat_pattern' || p.type === 'positional_separator') continue;
    const name = p.type === 'identifier' ? p.text : (p.childForFieldName('name') ?? p.namedChild(0))?.text;
    const at = index++;
    if (at === 0 || !name) continue; // self
    if (position !== null) position++;
    if (at === 1 || (at === 2 && ID_NAME.test(name))) continue; // scope, id
    out.push({ name, position: position === null ? null : position - 1, keyword: camelCase(name) });
  }
  return out;
}

/** The names a construct's id parameter goes by. */
const ID_NAME = /^(?:id_?|construct_id|[a-z_]*_id)$/;

/** `from stacks.data_stack import DataStack`, `from .api import Api as A`, `import stacks.api_stack as api`. */
export function importsOf(n: Node): CdkImport[] | null {
  if (n.type === 'import_from_statement') {
    const module = n.childForFieldName('module_name')?.text;
    if (!module) return [];
    const out: CdkImport[] = [];
    for (const c of n.childrenForFieldName('name')) {
      if (!c) continue;
      const name = c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text;
      const local = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : c.text;
      if (name && local) out.push({ local, module, name });
    }
    return out;
  }
  if (n.type === 'import_statement') {
    const out: CdkImport[] = [];
    for (const c of n.childrenForFieldName('name')) {
      if (!c) continue;
      const module = c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text;
      const local = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : c.text;
      if (module && local) out.push({ local, module, name: '*' });
    }
    return out;
  }
  return null;
}

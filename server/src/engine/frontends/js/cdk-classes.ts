/**
 * What a TypeScript or JavaScript CDK file says to the files that construct its classes:
 * each class (a stack, a construct of the project's own) with its constructor's
 * parameters after `scope` and `id` and the fields it assigns, and each import (ES
 * `import`, CommonJS `require`), so the reader (`infra/cdk/links.ts`) can follow
 * `new ApiStack(app, 'Api', { table: data.table })` into the class.
 */
import type { Node } from 'web-tree-sitter';
import { callsByMethod } from '../class-calls';
import type { CdkBase, CdkClass, CdkImport, CdkParam } from '../../model/cdk';
import { spanOf } from '../../syntax/span';
import type { CdkReader } from '../cdk-reader';

const PARAMETERS = new Set(['required_parameter', 'optional_parameter']);

export function classOf(n: Node, reader: CdkReader): CdkClass | null {
  if (n.type !== 'class_declaration' && n.type !== 'abstract_class_declaration') return null;
  const name = n.childForFieldName('name')?.text;
  const body = n.childForFieldName('body');
  if (!name || !body) return null;
  const fields: CdkClass['fields'] = [];
  for (const field of fieldNames(body)) {
    const value = fieldIn(body, field);
    if (value) fields.push({ name: field, value: reader.boundValue(value) });
  }
  const base = baseOf(n, body, reader);
  return {
    name,
    exported: n.parent?.type === 'export_statement',
    params: params(body),
    fields,
    ...(base ? { base } : {}),
    span: spanOf(n),
  };
}

/** `extends dynamodb.Table` with the constructor's `super(scope, id, {...})`: what a construction makes. */
function baseOf(n: Node, body: Node, reader: CdkReader): CdkBase | null {
  const heritage = n.namedChildren.find((c) => c?.type === 'class_heritage');
  // TypeScript wraps the expression in an `extends_clause`; JavaScript does not.
  const clause = heritage?.namedChildren.find((c) => c?.type === 'extends_clause');
  const extended = clause ? clause.childForFieldName('value') : heritage?.namedChild(0);
  if (!extended || (extended.type !== 'identifier' && extended.type !== 'member_expression')) return null;
  const ctor = constructorOf(body);
  const call = ctor ? superCall(ctor.childForFieldName('body')) : null;
  if (!ctor || !call) return null;
  const value = reader.superValue(call);
  if (value.kind !== 'call') return null;
  const names = (ctor.childForFieldName('parameters')?.namedChildren ?? [])
    .filter((c): c is Node => !!c && c.type !== 'comment')
    .map((p) => {
      const pattern = patternOf(p);
      return pattern?.type === 'identifier' ? pattern.text : null;
    });
  const last = value.args[value.args.length - 1];
  return {
    qualified: extended.text,
    scope: names[0] ?? null,
    id: names[1] ?? null,
    kwargs: null,
    args: value.args,
    props: last?.kind === 'object' ? last : null,
  };
}

/** The `super(...)` call among a constructor's statements. */
function superCall(block: Node | null): Node | null {
  for (const s of block?.namedChildren ?? []) {
    const e = s?.type === 'expression_statement' ? s.namedChild(0) : null;
    if (e?.type === 'call_expression' && e.childForFieldName('function')?.type === 'super') return e;
  }
  return null;
}

/** The names the class assigns: its fields with a value, and each `this.x = ...` outside nested classes. */
function fieldNames(body: Node): string[] {
  const names = new Set<string>();
  for (const m of body.namedChildren)
    if (m?.type === 'public_field_definition' && m.childForFieldName('value')) {
      const name = m.childForFieldName('name')?.text;
      if (name) names.add(name);
    }
  walkClassBody(body, (n) => {
    const name = n.type === 'assignment_expression' ? thisProperty(n.childForFieldName('left')) : null;
    if (name) names.add(name);
  });
  return [...names];
}

function constructorOf(body: Node): Node | null {
  for (const m of body.namedChildren)
    if (m?.type === 'method_definition' && m.childForFieldName('name')?.text === 'constructor') return m;
  return null;
}

/** The constructor's parameters after scope and id. */
function params(body: Node): CdkParam[] {
  const list = constructorOf(body)?.childForFieldName('parameters');
  const out: CdkParam[] = [];
  const all = (list?.namedChildren ?? []).filter((c): c is Node => !!c && c.type !== 'comment');
  all.forEach((p, position) => {
    if (position < 2) return; // scope, id
    const pattern = patternOf(p);
    if (pattern?.type === 'identifier') out.push({ name: pattern.text, position, keyword: null });
    else if (pattern?.type === 'object_pattern')
      for (const { name, member } of patternNames(pattern)) out.push({ name, position, keyword: null, member });
  });
  return out;
}

/** A parameter's pattern: TypeScript's `pattern` field, JavaScript's parameter itself, the left of a default. */
function patternOf(p: Node): Node | null {
  const pattern = PARAMETERS.has(p.type) ? p.childForFieldName('pattern') : p;
  return pattern?.type === 'assignment_pattern' ? pattern.childForFieldName('left') : pattern;
}

/** `{ table, q: queue, s = 1 }`: each name and the member it takes. */
function patternNames(pattern: Node): Array<{ name: string; member: string }> {
  const out: Array<{ name: string; member: string }> = [];
  for (const c of pattern.namedChildren) {
    if (c?.type === 'shorthand_property_identifier_pattern') out.push({ name: c.text, member: c.text });
    else if (c?.type === 'object_assignment_pattern') {
      const left = c.childForFieldName('left');
      if (left) out.push({ name: left.text, member: left.text });
    } else if (c?.type === 'pair_pattern') {
      const key = c.childForFieldName('key')?.text;
      const value = c.childForFieldName('value');
      const local = value?.type === 'assignment_pattern' ? value.childForFieldName('left') : value;
      if (key && local?.type === 'identifier') out.push({ name: local.text, member: key });
    }
  }
  return out;
}

/** `constructor(..., private readonly props: Props)`: the parameter a parameter property `this.props` is. */
export function parameterField(body: Node, name: string): Node | null {
  for (const p of constructorOf(body)?.childForFieldName('parameters')?.namedChildren ?? []) {
    if (!p || !PARAMETERS.has(p.type)) continue;
    const property = p.namedChildren.some((c) => c?.type === 'accessibility_modifier' || c?.text === 'readonly');
    const pattern = p.childForFieldName('pattern');
    if (property && pattern?.type === 'identifier' && pattern.text === name) return pattern;
  }
  return null;
}

/**
 * `const { table, queue: q } = props` in a block around `use`: the value taken apart
 * and the member `name` is, or null.
 */
export function destructured(use: Node, name: string): { value: Node; member: string } | null {
  for (let scope = use.parent; scope; scope = scope.parent) {
    if (scope.type !== 'statement_block' && scope.type !== 'program') continue;
    for (const stmt of scope.namedChildren) {
      if (stmt?.type !== 'lexical_declaration' && stmt?.type !== 'variable_declaration') continue;
      for (const d of stmt.namedChildren) {
        const pattern = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
        const value = d?.childForFieldName('value');
        if (pattern?.type !== 'object_pattern' || !value || isRequire(value)) continue;
        const found = patternNames(pattern).find((p) => p.name === name);
        if (found) return { value, member: found.member };
      }
    }
  }
  return null;
}

function isRequire(n: Node): boolean {
  return n.type === 'call_expression' && n.childForFieldName('function')?.text === 'require';
}

function stringValue(n: Node | null | undefined): string | null {
  if (n?.type !== 'string') return null;
  return n.namedChildren.map((c) => c?.text ?? '').join('');
}

/** The names an `import` or a top-level `const x = require('...')` binds. */
export function importsOf(n: Node): CdkImport[] | null {
  if (n.type === 'import_statement') {
    const module = stringValue(n.childForFieldName('source'));
    const clause = n.namedChildren.find((c) => c?.type === 'import_clause');
    if (module === null || !clause) return [];
    const out: CdkImport[] = [];
    for (const c of clause.namedChildren) {
      if (c?.type === 'identifier') out.push({ local: c.text, module, name: 'default' });
      else if (c?.type === 'namespace_import') {
        const local = c.namedChild(0)?.text;
        if (local) out.push({ local, module, name: '*' });
      } else if (c?.type === 'named_imports')
        for (const s of c.namedChildren) {
          if (s?.type !== 'import_specifier') continue;
          const name = s.childForFieldName('name')?.text;
          const local = s.childForFieldName('alias')?.text ?? name;
          if (name && local) out.push({ local, module, name });
        }
    }
    return out;
  }
  if ((n.type === 'lexical_declaration' || n.type === 'variable_declaration') && n.parent?.type === 'program') {
    const out: CdkImport[] = [];
    for (const d of n.namedChildren) {
      const value = d?.type === 'variable_declarator' ? d.childForFieldName('value') : null;
      if (!value || !isRequire(value)) continue;
      const module = stringValue(value.childForFieldName('arguments')?.namedChild(0));
      const pattern = d!.childForFieldName('name');
      if (module === null || !pattern) continue;
      if (pattern.type === 'identifier') out.push({ local: pattern.text, module, name: '*' });
      else if (pattern.type === 'object_pattern')
        for (const { name, member } of patternNames(pattern)) out.push({ local: name, module, name: member });
    }
    return out.length ? out : null;
  }
  return null;
}

/** `this.name`: a field of the enclosing class (`table = new Table(...)`) or an assignment `this.name = value` in it. */
export function fieldValue(use: Node, name: string): Node | null {
  let body: Node | null = use.parent;
  while (body && body.type !== 'class_body') body = body.parent;
  return body ? fieldIn(body, name) : null;
}

function fieldIn(body: Node, name: string): Node | null {
  // `constructor(..., private readonly props: Props)`: a parameter property is the parameter.
  const param = parameterField(body, name);
  if (param) return param;
  for (const m of body.namedChildren) {
    if (m?.type === 'public_field_definition' && m.childForFieldName('name')?.text === name) {
      const v = m.childForFieldName('value');
      if (v) return v;
    }
  }
  let found: Node | null = null;
  walkClassBody(body, (n) => {
    if (n.type !== 'assignment_expression' || thisProperty(n.childForFieldName('left')) !== name) return false;
    found = n.childForFieldName('right');
    return true;
  });
  return found;
}

const FUNCTIONS = new Set(['method_definition', 'function_declaration', 'function_expression', 'arrow_function']);

/**
 * A helper method's parameter, where its class calls the method once
 * (`this.createIntegration(id, lambdaFunc, props.httpApi)` for `private
 * createIntegration(id: string, fn: NodejsFunction, httpApi: HttpApi)`): the argument
 * given for it there. Null for another name, a method its class calls more than once
 * (each call would give its own value), a static method, or a use inside a function nested
 * in the method (a callback's parameter may be the name).
 */
export function methodArgument(use: Node, name: string): Node | null {
  let fn: Node | null = use.parent;
  while (fn && !FUNCTIONS.has(fn.type)) fn = fn.parent;
  if (fn?.type !== 'method_definition' || fn.parent?.type !== 'class_body' || isStatic(fn)) return null;
  const method = fn.childForFieldName('name')?.text;
  if (!method || method === 'constructor') return null;
  const parameters = parameterNodes(fn);
  const position = parameters.findIndex((p) => patternOf(p)?.text === name);
  if (position < 0 || patternOf(parameters[position])?.type !== 'identifier') return null;
  const calls = thisCalls(fn.parent).get(method) ?? [];
  if (calls.length !== 1) return null;
  const args = (calls[0].childForFieldName('arguments')?.namedChildren ?? []).filter(
    (c): c is Node => !!c && c.type !== 'comment',
  );
  if (args.slice(0, position + 1).some((a) => a.type === 'spread_element')) return null;
  return args[position] ?? null;
}

/**
 * What a helper method of the class around `call` returns, for `this.createTable(id)`:
 * the expression of its one `return`, or null (no such method, a static one, no `return`
 * or several).
 */
export function returnedByMethod(call: Node): Node | null {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'member_expression' || fn.childForFieldName('object')?.type !== 'this') return null;
  const name = fn.childForFieldName('property')?.text;
  let body: Node | null = call.parent;
  while (body && body.type !== 'class_body') body = body.parent;
  const method = body?.namedChildren.find(
    (m) => m?.type === 'method_definition' && m.childForFieldName('name')?.text === name && !isStatic(m),
  );
  const block = method?.childForFieldName('body');
  const returns = (block?.namedChildren ?? []).filter((s) => s?.type === 'return_statement');
  return returns.length === 1 ? (returns[0]!.namedChild(0) ?? null) : null;
}

function parameterNodes(fn: Node): Node[] {
  return (fn.childForFieldName('parameters')?.namedChildren ?? []).filter(
    (c): c is Node => !!c && c.type !== 'comment',
  );
}

function isStatic(method: Node): boolean {
  return method.children.some((c) => c?.type === 'static');
}

/** The calls `this.m(...)` in a class body, by method name, outside nested classes. */
function thisCalls(body: Node): Map<string, Node[]> {
  return callsByMethod(body, walkClassBody, (n) =>
    n.type === 'call_expression' ? thisProperty(n.childForFieldName('function')) : null,
  );
}

/** `this.name`: the name; null for anything else. */
function thisProperty(n: Node | null): string | null {
  if (n?.type !== 'member_expression' || n.childForFieldName('object')?.type !== 'this') return null;
  return n.childForFieldName('property')?.text ?? null;
}

/**
 * Every node of a class body but those of classes nested in it (they have their own
 * `this`), in document order; `visit` returning true stops the walk.
 */
function walkClassBody(body: Node, visit: (n: Node) => boolean | void): void {
  const walk = (n: Node): boolean => {
    if (visit(n)) return true;
    for (const c of n.namedChildren)
      if (c && c.type !== 'class' && c.type !== 'class_declaration' && walk(c)) return true;
    return false;
  };
  walk(body);
}

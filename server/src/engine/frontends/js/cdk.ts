/**
 * AWS CDK code in TypeScript and JavaScript, read into the language-neutral `CdkFile`
 * (model/cdk.ts): each statement's expression with the names the file binds replaced
 * by their values (`const table = new TableV2(...)`, `this.table = ...`, a class field),
 * so `environment: { TABLE_NAME: table.tableName }` reaches the table's `new`. Nothing
 * is run; what is not read stays `opaque` or a `name`.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { CdkFile, CdkValue } from '../../model/cdk';
import { spanOf } from '../../syntax/span';
import { CdkReader, joinedParts, nameOf, opaque, readCdkFile, type CdkPart } from '../cdk-reader';
import { classOf, destructured, fieldValue, importsOf, methodArgument, returnedByMethod } from './cdk-classes';

const WRAPPERS = new Set([
  'parenthesized_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'type_assertion',
  'await_expression',
]);
const DECLARATIONS = new Set(['lexical_declaration', 'variable_declaration']);

export function readCdk(tree: Tree, file: string): CdkFile {
  return readCdkFile(tree, file, new Reader(), { expressionOf: statementExpression, classOf, importsOf });
}

/** An expression statement's expression (an assignment's right side), what a declaration or class field binds, or what a `return` gives. */
function statementExpression(n: Node): Node | null {
  if (n.type === 'expression_statement') {
    const e = n.namedChild(0);
    return e?.type === 'assignment_expression' ? e.childForFieldName('right') : e;
  }
  if (n.type === 'variable_declarator' || n.type === 'public_field_definition') return n.childForFieldName('value');
  // `return new Table(stack, "data", {...})` at the end of an SST v2 stack function.
  if (n.type === 'return_statement') return n.namedChild(0);
  return null;
}

class Reader extends CdkReader {
  protected read(n: Node, d: number): CdkValue {
    const span = spanOf(n);
    if (WRAPPERS.has(n.type)) {
      const inner = n.childForFieldName('expression') ?? n.namedChild(0);
      return inner ? this.value(inner, d) : opaque(n);
    }
    switch (n.type) {
      case 'string':
        return { kind: 'text', text: stringText(n), span };
      case 'template_string':
        return this.template(n, d);
      case 'number':
        return Number.isFinite(Number(n.text.replace(/_/g, '')))
          ? { kind: 'number', value: Number(n.text.replace(/_/g, '')), span }
          : opaque(n);
      case 'true':
      case 'false':
        return { kind: 'bool', value: n.type === 'true', span };
      case 'object':
        return this.object(n, d);
      case 'array':
        return { kind: 'array', items: this.list(n.namedChildren, d), span };
      case 'new_expression':
        return this.construct(n, d);
      case 'call_expression':
        return this.call(n, d);
      case 'member_expression':
        return this.member(n, d);
      case 'identifier':
        return this.name(n, d);
      case 'binary_expression': {
        const operator = n.childForFieldName('operator')?.text;
        if (operator === '+') return this.concat(n, d);
        if (this.inSuper && (operator === '??' || operator === '||')) return this.otherwise(n, d);
        return opaque(n);
      }
      default:
        return opaque(n);
    }
  }

  private list(nodes: Array<Node | null>, depth: number): CdkValue[] {
    return nodes.filter((c): c is Node => c !== null && c.type !== 'comment').map((c) => this.value(c, depth));
  }

  private object(n: Node, depth: number): CdkValue {
    const entries: Array<{ key: string; value: CdkValue }> = [];
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'pair') {
        const k = c.childForFieldName('key');
        const v = c.childForFieldName('value');
        const key = k?.type === 'string' ? stringText(k) : k?.type === 'computed_property_name' ? null : k?.text;
        if (key && v) entries.push({ key, value: this.value(v, depth) });
      } else if (c.type === 'shorthand_property_identifier') {
        entries.push({ key: c.text, value: this.name(c, depth) });
      } else if (c.type === 'spread_element' && this.inSuper) {
        const spread = c.namedChild(0);
        if (spread) entries.push({ key: '...', value: this.value(spread, depth) });
      }
    }
    return { kind: 'object', entries, span: spanOf(n) };
  }

  private construct(n: Node, depth: number): CdkValue {
    const ctor = n.childForFieldName('constructor');
    const args = this.list(n.childForFieldName('arguments')?.namedChildren ?? [], depth);
    const qualified = ctor?.text ?? '';
    const last = args[args.length - 1];
    return {
      kind: 'new',
      className: qualified.split('.').pop() ?? qualified,
      qualified,
      args,
      props: last?.kind === 'object' ? last : null,
      at: n.startIndex,
      span: spanOf(n),
    };
  }

  private call(n: Node, depth: number): CdkValue {
    // `this.createFunction(...)`: what the class's helper method returns (a construct it made).
    const returned = returnedByMethod(n);
    if (returned) return this.bound(returned, n, depth);
    const fn = n.childForFieldName('function');
    const args = this.list(n.childForFieldName('arguments')?.namedChildren ?? [], depth);
    const last = args[args.length - 1];
    const props = last?.kind === 'object' ? last : null;
    if (fn?.type === 'member_expression') {
      const object = fn.childForFieldName('object');
      const name = fn.childForFieldName('property')?.text ?? '';
      return { kind: 'call', receiver: object ? this.value(object, depth) : null, name, args, props, span: spanOf(n) };
    }
    return { kind: 'call', receiver: null, name: fn?.text ?? '', args, props, span: spanOf(n) };
  }

  private member(n: Node, depth: number): CdkValue {
    const object = n.childForFieldName('object');
    const name = n.childForFieldName('property')?.text ?? '';
    if (object?.type === 'this') {
      const bound = fieldValue(n, name);
      if (bound) return this.bound(bound, n, depth);
    }
    return { kind: 'member', object: object ? this.value(object, depth) : nameOf(n), name, span: spanOf(n) };
  }

  private name(n: Node, depth: number): CdkValue {
    const bound = declarationValue(n, n.text);
    if (bound) return this.bound(bound, n, depth);
    // `const { table } = props`: the member `table` of what the pattern takes apart.
    const from = destructured(n, n.text);
    if (from) return { kind: 'member', object: this.value(from.value, depth), name: from.member, span: spanOf(n) };
    // A helper method's parameter: what the class's one call of it passes.
    const given = methodArgument(n, n.text);
    if (given) return this.bound(given, n, depth);
    return nameOf(n);
  }

  /** `a ?? b`, `a || b` in a `super(...)` call: `b` when the construction gives no `a`. */
  private otherwise(n: Node, depth: number): CdkValue {
    const sides = [n.childForFieldName('left'), n.childForFieldName('right')].filter((c): c is Node => !!c);
    const args = sides.map((c) => this.value(c, depth));
    return { kind: 'call', receiver: null, name: '??', args, props: null, span: spanOf(n) };
  }

  private template(n: Node, depth: number): CdkValue {
    const parts: CdkPart[] = [];
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'string_fragment' || c.type === 'escape_sequence') parts.push({ text: unescape(c.text) });
      else if (c.type === 'template_substitution') {
        const e = c.namedChild(0);
        if (e) parts.push({ hole: this.value(e, depth) });
      }
    }
    return { kind: 'template', parts, span: spanOf(n) };
  }

  private concat(n: Node, depth: number): CdkValue {
    const sides = [n.childForFieldName('left'), n.childForFieldName('right')].filter((c): c is Node => !!c);
    return { kind: 'template', parts: joinedParts(sides.map((c) => this.value(c, depth))), span: spanOf(n) };
  }
}

function stringText(n: Node): string {
  return n.namedChildren
    .map((c) => (c?.type === 'string_fragment' || c?.type === 'escape_sequence' ? unescape(c.text) : ''))
    .join('');
}

function unescape(s: string): string {
  if (!s.startsWith('\\')) return s;
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
  return map[s[1]] ?? s.slice(1);
}

/**
 * What `name` is declared as in the scopes around `use`: `const name = value` in an
 * enclosing block (before or after the use, as a closure may read it), or null for a
 * parameter, an import or an unknown name.
 */
function declarationValue(use: Node, name: string): Node | null {
  for (let scope = use.parent; scope; scope = scope.parent) {
    if (scope.type !== 'statement_block' && scope.type !== 'program' && scope.type !== 'class_body') continue;
    for (const stmt of scope.namedChildren) {
      if (!stmt) continue;
      const decl = stmt.type === 'export_statement' ? stmt.childForFieldName('declaration') : stmt;
      if (!decl || !DECLARATIONS.has(decl.type)) continue;
      for (const d of decl.namedChildren) {
        if (d?.type !== 'variable_declarator') continue;
        if (d.childForFieldName('name')?.text === name) return d.childForFieldName('value');
      }
    }
  }
  return null;
}

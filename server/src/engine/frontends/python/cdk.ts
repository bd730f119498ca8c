/**
 * AWS CDK code in Python, read into the language-neutral `CdkFile` (model/cdk.ts). A
 * call of a capitalised name (`dynamodb.Table(self, "Votes", ...)`) makes a construct;
 * keyword arguments are its props. Keyword, method and attribute names come camelCased
 * (`partition_key` → `partitionKey`, `add_environment` → `addEnvironment`), the way the
 * CDK's TypeScript names them, so one reader serves both languages; a dict's keys stay
 * as written. Names the file binds (`table = ...`, `self.table = ...`) are replaced by
 * their values. Nothing is run.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { CdkFile, CdkValue } from '../../model/cdk';
import { spanOf } from '../../syntax/span';
import { CdkReader, joinedParts, nameOf, opaque, readCdkFile, type CdkPart } from '../cdk-reader';
import { classOf, importsOf, selfAttribute, walkClassBody } from './cdk-classes';
import { methodArgument, returnedByMethod } from './cdk-methods';

/** `partition_key` → `partitionKey`; a constant's name (`PYTHON_3_12`, `STRING`) stays. */
export function camelCase(name: string): string {
  if (!/[a-z]/.test(name)) return name;
  return name.replace(/(?<=[A-Za-z0-9])_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function readCdk(tree: Tree, file: string): CdkFile {
  return readCdkFile(tree, file, new Reader(), {
    expressionOf: statementExpression,
    classOf: (n, reader) => classOf(n, reader, camelCase),
    importsOf,
  });
}

/** An expression statement's expression, or an assignment's right side. */
function statementExpression(n: Node): Node | null {
  if (n.type !== 'expression_statement') return null;
  const e = n.namedChild(0);
  return e?.type === 'assignment' ? e.childForFieldName('right') : e;
}

class Reader extends CdkReader {
  protected read(n: Node, d: number): CdkValue {
    const span = spanOf(n);
    switch (n.type) {
      case 'parenthesized_expression':
      case 'await': {
        const inner = n.namedChild(0);
        return inner ? this.value(inner, d) : opaque(n);
      }
      case 'string':
        return this.string(n, d);
      case 'concatenated_string':
        return this.concat(n.namedChildren, n, d);
      case 'integer':
      case 'float': {
        const v = Number(n.text.replace(/_/g, ''));
        return Number.isFinite(v) ? { kind: 'number', value: v, span } : opaque(n);
      }
      case 'true':
      case 'false':
        return { kind: 'bool', value: n.type === 'true', span };
      case 'dictionary':
        return this.dictionary(n, d);
      case 'list':
      case 'tuple':
        return {
          kind: 'array',
          items: n.namedChildren
            .filter((c): c is Node => c !== null && c.type !== 'comment')
            .map((c) => this.value(c, d)),
          span,
        };
      case 'call':
        return this.call(n, d);
      case 'attribute':
        return this.attribute(n, d);
      case 'identifier':
        return this.name(n, d);
      case 'boolean_operator': {
        // `props_name or "default"` in a `super().__init__(...)`: the default when the construction gives none.
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        if (!this.inSuper || n.childForFieldName('operator')?.text !== 'or' || !left || !right) return opaque(n);
        return {
          kind: 'call',
          receiver: null,
          name: '??',
          args: [this.value(left, d), this.value(right, d)],
          props: null,
          span,
        };
      }
      case 'binary_operator':
        return n.childForFieldName('operator')?.text === '+'
          ? this.concat([n.childForFieldName('left'), n.childForFieldName('right')], n, d)
          : opaque(n);
      default:
        return opaque(n);
    }
  }

  private string(n: Node, depth: number): CdkValue {
    const parts: CdkPart[] = [];
    let holes = false;
    for (const c of n.namedChildren) {
      if (c?.type === 'string_content') parts.push({ text: unescape(c.text) });
      else if (c?.type === 'interpolation') {
        const e = c.childForFieldName('expression') ?? c.namedChild(0);
        if (e) parts.push({ hole: this.value(e, depth) });
        holes = true;
      }
    }
    if (!holes) return { kind: 'text', text: parts.map((p) => ('text' in p ? p.text : '')).join(''), span: spanOf(n) };
    return { kind: 'template', parts, span: spanOf(n) };
  }

  private concat(nodes: Array<Node | null>, n: Node, depth: number): CdkValue {
    const parts = joinedParts(nodes.filter((c): c is Node => !!c).map((c) => this.value(c, depth)));
    if (parts.every((p) => 'text' in p))
      return { kind: 'text', text: parts.map((p) => ('text' in p ? p.text : '')).join(''), span: spanOf(n) };
    return { kind: 'template', parts, span: spanOf(n) };
  }

  private dictionary(n: Node, depth: number): CdkValue {
    const entries: Array<{ key: string; value: CdkValue }> = [];
    for (const p of n.namedChildren) {
      if (p?.type !== 'pair') continue;
      const k = p.childForFieldName('key');
      const v = p.childForFieldName('value');
      const key = k ? this.value(k, depth) : null;
      if (key?.kind === 'text' && v) entries.push({ key: key.text, value: this.value(v, depth) });
    }
    return { kind: 'object', entries, span: spanOf(n) };
  }

  private call(n: Node, depth: number): CdkValue {
    // `self._create_function(...)`: what the class's helper method returns (a construct it made).
    const returned = returnedByMethod(n);
    if (returned) return this.bound(returned, n, depth);
    const fn = n.childForFieldName('function');
    const args: CdkValue[] = [];
    const keywords: Array<{ key: string; value: CdkValue }> = [];
    const list = n.childForFieldName('arguments');
    for (const a of list?.namedChildren ?? []) {
      if (!a || a.type === 'comment') continue;
      if (a.type === 'keyword_argument') {
        const name = a.childForFieldName('name')?.text;
        const v = a.childForFieldName('value');
        if (name && v) keywords.push({ key: camelCase(name), value: this.value(v, depth) });
      } else if (a.type === 'dictionary_splat') {
        const spread = a.namedChild(0);
        const value = spread ? this.value(spread, depth) : null;
        if (value && this.inSuper) keywords.push({ key: '...', value });
        // `Function(scope, 'Id', handler=..., **lambda_defaults)`: a dict the file writes
        // gives its entries as keywords (`code`, `runtime`); anything else is left unread.
        else if (value?.kind === 'object')
          for (const e of value.entries) keywords.push({ key: camelCase(e.key), value: e.value });
      } else if (a.type !== 'dictionary_splat' && a.type !== 'list_splat') args.push(this.value(a, depth));
    }
    const span = spanOf(n);
    const props: CdkValue | null = keywords.length
      ? { kind: 'object', entries: keywords, span: spanOf(list ?? n) }
      : null;
    const last = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.text;
    if (fn && last && /^_?[A-Z]/.test(last) && (fn.type === 'identifier' || fn.type === 'attribute')) {
      const qualified = fn.text;
      return { kind: 'new', className: last.replace(/^_/, ''), qualified, args, props, at: n.startIndex, span };
    }
    if (fn?.type === 'attribute') {
      const object = fn.childForFieldName('object');
      return {
        kind: 'call',
        receiver: object ? this.value(object, depth) : null,
        name: camelCase(last ?? ''),
        args,
        props,
        span,
      };
    }
    return { kind: 'call', receiver: null, name: fn?.text ?? '', args, props, span };
  }

  private attribute(n: Node, depth: number): CdkValue {
    const object = n.childForFieldName('object');
    const name = n.childForFieldName('attribute')?.text ?? '';
    if (object?.type === 'identifier' && object.text === 'self') {
      const bound = fieldValue(n, name);
      if (bound) return this.bound(bound, n, depth);
    }
    return {
      kind: 'member',
      object: object ? this.value(object, depth) : nameOf(n),
      name: camelCase(name),
      span: spanOf(n),
    };
  }

  private name(n: Node, depth: number): CdkValue {
    // A name assigned in a block around it, else a helper method's parameter: what the class's one call of it passes.
    const bound = assignedValue(n, n.text) ?? methodArgument(n, n.text);
    return bound ? this.bound(bound, n, depth) : nameOf(n);
  }
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}

/** The single-name assignment `name = value` at the top of a block around `use` (function body, module). */
function assignedValue(use: Node, name: string): Node | null {
  for (let scope = use.parent; scope; scope = scope.parent) {
    if (scope.type !== 'block' && scope.type !== 'module') continue;
    // A class body's names are not in scope inside its methods.
    if (scope.parent?.type === 'class_definition') continue;
    for (const stmt of scope.namedChildren) {
      const a = stmt?.type === 'expression_statement' ? stmt.namedChild(0) : null;
      if (a?.type !== 'assignment') continue;
      const left = a.childForFieldName('left');
      if (left?.type === 'identifier' && left.text === name) return a.childForFieldName('right');
    }
  }
  return null;
}

/** `self.name = value` anywhere in the enclosing class. */
function fieldValue(use: Node, name: string): Node | null {
  let cls: Node | null = use.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  const body = cls?.childForFieldName('body');
  if (!body) return null;
  let found: Node | null = null;
  walkClassBody(body, (n) => {
    if (n.type !== 'assignment' || selfAttribute(n.childForFieldName('left')) !== name) return false;
    found = n.childForFieldName('right');
    return true;
  });
  return found;
}

/**
 * What reading AWS CDK code into a `CdkFile` (model/cdk.ts) is in any language: each
 * statement's expression read into a `CdkValue`, within one budget per file, with a
 * name bound in the file read where it is bound, once. The front-ends (js/cdk.ts,
 * python/cdk.ts) say which syntax makes which value; the infrastructure reader
 * (infra/cdk/) reads the values and never the syntax.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { CdkClass, CdkFile, CdkImport, CdkValue } from '../model/cdk';
import { spanOf } from '../syntax/span';

/** How deep one value is read, and how many nodes one file may read: finite on any input. */
const MAX_DEPTH = 40;
const MAX_STEPS = 200_000;

export type CdkPart = { text: string } | { hole: CdkValue };

export abstract class CdkReader {
  private steps = 0;
  /** Declarations being read: a name bound to itself (`let a = a.b`) is not followed again. */
  private readonly open = new Set<number>();
  /** A bound value read once: a construct named in many places is read once. */
  private readonly memo = new Map<number, CdkValue>();
  /**
   * Reading a constructor's `super(...)` call: spreads (`...props`, `**kwargs`) are kept
   * as entries keyed `...` and `a ?? b` as a call named `??`, so a construction of the
   * class can put its own props in (infra/cdk/links.ts). Off elsewhere: an environment
   * with a spread lists only the variables it writes out.
   */
  inSuper = false;

  /** The value of an expression; past the file's budget, or too deep, it stays as written. */
  value(n: Node, depth: number): CdkValue {
    if (depth > MAX_DEPTH || ++this.steps > MAX_STEPS) return opaque(n);
    return this.read(n, depth + 1);
  }

  /** The language's reading of one expression; its parts are read with `value(part, depth)`. */
  protected abstract read(n: Node, depth: number): CdkValue;

  /** A value the file binds (a field's), read once as the names bound to it are. */
  boundValue(value: Node): CdkValue {
    return this.bound(value, value, 0);
  }

  /** A constructor's `super(...)` call, read with its spreads and defaults kept. */
  superValue(call: Node): CdkValue {
    this.inSuper = true;
    try {
      return this.value(call, 0);
    } finally {
      this.inSuper = false;
    }
  }

  /** The value a name is bound to, read where it is declared (once at a time). */
  protected bound(value: Node, use: Node, depth: number): CdkValue {
    const known = this.memo.get(value.id);
    if (known) return known;
    if (this.open.has(value.id)) return nameOf(use);
    this.open.add(value.id);
    try {
      const v = this.value(value, depth);
      this.memo.set(value.id, v);
      return v;
    } finally {
      this.open.delete(value.id);
    }
  }
}

/** What a language says of its syntax for `readCdkFile`. */
export interface CdkSyntax {
  /** The expression a node stands for as a statement (an expression statement's, what a declaration binds), or null. */
  expressionOf(n: Node): Node | null;
  /** A class a node declares (its parameters and fields read with `reader`), or null. */
  classOf(n: Node, reader: CdkReader): CdkClass | null;
  /** The names an import statement binds, or null for a node that is none. */
  importsOf(n: Node): CdkImport[] | null;
}

/** A file's statements in text order, the class each is in, its classes and its imports. */
export function readCdkFile(tree: Tree, file: string, reader: CdkReader, syntax: CdkSyntax): CdkFile {
  const out: CdkFile = { file, statements: [], classOf: [], classes: [], imports: [] };
  const visit = (n: Node, inClass: number | null) => {
    const imports = syntax.importsOf(n);
    if (imports) return void out.imports.push(...imports);
    const e = syntax.expressionOf(n);
    if (e) {
      out.statements.push(reader.value(e, 0));
      out.classOf.push(inClass);
    }
    const cls = syntax.classOf(n, reader);
    if (cls) out.classes.push(cls);
    const within = cls ? out.classes.length - 1 : inClass;
    for (const c of n.namedChildren) if (c) visit(c, within);
  };
  visit(tree.rootNode, null);
  return out;
}

/** The parts of `a + b + ...`: texts and templates spliced in, anything else a hole. */
export function joinedParts(values: CdkValue[]): CdkPart[] {
  const parts: CdkPart[] = [];
  for (const v of values) {
    if (v.kind === 'text') parts.push({ text: v.text });
    else if (v.kind === 'template') parts.push(...v.parts);
    else parts.push({ hole: v });
  }
  return parts;
}

export const nameOf = (n: Node): CdkValue => ({ kind: 'name', name: n.text, span: spanOf(n) });

export const opaque = (n: Node): CdkValue => ({ kind: 'opaque', text: n.text, span: spanOf(n) });

/**
 * A template as a small plain tree with positions: YAML (with CloudFormation's
 * short-form tags) and JSON both parse into it, so the readers see one shape. A
 * short-form intrinsic (`!Ref X`, `!Sub "..."`, `!GetAtt [T, Arn]`) becomes the map its
 * long form writes (`{ Ref: X }`, `{ "Fn::Sub": ... }`), so `!Ref` and `Ref:` read alike.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { Span } from '../../model';

export type TNode =
  | { kind: 'scalar'; value: string | number | boolean | null; span: Span }
  /** `file`: read in another file than the one being read (a `serverless.ts` function module). */
  | { kind: 'map'; entries: TEntry[]; span: Span; file?: string }
  | { kind: 'seq'; items: TNode[]; span: Span };

export interface TEntry {
  key: string;
  value: TNode;
}

/** CloudFormation's short-form tags and the long-form key each stands for. */
const INTRINSICS: Record<string, string> = {
  '!Ref': 'Ref',
  '!Condition': 'Condition',
  '!Sub': 'Fn::Sub',
  '!GetAtt': 'Fn::GetAtt',
  '!If': 'Fn::If',
  '!Join': 'Fn::Join',
  '!Select': 'Fn::Select',
  '!Split': 'Fn::Split',
  '!FindInMap': 'Fn::FindInMap',
  '!ImportValue': 'Fn::ImportValue',
  '!GetAZs': 'Fn::GetAZs',
  '!Base64': 'Fn::Base64',
  '!Cidr': 'Fn::Cidr',
  '!Equals': 'Fn::Equals',
  '!Not': 'Fn::Not',
  '!And': 'Fn::And',
  '!Or': 'Fn::Or',
  '!Transform': 'Fn::Transform',
};

/** Every tag in every form (scalar, list, map) parses as its plain value; the tree walk reads the tag. */
const CUSTOM_TAGS = Object.keys(INTRINSICS).flatMap((tag) => [
  { tag, resolve: (v: string) => v },
  { tag, collection: 'seq' as const, resolve: (v: unknown) => v },
  { tag, collection: 'map' as const, resolve: (v: unknown) => v },
]);

export interface ParsedTree {
  root: TNode | null;
  /** The first error, as a reason: a document with an error is not read at all. */
  error: string | null;
}

/** Parses YAML or JSON text into the plain tree; never throws. Unknown tags read as their plain value. */
export function parseTree(text: string): ParsedTree {
  const lines = new LineCounter();
  let doc: Document;
  try {
    // uniqueKeys off: a repeated key is a mistake the deploy tool reports, not a reason to read nothing.
    doc = parseDocument(text, { customTags: CUSTOM_TAGS, lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  } catch (e) {
    return { root: null, error: `malformed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (doc.errors.length > 0) return { root: null, error: `malformed: ${firstLine(doc.errors[0].message)}` };
  const spanOf = (range: readonly number[] | null | undefined): Span => {
    const [a, b] = range ?? [0, 0];
    const s = lines.linePos(a);
    const e = lines.linePos(b);
    return { startLine: s.line - 1, startColumn: s.col - 1, endLine: e.line - 1, endColumn: e.col - 1 };
  };
  const seen = new Set<unknown>();
  const walk = (n: unknown, depth: number): TNode | null => {
    if (depth > 200) return null;
    if (isAlias(n)) n = n.resolve(doc);
    if (!n || seen.has(n)) return null;
    let out: TNode | null = null;
    if (isScalar(n)) {
      const v = n.value;
      const value =
        typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : v == null ? null : String(v);
      out = { kind: 'scalar', value, span: spanOf(n.range) };
    } else if (isSeq(n) || isMap(n)) {
      seen.add(n);
      if (isSeq(n)) {
        const items = n.items.map((i) => walk(i, depth + 1)).filter((i): i is TNode => i !== null);
        out = { kind: 'seq', items, span: spanOf(n.range) };
      } else {
        const entries: TEntry[] = [];
        for (const p of n.items) {
          if (!isPair(p)) continue;
          const key = isScalar(p.key) ? String(p.key.value) : null;
          const value = walk(p.value, depth + 1) ?? {
            kind: 'scalar',
            value: null,
            span: spanOf((p.key as { range?: number[] })?.range),
          };
          // `<<: *defaults` merges the anchored map's entries in.
          if (key === '<<' && value.kind === 'map') entries.push(...value.entries);
          else if (key !== null) entries.push({ key, value });
        }
        out = { kind: 'map', entries, span: spanOf(n.range) };
      }
      seen.delete(n);
    }
    const tag = (n as { tag?: string }).tag;
    if (out && tag && INTRINSICS[tag])
      return { kind: 'map', entries: [{ key: INTRINSICS[tag], value: out }], span: out.span };
    return out;
  };
  return { root: walk(doc.contents, 0), error: null };
}

function firstLine(s: string): string {
  return s.split('\n')[0].trim();
}

/** The value under `key` of a map node, else undefined. */
export function get(n: TNode | null | undefined, key: string): TNode | undefined {
  if (n?.kind !== 'map') return undefined;
  for (let i = n.entries.length - 1; i >= 0; i--) if (n.entries[i].key === key) return n.entries[i].value;
  return undefined;
}

/** Follows a path of keys. */
export function at(n: TNode | null | undefined, ...keys: string[]): TNode | undefined {
  let cur: TNode | undefined = n ?? undefined;
  for (const k of keys) cur = get(cur, k);
  return cur;
}

/** A scalar's value as text (numbers and booleans too), else null. */
export function scalarText(n: TNode | null | undefined): string | null {
  return n?.kind === 'scalar' && n.value !== null ? String(n.value) : null;
}

export function scalarNumber(n: TNode | null | undefined): number | null {
  if (n?.kind !== 'scalar') return null;
  const v = typeof n.value === 'number' ? n.value : Number(n.value);
  return Number.isFinite(v) ? v : null;
}

export function entriesOf(n: TNode | null | undefined): TEntry[] {
  return n?.kind === 'map' ? n.entries : [];
}

export function itemsOf(n: TNode | null | undefined): TNode[] {
  return n?.kind === 'seq' ? n.items : n ? [n] : [];
}

/** The one intrinsic a map is (`{ Ref: X }`, `{ "Fn::GetAtt": [...] }`), else null. */
export function intrinsic(n: TNode | null | undefined): { fn: string; arg: TNode } | null {
  if (n?.kind !== 'map' || n.entries.length !== 1) return null;
  const { key, value } = n.entries[0];
  return key === 'Ref' || key === 'Condition' || key.startsWith('Fn::') ? { fn: key, arg: value } : null;
}

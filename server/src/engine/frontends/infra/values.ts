/**
 * Template values as ShardLens needs them: a table name as text with its deploy-time
 * holes (`!Sub "${Stage}-votes"` → `{$Stage}-votes`, the way `TableRef` kind `template`
 * names them), an environment variable's value (text, a table, or kept as written), and
 * the resource a `Ref` / `GetAtt` points at.
 */
import type { EnvValue } from '../../model/entry-point';
import { intrinsic, itemsOf, scalarText, type TNode } from './tree';

/** `Ref X`, `GetAtt X.Arn`, `GetAtt [X, Arn]`: the logical id it points at, else null. */
export function referencedId(n: TNode | null | undefined): string | null {
  const i = intrinsic(n);
  if (!i) return null;
  if (i.fn === 'Ref') return scalarText(i.arg);
  if (i.fn === 'Fn::GetAtt') {
    const parts = itemsOf(i.arg);
    if (parts.length === 1) return scalarText(parts[0])?.split('.')[0] ?? null;
    return scalarText(parts[0]);
  }
  return null;
}

/** The attribute a `GetAtt` reads (`Arn`, `StreamArn`), else null. */
export function referencedAttribute(n: TNode | null | undefined): string | null {
  const i = intrinsic(n);
  if (i?.fn !== 'Fn::GetAtt') return null;
  const parts = itemsOf(i.arg);
  if (parts.length === 1) return scalarText(parts[0])?.split('.').slice(1).join('.') || null;
  return scalarText(parts[1]);
}

/**
 * A value as text with holes: literal text as it is, `${X}` of a `Sub` and a `Ref` of a
 * parameter as `{$X}`, a `Join` joined. Null when any part is something else (an `If`,
 * a `GetAtt`, a lookup): no honest text can stand for it.
 */
export function textWithHoles(n: TNode | null | undefined, tables: ReadonlySet<string>, depth = 0): string | null {
  if (!n || depth > 20) return null;
  const plain = scalarText(n);
  if (plain !== null) return plain;
  const i = intrinsic(n);
  if (!i) return null;
  if (i.fn === 'Ref') {
    const id = scalarText(i.arg);
    return id && !tables.has(id) ? `{$${id}}` : null;
  }
  if (i.fn === 'Fn::Sub') {
    const [body] = itemsOf(i.arg);
    const text = scalarText(body);
    // `${!Literal}` is a literal `${Literal}`; every other `${...}` a hole.
    return text === null
      ? null
      : text.replace(/\$\{(!?)([^}]*)\}/g, (_, bang: string, name: string) => (bang ? `\${${name}}` : `{$${name}}`));
  }
  if (i.fn === 'Fn::Join') {
    const [sep, list] = itemsOf(i.arg);
    const parts = itemsOf(list).map((p) => textWithHoles(p, tables, depth + 1));
    const s = scalarText(sep) ?? '';
    return parts.every((p): p is string => p !== null) ? parts.join(s) : null;
  }
  return null;
}

/** Whether a text with holes has any (`{$Stage}-votes`). */
export function hasHoles(text: string): boolean {
  return /\{\$[^}]*\}/.test(text);
}

/** A function's environment variable: a table the template declares, text, or the value as written. */
export function envValueOf(n: TNode, tables: ReadonlySet<string>, source: string): EnvValue {
  const id = referencedId(n);
  const attr = referencedAttribute(n);
  // `Ref` of a table is its name; `GetAtt T.Arn` is not a name the SDK takes as TableName... but
  // TableName accepts an ARN too, so both name the table.
  if (id && tables.has(id) && (attr === null || attr === 'Arn')) return { kind: 'table', logicalId: id };
  const text = textWithHoles(n, tables);
  if (text !== null) return hasHoles(text) ? { kind: 'template', text } : { kind: 'text', text };
  return { kind: 'opaque', text: writtenAs(n, source) };
}

/** The node's text as the file writes it, on one line. */
export function writtenAs(n: TNode, source: string): string {
  const lines = source.split('\n').slice(n.span.startLine, n.span.endLine + 1);
  if (lines.length === 0) return '';
  if (lines.length === 1) return lines[0].slice(n.span.startColumn, n.span.endColumn).trim();
  lines[0] = lines[0].slice(n.span.startColumn);
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, n.span.endColumn);
  return lines
    .map((l) => l.trim())
    .join(' ')
    .trim();
}

/**
 * Every logical id a value mentions, in order: `Ref`s, `GetAtt`s and a `Sub`'s `${X}` /
 * `${X.Arn}`, through `Join`s and lists (`!Join ['/', [integrations, !Ref Integration]]`,
 * `!Sub arn:...:functions/${Fn.Arn}/invocations`). Pseudo parameters (`AWS::Region`) are left out.
 */
export function idsMentioned(n: TNode | null | undefined): string[] {
  if (!n) return [];
  const direct = referencedId(n);
  if (direct) return [direct];
  const i = intrinsic(n);
  if (i?.fn === 'Fn::Sub') {
    const text = scalarText(i.arg.kind === 'seq' ? i.arg.items[0] : i.arg) ?? '';
    return [...text.matchAll(/\$\{([A-Za-z0-9]+)(?:\.[A-Za-z0-9.]+)?\}/g)].map((m) => m[1]);
  }
  if (n.kind === 'seq') return n.items.flatMap(idsMentioned);
  if (n.kind === 'map') return n.entries.flatMap((e) => idsMentioned(e.value));
  return [];
}

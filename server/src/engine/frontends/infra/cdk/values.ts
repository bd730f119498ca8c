/**
 * Reading CDK values (model/cdk.ts): a prop of a construct's props, text, numbers, the
 * construct a value is, a value shown as written (`props.table.tableName`), and the
 * folder a `Code.fromAsset(path.join(__dirname, '../lambda'))` names.
 */
import * as path from 'node:path';
import type { CdkValue } from '../../../model/cdk';

/** The table constructs. */
export const TABLE_CLASSES = new Set(['Table', 'TableV2']);

export type NewValue = Extract<CdkValue, { kind: 'new' }>;
export type CallValue = Extract<CdkValue, { kind: 'call' }>;

/** A value's properties: an object, or the props a props class is made with (`dynamodb.Attribute(name=...)`). */
export function propsOf(v: CdkValue | null | undefined): Array<{ key: string; value: CdkValue }> {
  if (!v) return [];
  if (v.kind === 'object') return v.entries;
  if (v.kind === 'new' || v.kind === 'call') {
    if (v.props?.kind === 'object') return v.props.entries;
    const first = v.args[0];
    return first?.kind === 'object' ? first.entries : [];
  }
  return [];
}

export function prop(v: CdkValue | null | undefined, key: string): CdkValue | null {
  return propsOf(v).find((e) => e.key === key)?.value ?? null;
}

export function textOf(v: CdkValue | null | undefined): string | null {
  return v?.kind === 'text' ? v.text : null;
}

export function numberOf(v: CdkValue | null | undefined): number | null {
  return v?.kind === 'number' ? v.value : null;
}

export function boolOf(v: CdkValue | null | undefined): boolean | null {
  return v?.kind === 'bool' ? v.value : null;
}

export function itemsOf(v: CdkValue | null | undefined): CdkValue[] {
  return v?.kind === 'array' ? v.items : [];
}

/** The construct a value is, made in this file (`new`) or in another of the app (`ref`), with that file (null: this one). */
export function constructOf(v: CdkValue | null | undefined): { construct: NewValue; file: string | null } | null {
  if (v?.kind === 'new') return { construct: v, file: null };
  if (v?.kind === 'ref') return { construct: v.construct, file: v.file };
  return null;
}

/** The construct id (`'VotesTable'`), the second argument of `new X(scope, id, props)`. */
export function constructId(n: NewValue): string | null {
  const id = n.args[1];
  // An id built from the enclosing construct's (`${id}-Lambda`, a helper method's parameter):
  // named as written, which is what the console shows before the hole's value.
  if (id?.kind === 'template' && id.parts.some((p) => 'text' in p && p.text)) return written(id);
  return textOf(id);
}

/** The last name of a member or name (`dynamodb.AttributeType.STRING` → `STRING`). */
export function lastName(v: CdkValue | null | undefined): string | null {
  if (v?.kind === 'member') return v.name;
  if (v?.kind === 'name') return v.name;
  return null;
}

/** A static call `X.name(...)` on a class named `receiver` (`Duration.minutes`, `lambda.Code.fromAsset`), or null. */
export function staticCall(v: CdkValue | null | undefined, receiver: string, name: string): CallValue | null {
  return v?.kind === 'call' && v.name === name && lastName(v.receiver) === receiver ? v : null;
}

/**
 * The argument at `index` of a construction or call, or the keyword Python may pass it by
 * (camelCased, as props are): `targets.LambdaFunction(fn)` and
 * `targets.LambdaFunction(handler=fn)` name the same function.
 */
export function argumentOf(
  v: { args: CdkValue[]; props: CdkValue | null },
  index: number,
  keyword: string,
): CdkValue | null {
  return v.args[index] ?? prop(v.props, keyword);
}

/** A value as the code writes it, near enough to read in a message. */
export function written(v: CdkValue | null | undefined, depth = 0): string {
  if (!v || depth > 12) return '…';
  const d = depth + 1;
  switch (v.kind) {
    case 'text':
      return JSON.stringify(v.text);
    case 'number':
      return String(v.value);
    case 'bool':
      return String(v.value);
    case 'name':
      return v.name;
    case 'opaque':
      return v.text.length > 60 ? v.text.slice(0, 57) + '…' : v.text;
    case 'member':
      return `${written(v.object, d)}.${v.name}`;
    case 'call':
      return `${v.receiver ? written(v.receiver, d) + '.' : ''}${v.name}(${v.args.map((a) => written(a, d)).join(', ')})`;
    case 'new':
      return `new ${v.qualified}(…)`;
    case 'ref':
      return written(v.construct, d);
    case 'object':
      return '{…}';
    case 'array':
      return '[…]';
    case 'template':
      return v.parts.map((p) => ('text' in p ? p.text : `\${${written(p.hole, d)}}`)).join('');
  }
}

/**
 * The folder or file a path value names, for a file in `fileDir`: text (relative to the
 * CDK app's folder, where `cdk` runs it), `__dirname` / `os.path.dirname(__file__)`,
 * `path.join(...)`, `path.resolve(...)`, `os.path.join(...)`, `` `${__dirname}/../x` ``.
 * `relative` tells whether the result is still relative to the app folder.
 */
export function pathOf(v: CdkValue | null | undefined, fileDir: string, depth = 0): PathValue | null {
  if (!v || depth > 10) return null;
  const d = depth + 1;
  if (v.kind === 'text') return { path: v.text, relative: !path.isAbsolute(v.text) };
  if (v.kind === 'name' && (v.name === '__dirname' || v.name === 'import.meta.dirname'))
    return { path: fileDir, relative: false };
  if (v.kind === 'call' && v.name === 'dirname' && v.args[0]?.kind === 'name' && v.args[0].name === '__file__')
    return { path: fileDir, relative: false };
  if (v.kind === 'call' && (v.name === 'join' || v.name === 'resolve') && v.args.length > 0) {
    const parts = v.args.map((a) => pathOf(a, fileDir, d));
    if (parts.some((p) => p === null)) return null;
    let out = parts[0]!;
    for (const p of parts.slice(1))
      out =
        path.isAbsolute(p!.path) || !p!.relative ? p! : { path: path.join(out.path, p!.path), relative: out.relative };
    return out;
  }
  if (v.kind === 'template') {
    const parts = v.parts.map((p) => ('text' in p ? { path: p.text, relative: true } : pathOf(p.hole, fileDir, d)));
    if (parts.some((p) => p === null)) return null;
    const first = parts[0]!;
    return { path: parts.map((p) => p!.path).join(''), relative: first.relative };
  }
  return null;
}

export interface PathValue {
  path: string;
  relative: boolean;
}

import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import {
  type Access,
  type FixDescriptor,
  type ShardCount,
  shardCountOfAccess,
  shardHoleOf,
  spanOf,
} from '../../engine';
import type { FixAction, FixContext, FixProvider, TextChange } from './fix-model';
import { importOf } from './shard-count';
import { headerChanges } from './header';
import { nodeAt, sameSpan, withTree } from './syntax';

type Align = Extract<FixDescriptor, { kind: 'align-shard-range' }>;

/**
 * SL007 repair: the reader's loop is rewritten to visit exactly the writers' shards.
 * Its bound becomes the writers' count constant when the reader can name it (same
 * language; imported when it lives in another module), else the reader's own constant
 * when it has the same value, else the number. A reader looping 0..9 over keys
 * written 1..10 becomes `for (let s = 1; s <= SHARDS; s++)` / `range(1, SHARDS + 1)`.
 */
export const alignShardRange: FixProvider = (finding, ctx): FixAction[] => {
  const d = finding.fixes.find((x): x is Align => x.kind === 'align-shard-range');
  const reader = finding.access;
  if (!d || reader.kind !== 'read') return [];
  const lo = d.want[0];
  const n = d.want.length;
  // Only a contiguous run of shard numbers is a loop bound.
  if (n === 0 || d.want.some((v, i) => v !== lo + i)) return [];
  const hole = shardHoleOf(reader);
  const variable = hole?.source;
  const origin = reader.partitionKey?.template.parts.find((p) => 'hole' in p && p.hole === hole)?.origin;
  const text = ctx.textOf(reader.file);
  if (!hole || !variable || !/^[A-Za-z_$][\w$]*$/.test(variable) || !origin || text === null) return [];

  const count = boundFor(ctx, reader, d, n);
  const loop = withTree(reader.file, text, (tree, language) => {
    const at = nodeAt(tree, origin.span);
    const found = enclosingLoop(at, variable, language === 'python');
    return found ? rewriteLoop(reader.file, found, variable, lo, count.expression, language === 'python') : null;
  });
  if (!loop) return [];
  const imports = ctx.analysisOf(reader.file)?.imports ?? [];
  const header = count.importFrom
    ? headerChanges(
        reader.file,
        text,
        imports,
        {
          value: n,
          name: count.expression,
          reused: true,
          declare: null,
          importChange: importOf(reader, imports, text, count.expression, count.importFrom),
        },
        {},
      )
    : [];
  return [
    {
      title: `Loop over the writers' shards ${lo}..${lo + n - 1}${/^\d+$/.test(count.expression) ? '' : ` (${count.expression})`}`,
      id: 'align-shard-range',
      rule: finding.rule,
      preferred: true,
      // Reads more or fewer keys, never writes: but which items come back changes, so not unasked.
      safe: false,
      asks: [],
      changes: [...header, ...loop],
    },
  ];
};

interface Bound {
  expression: string;
  /** The module to import the constant from, when it is not in the reader's file. */
  importFrom: string | null;
}

function boundFor(ctx: FixContext, reader: Access, d: Align, n: number): Bound {
  const writer = (ctx.analysisOf(d.writer.file)?.accesses ?? []).find(
    (a) => a.partitionKey && sameSpan(a.partitionKey.span, d.writer.span),
  );
  const wc: ShardCount | null = writer ? (namedCount(ctx, writer) ?? shardCountOfAccess(writer)) : null;
  const python = reader.language === 'python';
  const sameFamily = writer && (writer.language === 'python') === python;
  if (wc?.name && wc.value === n && wc.declaration && sameFamily) {
    const text = ctx.textOf(reader.file) ?? '';
    const known =
      wc.declaration.file === reader.file ||
      (ctx.analysisOf(reader.file)?.imports ?? []).some((i) => i.names.includes(wc.name!)) ||
      new RegExp(`\\b${wc.name}\\b`).test(text);
    return { expression: wc.name, importFrom: known ? null : wc.declaration.file };
  }
  const own = shardHoleOf(reader)?.shards?.count;
  if (own?.name && own.value === n) return { expression: own.name, importFrom: null };
  return { expression: String(n), importFrom: null };
}

/**
 * The writer's count constant read from its shard expression when the model has no
 * count (a shifted shard, `Math.floor(Math.random() * N) + 1`, keeps none), with the
 * file that declares it: the writer's own, or the relative module it imports it from.
 */
function namedCount(ctx: FixContext, writer: Access): ShardCount | null {
  const c = shardCountOfAccess(writer);
  if (c?.name) return c;
  const source = shardHoleOf(writer)?.source ?? '';
  const m = /(?:random\(\)\s*\*\s*|randrange\(|randint\(\s*\d+\s*,\s*|%\s*)([A-Za-z_$][\w$]*)/.exec(source);
  const values = shardHoleOf(writer)?.shards?.values;
  if (!m || !values) return null;
  const name = m[1];
  const text = ctx.textOf(writer.file) ?? '';
  let file: string | null = new RegExp(`^\\s*(export\\s+)?(const|let|var)?\\s*${name}\\s*=`, 'm').test(text)
    ? writer.file
    : null;
  for (const i of ctx.analysisOf(writer.file)?.imports ?? []) {
    if (file || !i.names.includes(name) || !i.module.startsWith('.')) continue;
    const base = path.resolve(path.dirname(writer.file), i.module);
    file =
      ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.py'].map((e) => base + e).find((f) => ctx.textOf(f) !== null) ?? null;
  }
  if (!file) return null;
  return {
    expression: name,
    name,
    declaration: { file, span: { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 } },
    value: values.length,
  };
}

const LOOPS_JS = new Set(['for_statement']);
const LOOPS_PY = new Set(['for_statement', 'for_in_clause']);

function enclosingLoop(n: Node | null, variable: string, python: boolean): Node | null {
  for (let p = n; p; p = p.parent) {
    if (!(python ? LOOPS_PY : LOOPS_JS).has(p.type)) continue;
    if (python && p.childForFieldName('left')?.text === variable) return p;
    if (!python && new RegExp(`^(let|var)\\s+${variable}\\b`).test(p.childForFieldName('initializer')?.text ?? '')) {
      return p;
    }
  }
  return null;
}

function change(file: string, n: Node, newText: string): TextChange {
  return { file, span: spanOf(n), newText };
}

/** `range(...)` → `range(C)` / `range(lo, C + lo)`; `for (let s = a; s < b; ...)` → `s = lo; s <= C` or `s < C`. */
function rewriteLoop(file: string, loop: Node, v: string, lo: number, c: string, python: boolean): TextChange[] | null {
  const numeric = /^\d+$/.test(c);
  if (python) {
    const right = loop.childForFieldName('right');
    if (right?.type !== 'call' || right.childForFieldName('function')?.text !== 'range') return null;
    const args = right.childForFieldName('arguments');
    if (!args) return null;
    const end = lo === 0 ? c : numeric ? String(Number(c) + lo) : `${c} + ${lo}`;
    return [change(file, args, lo === 0 ? `(${end})` : `(${lo}, ${end})`)];
  }
  const init = loop.childForFieldName('initializer');
  const cond = loop.childForFieldName('condition');
  const decl = init?.namedChildren.find((x) => x?.type === 'variable_declarator');
  const value = decl?.childForFieldName('value');
  if (!value || !cond) return null;
  const bound = lo === 0 ? `${v} < ${c}` : lo === 1 ? `${v} <= ${c}` : `${v} < ${c} + ${lo}`;
  // The condition node may include its `;` in tree-sitter-javascript.
  const condText = cond.text.endsWith(';') ? `${bound};` : bound;
  return [change(file, value, String(lo)), change(file, cond, condText)];
}

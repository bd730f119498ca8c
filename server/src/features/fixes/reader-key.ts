import * as path from 'node:path';
import type { Access, ImportInfo, ShardSet, TemplatePart } from '../../engine';
import type { Needed } from '../generate/imports';
import type { KeyPiece } from '../generate/reader-spec';
import type { FixContext } from './fix-model';
import { visibleAtTop } from './reader-conventions';
import { pythonModuleFor, reachableFrom, rootNames } from './reader-scope';
import { lineOf } from './apply';

/** The sharded key as a reader rebuilds it: the text around the shard part, and the loop over the shards. */

/** The key before and after the shard part, with whole constants kept by name where the target can see them. */
export function partitionPieces(
  parts: TemplatePart[],
  visible: (name: string) => boolean,
  variable: (hole: number) => string | null,
) {
  const at = parts.findIndex((p) => 'hole' in p && p.hole.kind === 'shard');
  if (at < 0) return null;
  const before: KeyPiece[] = [];
  let holes = 0;
  for (const p of parts.slice(0, at)) {
    if (!('literal' in p)) {
      // A variable part before the shard (`DAY#{day}#{shard}`): a parameter of the reader.
      const name = variable(holes++);
      if (!name) return null;
      before.push({ name });
      continue;
    }
    const d = p.origin?.via[0];
    const whole =
      d &&
      d.valueSpan.startLine === p.origin!.span.startLine &&
      d.valueSpan.startColumn === p.origin!.span.startColumn &&
      d.valueSpan.endLine === p.origin!.span.endLine &&
      d.valueSpan.endColumn === p.origin!.span.endColumn;
    before.push(whole && d.file === p.origin!.file && visible(d.name) ? { name: d.name } : { literal: p.literal });
  }
  let after = '';
  for (const p of parts.slice(at + 1)) {
    if (!('literal' in p)) return null;
    after += p.literal;
  }
  return { before, after };
}

/** A key helper's call with plain names for arguments: `boardKey(CURRENT_SEASON)`, `keys.board(season.id)`. */
const HELPER_CALL =
  /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*\(\s*([A-Za-z_$][\w$.]*(\s*,\s*[A-Za-z_$][\w$.]*)*)?\s*,?\s*\)$/;

/**
 * The reader's own key expression in place of the text before the shard, when it is a key
 * helper's call the reader can make (`boardKey(CURRENT_SEASON)`, `board_pk(SEASON)`): the
 * reader then reads the shards of what the helper builds, so a later change to the helper
 * reaches the reader and the writers alike. Only when that text has no variable part and
 * the helper's value here and a separator; else null (the text is spelled out).
 */
export function helperCallPieces(
  keyParts: TemplatePart[],
  after: string,
  site: Access,
  expression: string | null,
  visible: (name: string) => boolean,
): { before: KeyPiece[]; after: string } | null {
  if (!expression || !HELPER_CALL.test(expression.trim()) || !rootNames(expression).every(visible)) return null;
  const shard = keyParts.findIndex((p) => 'hole' in p && p.hole.kind === 'shard');
  const literalText = (parts: TemplatePart[]) =>
    parts.every((p) => 'literal' in p) ? parts.map((p) => ('literal' in p ? p.literal : '')).join('') : null;
  const value = literalText(site.partitionKey?.template.parts ?? []);
  const before = literalText(keyParts.slice(0, shard));
  // The separator before the shard follows the helper's value.
  if (value === null || before === null || !value || !before.startsWith(value)) return null;
  const separator = before.slice(value.length);
  return { before: [{ name: expression.trim() }, ...(separator ? [{ literal: separator }] : [])], after };
}

/** A module specifier from one file to another (`./config`, `.settings`), as the target's project writes it. */
function moduleFrom(target: string, declared: string, python: boolean, ctx: FixContext): string | null {
  if (python) return pythonModuleFor(target, declared, ctx);
  let rel = path
    .relative(path.dirname(target), declared)
    .split(path.sep)
    .join('/')
    .replace(/\.(ts|tsx|js|mjs|cjs|jsx|mts|cts)$/, '');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

/**
 * The shard loop, bounded by the writers' count constant where the reader can reach it:
 * by name when the target sees it at module level; imported from another module; passed
 * by the call (`param`) when it lives in the calling file but not where the reader can
 * see it (under `if __name__ == "__main__":`, in a function, or in the module that imports
 * the reader — importing it back would be circular); else the number itself.
 */
export function shardLoop(
  input: { shards: ShardSet; target: string; site: Access },
  text: string,
  imports: ImportInfo[],
  ctx: FixContext,
  python: boolean,
) {
  const { shards, target, site } = input;
  const values = shards.values;
  if (!values || values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const contiguous = sorted.every((v, i) => v === sorted[0] + i);
  const none = { needs: [] as Needed[], param: null as string | null };
  if (!contiguous) return { loop: { kind: 'list' as const, values: sorted }, ...none };
  const count = shards.count;
  const loop = (expression: string) => ({ kind: 'range' as const, start: sorted[0], count: expression });
  if (!count?.name || count.value !== sorted.length || !/^[A-Za-z_$][\w$]*$/.test(count.name))
    return { loop: loop(String(sorted.length)), ...none };
  const decl = count.declaration;
  const siteText = ctx.textOf(site.file) ?? '';
  if (visibleAtTop(count.name, text, imports, python)) return { loop: loop(count.name), ...none };
  if (decl?.file === site.file && reachableFrom(site.file, siteText, decl.span, site.span))
    return { loop: loop(count.name), needs: [], param: count.name };
  if (decl && decl.file !== target && decl.file !== site.file) {
    const line = lineOf(ctx.textOf(decl.file) ?? '', decl.span.startLine);
    const exported = python || /^\s*export\b/.test(line);
    const module = exported ? moduleFrom(target, decl.file, python, ctx) : null;
    if (module) return { loop: loop(count.name), needs: [{ module, name: count.name }], param: null };
  }
  return { loop: loop(String(sorted.length)), ...none };
}

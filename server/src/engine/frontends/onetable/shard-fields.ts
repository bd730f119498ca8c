/**
 * A field that holds a write shard, as OneTable computes it per item (docs/libraries.md):
 * `generate: () => String(Math.floor(Math.random() * EVENT_SHARDS))`, a random shard drawn on
 * each create, or `value: true` with the table's `value` callback returning
 * `String(shardlensHash(String(properties.playerId)) % SCORE_SHARDS)`, a shard computed from an
 * attribute on every call. A schema written in the table's module has its functions read as
 * what they return; an imported schema's function is known by its text only, so the random
 * shape is read from it and its count looked up in the schema's module.
 */
import * as path from 'node:path';
import type { Declaration, KeyTemplate, ShardCount } from '../../model';
import { hole, shardRange, shardSetOf } from '../../model/template';
import type { SourceFile } from '../../model/frontend';
import type { Value } from '../../model/value';

/** The value of a name in the schema's module, or null. */
export type CountLookup = (name: string) => Value | null;

/** The shard a `generate` function draws, or null when it draws none. */
export function generatedShard(generate: Value | undefined, lookup: CountLookup): KeyTemplate | null {
  if (generate?.kind !== 'scalar') return null;
  if (shardSetOf(generate.template)) return generate.template;
  const part = generate.template.parts.length === 1 ? generate.template.parts[0] : null;
  if (!part || !('hole' in part) || part.hole.kind !== 'unknown') return null;
  const m = /^\(\)\s*=>\s*String\(\s*Math\.floor\(\s*Math\.random\(\)\s*\*\s*([A-Za-z_$][\w$]*|\d+)\s*\)\s*\)$/.exec(
    part.hole.source.trim(),
  );
  if (!m) return null;
  const count = countOf(m[1], lookup);
  const shards = { method: 'random' as const, values: count.value ? shardRange(0, count.value) : null, count };
  return hole({ kind: 'shard', source: part.hole.source, shards }, part.origin);
}

function countOf(expression: string, lookup: CountLookup): ShardCount {
  if (/^\d+$/.test(expression)) return { expression, name: null, declaration: null, value: Number(expression) };
  const v = lookup(expression);
  const text = v?.kind === 'scalar' && v.template.parts.length === 1 ? v.template.parts[0] : null;
  const value = text && 'literal' in text && /^\d+$/.test(text.literal) ? Number(text.literal) : null;
  const d: Declaration | undefined = v?.kind === 'scalar' ? v.via?.[0] : undefined;
  return { expression, name: expression, declaration: d ? { file: d.file, span: d.span } : null, value };
}

/** The shard the table's `value` callback computes for a `value: true` field, or null. */
export function computedShard(callback: Value | undefined): KeyTemplate | null {
  return callback?.kind === 'scalar' && shardSetOf(callback.template) ? callback.template : null;
}

/**
 * Where a model is read: `file` is the file being analysed (a table constructed there names
 * no file yet), `lookup` finds a name of the schema's module (`schemaFile`) from it.
 */
export interface ReadAt {
  file: string;
  lookup: (schemaFile: string) => CountLookup;
}

/** Models read in `f`: a name of an imported schema's module is looked up as `f` would import it. */
export function readAt(f: SourceFile): ReadAt {
  return {
    file: f.file,
    lookup: (schemaFile) => (name) =>
      schemaFile === f.file ? null : (f.lookups.imports?.(moduleSpecifier(f.file, schemaFile), name) ?? null),
  };
}

/** `./schema` for the schema module as `file` would import it. */
export function moduleSpecifier(file: string, schemaFile: string): string {
  const rel = path.relative(path.dirname(file), schemaFile).split(path.sep).join('/');
  const bare = rel.replace(/\.(ts|tsx|js|jsx|mjs|cjs)$/, '');
  return bare.startsWith('.') ? bare : `./${bare}`;
}

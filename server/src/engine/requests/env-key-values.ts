import type { Access, KeyValue, TemplatePart } from '../model';
import type { FileEnv } from '../model/entry-point';
import { wholeEnvRead } from './env';
import { plainEnvText } from './env-tables';

/**
 * Key parts read from an environment variable the infrastructure sets to plain text: a
 * SAM template's `METADATA_KEY: "__metadata"` makes every order's metadata item write the
 * partition `__metadata` of the index keyed on that attribute, as deployed. The variable
 * binds as a table's does (`env-bindings.ts`): every function whose handler reaches the file
 * sets it to the same text. A value with deploy-time parts (`${Stage}`), a table reference,
 * values that differ between functions, or a read that does more than read the variable
 * (`prefix(os.environ["X"])`) leave the part unknown, as before.
 */
export function withEnvKeyValues(accesses: Access[], env: FileEnv | null | undefined): Access[] {
  if (!env) return accesses;
  return accesses.map((a) => {
    const partitionKey = keyWithEnv(a.partitionKey, env);
    const sortKey = keyWithEnv(a.sortKey, env);
    const operands = a.sortCondition?.operands.map((k) => keyWithEnv(k, env)!);
    const sortCondition =
      a.sortCondition && operands!.some((k, i) => k !== a.sortCondition!.operands[i])
        ? { ...a.sortCondition, operands: operands! }
        : a.sortCondition;
    if (partitionKey === a.partitionKey && sortKey === a.sortKey && sortCondition === a.sortCondition) return a;
    return { ...a, partitionKey, sortKey, sortCondition };
  });
}

/**
 * Whether an access's key reads an environment variable (bound now or not): its analysis
 * changes when what the infrastructure sets the variable to does.
 */
export function keyReadsEnv(a: Access): boolean {
  const reads = (k: KeyValue | null) =>
    !!k?.template.parts.some((p) => ('hole' in p ? wholeEnvRead(p.hole.source) !== null : !!p.env));
  return reads(a.partitionKey) || reads(a.sortKey) || !!a.sortCondition?.operands.some(reads);
}

function keyWithEnv(key: KeyValue | null, env: FileEnv): KeyValue | null {
  if (!key || !key.template.parts.some((p) => 'hole' in p)) return key;
  let changed = false;
  const parts = key.template.parts.map((p): TemplatePart => {
    if (!('hole' in p)) return p;
    const variable = wholeEnvRead(p.hole.source);
    const text = variable ? plainEnvText(env[variable]) : null;
    if (text === null) return p;
    changed = true;
    return { literal: text, env: variable!, ...(p.origin ? { origin: p.origin } : {}) };
  });
  return changed ? { ...key, template: { parts } } : key;
}

import type { Access, KeyValue, TemplatePart } from '../model';
import type { FileEnv } from '../model/entry-point';

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
    !!k?.template.parts.some((p) => ('hole' in p ? variableRead(p.hole.source) !== null : !!p.env));
  return reads(a.partitionKey) || reads(a.sortKey) || !!a.sortCondition?.operands.some(reads);
}

/**
 * A whole read of one variable: `process.env.X`, `process.env["X"]`, `os.environ["X"]`,
 * `os.getenv("X")`, `os.environ.get("X", "x")` (the fallback runs where the variable is
 * unset; the template sets it). JavaScript's `process.env.X ?? "x"` is two values to the
 * evaluator, the fallback judged on some paths: not read here.
 */
const WHOLE_READ = new RegExp(
  [
    String.raw`^process\.env(?:\.(\w+)|\[["'\x60](\w+)["'\x60]\])$`,
    String.raw`^os\.environ\[["'](\w+)["']\]$`,
    String.raw`^os\.(?:getenv|environ\.get)\(\s*["'](\w+)["']\s*(?:,\s*(["'])[^"']*\5\s*)?\)$`,
  ].join('|'),
);

/** The variable a hole's whole expression reads, or null. */
function variableRead(source: string): string | null {
  const m = WHOLE_READ.exec(source.trim());
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? null) : null;
}

/** The plain text every function reaching the file sets the variable to, or null. */
function plainText(binding: FileEnv[string] | undefined): string | null {
  if (!binding || 'candidates' in binding || binding.template || binding.keys || binding.source.logicalId) return null;
  return binding.name;
}

function keyWithEnv(key: KeyValue | null, env: FileEnv): KeyValue | null {
  if (!key || !key.template.parts.some((p) => 'hole' in p && variableRead(p.hole.source))) return key;
  let changed = false;
  const parts = key.template.parts.map((p): TemplatePart => {
    if (!('hole' in p)) return p;
    const variable = variableRead(p.hole.source);
    const text = variable ? plainText(env[variable]) : null;
    if (text === null) return p;
    changed = true;
    return { literal: text, env: variable!, ...(p.origin ? { origin: p.origin } : {}) };
  });
  return changed ? { ...key, template: { parts } } : key;
}

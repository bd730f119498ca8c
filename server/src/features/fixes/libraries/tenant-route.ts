import type { FixAction, FixProvider } from '../fix-model';
import { textIn } from '../apply';

/**
 * SL021: a tenant routed by `hash(tenantId) % N` alone. The fix adds a module map of
 * dedicated tenants, each to a shard number of its own, and reads it before the hash:
 * `(DEDICATED_TENANT_SHARDS.get(tenantId) ?? hash(tenantId) % N)`. The map starts empty,
 * so every tenant still goes where it went; a hot tenant is moved by adding one line,
 * without changing the hash for the others. The routing function's signature and the
 * type of the remainder (a number) are unchanged, so no caller changes.
 */
export const tenantRouteFixes: FixProvider = (finding, ctx): FixAction[] => {
  const a = finding.access;
  const d = finding.fixes.find((x) => x.kind === 'dedicated-tenants');
  if (d?.kind !== 'dedicated-tenants') return [];
  const text = ctx.textOf(a.file);
  if (text === null) return [];
  const { tenant, hash, before, keyType } = d.route;
  const name = freeName('DEDICATED_TENANT_SHARDS', text);
  const hashed = textIn(text, hash);
  const python = a.language === 'python';
  const declaration = python
    ? pythonMap(name)
    : a.language === 'javascript'
      ? jsMap(name)
      : tsMap(name, keyType ?? 'string');
  const lookup = python
    ? `(${name}[${tenant}] if ${tenant} in ${name} else ${hashed})`
    : `(${name}.get(${tenant}) ?? ${hashed})`;
  const top = { startLine: before.startLine, startColumn: 0, endLine: before.startLine, endColumn: 0 };
  return [
    {
      title: `Look ${tenant} up in a map of dedicated tenants before the hash (${name}, empty: no tenant moves until one is added)`,
      id: 'dedicated-tenants',
      rule: finding.rule,
      preferred: true,
      safe: false,
      asks: [],
      changes: [
        { file: a.file, span: top, newText: declaration },
        { file: a.file, span: hash, newText: lookup },
      ],
    },
  ];
};

const WHY =
  'Tenants too hot to share a shard, each sent to a shard of its own before the hash; every other tenant is hashed as before. ' +
  'Give a moved tenant a shard past the shared ones.';

function tsMap(name: string, keyType: string): string {
  return `/** ${WHY} */\nconst ${name}: ReadonlyMap<${keyType}, number> = new Map([\n  // ['acme-corp', 16],\n]);\n\n`;
}

function jsMap(name: string): string {
  return `/**\n * ${WHY}\n * @type {ReadonlyMap<string, number>}\n */\nconst ${name} = new Map([\n  // ['acme-corp', 16],\n]);\n\n`;
}

function pythonMap(name: string): string {
  const why = WHY.replace(/; /, ';\n# ').replace(/\. Give/, '.\n# Give');
  return `# ${why}\n${name}: "dict[str, int]" = {\n    # "acme-corp": 16,\n}\n\n\n`;
}

/** `name`, or `name_2`, ... when the file already uses it. */
function freeName(name: string, text: string): string {
  if (!new RegExp(`\\b${name}\\b`).test(text)) return name;
  for (let i = 2; ; i++) if (!new RegExp(`\\b${name}_${i}\\b`).test(text)) return `${name}_${i}`;
}

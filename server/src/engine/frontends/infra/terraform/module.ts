/**
 * A Terraform module: every `.tf` / `.tf.json` file of one folder read together, since a
 * module's resources, variables and locals name each other across its files
 * (`variables.tf`, `lambda.tf`, `dynamodb.tf`). References resolve here: `var.x` to its
 * default (or the argument a module call passes), `local.x` to its value, `path.module`
 * to `.` (paths are read from the folder); what stays unknown is a hole `{$var.x}`, the way
 * `TableRef` kind `template` writes deploy-time parts. Resources with `count` / `for_each`
 * are their instances (instances.ts); load.ts reads a folder's files into a module.
 */
import type { InfraFiles } from '../handlers';
import type { Block, Step, TfExpr } from './hcl';

export interface Resource {
  /** `aws_lambda_function.vote`, `data.archive_file.vote`, an instance `aws_dynamodb_table.t["orders"]`. */
  address: string;
  block: Block;
  file: string;
}

export interface TfModule {
  dir: string;
  variables: Map<string, TfExpr | null>;
  locals: Map<string, TfExpr>;
  /** Resources and data sources by address (a resource with `count`/`for_each` by each instance's). */
  resources: Map<string, Resource>;
  /** Module calls (`module "lambda" { source = ... }`), instances likewise. */
  modules: Resource[];
  /** `output "table_name" { value = ... }` by name, for a caller's `module.x.table_name`. */
  outputs: Map<string, TfExpr>;
  /** How the module's files are read: a local module it calls is read with them. */
  files: InfraFiles;
}

const MAX_DEPTH = 12;

/** An expression with `var.x` (its default or argument), `local.x` and what they hold (`var.tables.orders`) replaced by what they stand for. */
export function follow(e: TfExpr | null | undefined, mod: TfModule, depth = 0): TfExpr | null {
  if (!e || depth > MAX_DEPTH) return e ?? null;
  if (e.kind === 'ref' && e.path.length >= 2 && typeof e.path[1] === 'string') {
    const [root, name] = e.path as [string, string];
    let base: TfExpr | null | undefined;
    if (root === 'local') base = mod.locals.get(name);
    else if (root === 'var') base = mod.variables.get(name);
    if (!base || base.kind === 'opaque') return e;
    const value = e.path.length === 2 ? base : drill(base, e.path.slice(2), mod, depth + 1);
    return value ? follow(value, mod, depth + 1) : e;
  }
  // `"${var.tables}"` (Terraform JSON writes every expression so): the expression itself.
  if (e.kind === 'template' && e.parts.length === 1 && typeof e.parts[0] !== 'string')
    return follow(e.parts[0], mod, depth + 1);
  return e;
}

/** `value` then `steps` (`.hash_key`, `["orders"]`, `[0]`); a reference takes the steps on; null when they lead nowhere known. */
export function drill(value: TfExpr, steps: Step[], mod: TfModule, depth = 0): TfExpr | null {
  let v: TfExpr | null = value;
  for (const step of steps) {
    v = follow(v, mod, depth + 1);
    if (!v) return null;
    const key = typeof step === 'string' ? step : textOf(step.index, mod, depth + 1);
    if (key === null || (typeof key !== 'string' && key.holes)) return null;
    const k = typeof key === 'string' ? key : key.text;
    if (v.kind === 'object') v = v.entries.find((x) => x.key === k)?.value ?? null;
    else if (v.kind === 'list' && typeof step !== 'string' && /^\d+$/.test(k)) v = v.items[Number(k)] ?? null;
    else if (v.kind === 'ref')
      v = {
        ...v,
        path: [...v.path, typeof step === 'string' ? step : { index: { kind: 'literal', text: k, span: v.span } }],
      };
    else return null;
  }
  return v;
}

/** A reference as written: `aws_dynamodb_table.t["orders"].name`. */
export function pathText(p: Step[]): string {
  return p.map((s, i) => (typeof s === 'string' ? (i ? '.' : '') + s : `[${indexText(s.index)}]`)).join('');
}

function indexText(e: TfExpr): string {
  return e.kind === 'literal' ? (/^\d+$/.test(e.text) ? e.text : JSON.stringify(e.text)) : written(e);
}

/** Roots of references that stand for a value not known before deploy (a hole). */
const HOLE_ROOTS = new Set(['var', 'local', 'terraform', 'each', 'count']);

/** Text with holes: `"${var.app}-votes"` → `{$var.app}-votes` when `app` has no default; null for anything not text. */
export function textOf(
  e: TfExpr | null | undefined,
  mod: TfModule,
  depth = 0,
): { text: string; holes: boolean } | null {
  const f = follow(e, mod, depth);
  if (!f || depth > MAX_DEPTH) return null;
  if (f.kind === 'literal') return { text: f.text, holes: false };
  if (f.kind === 'hole') return { text: f.text, holes: true };
  if (f.kind === 'ref') {
    const p = pathText(f.path);
    // Paths are read relative to the module's folder, which `path.module` is.
    if (p === 'path.module' || p === 'path.root') return { text: '.', holes: false };
    if (typeof f.path[0] === 'string' && HOLE_ROOTS.has(f.path[0])) return { text: `{$${p}}`, holes: true };
    return null;
  }
  if (f.kind === 'template') {
    let text = '';
    let holes = false;
    for (const p of f.parts) {
      if (typeof p === 'string') text += p;
      else {
        const t = textOf(p, mod, depth + 1);
        if (!t) return null;
        text += t.text;
        holes ||= t.holes;
      }
    }
    return { text, holes };
  }
  return null;
}

/** The resource a reference names (`aws_lambda_function.vote.arn`, `aws_dynamodb_table.t["orders"].name` → that resource), with the attribute read. */
export function referenced(
  e: TfExpr | null | undefined,
  mod: TfModule,
): { resource: Resource; attribute: string | null } | null {
  const f = follow(e, mod);
  let ref: TfExpr | null = f;
  // `"integrations/${aws_apigatewayv2_integration.x.id}"`: the one reference inside a template.
  if (f?.kind === 'template') {
    const refs = f.parts.filter((p): p is TfExpr => typeof p !== 'string' && p.kind === 'ref');
    ref = refs.length === 1 ? refs[0] : null;
  }
  if (ref?.kind !== 'ref') return null;
  const n = ref.path[0] === 'data' ? 3 : 2;
  const head = ref.path.slice(0, n);
  if (head.some((s) => typeof s !== 'string')) return null;
  const address = head.join('.');
  let rest = ref.path.slice(n);
  let resource = mod.resources.get(address);
  const index = rest[0];
  if (index !== undefined && typeof index !== 'string') {
    const key = textOf(index.index, mod);
    const instance = key && !key.holes ? instanceAt(mod, address, key.text) : undefined;
    // An index no instance answers (the copies were not read): the resource as one.
    resource = instance ?? resource;
    rest = rest.slice(1);
  }
  if (!resource) return null;
  return { resource, attribute: typeof rest[0] === 'string' ? rest[0] : null };
}

function instanceAt(mod: TfModule, address: string, key: string): Resource | undefined {
  return mod.resources.get(`${address}[${JSON.stringify(key)}]`) ?? mod.resources.get(`${address}[${key}]`);
}

/** How an expression is written, for messages and opaque values. */
export function written(e: TfExpr): string {
  switch (e.kind) {
    case 'literal':
      return e.text;
    case 'ref':
      return pathText(e.path);
    case 'template':
      return e.parts.map((p) => (typeof p === 'string' ? p : `\${${written(p)}}`)).join('');
    case 'opaque':
    case 'call':
    case 'for':
    case 'hole':
      return e.text;
    default:
      return e.kind === 'list' ? '[…]' : '{…}';
  }
}

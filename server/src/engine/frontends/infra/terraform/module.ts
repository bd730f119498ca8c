/**
 * A Terraform module: every `.tf` file of one folder read together, since a module's
 * resources, variables and locals name each other across its files (`variables.tf`,
 * `lambda.tf`, `dynamodb.tf`). References resolve here: `var.x` to a literal default,
 * `local.x` to its value, `path.module` to `.` (paths are read from the folder); what stays unknown is a hole
 * `{$var.x}`, the way `TableRef` kind `template` writes deploy-time parts.
 */
import * as path from 'node:path';
import type { Span } from '../../../model';
import { parseTerraform } from '../../../syntax/parser';
import type { InfraFiles } from '../handlers';
import { blocksOf, firstError, type Block, type TfExpr } from './hcl';

export interface Resource {
  /** `aws_lambda_function.vote`, `data.archive_file.vote`. */
  address: string;
  block: Block;
  file: string;
}

export interface TfModule {
  dir: string;
  variables: Map<string, TfExpr | null>;
  locals: Map<string, TfExpr>;
  /** Resources and data sources by address. */
  resources: Map<string, Resource>;
  /** Module calls (`module "lambda" { source = ... }`) by name. */
  modules: Resource[];
}

export type Parsed = { blocks: Block[] } | { error: string; span: Span };

/** One file's blocks, or where and why it does not parse. */
export function parseFile(text: string): Parsed {
  const tree = parseTerraform(text);
  if (!tree)
    return {
      error: 'the Terraform grammar is not loaded',
      span: { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 },
    };
  try {
    const err = firstError(tree.rootNode);
    if (err) return { error: `malformed HCL: ${err.what} at line ${err.span.startLine + 1}`, span: err.span };
    return { blocks: blocksOf(tree.rootNode) };
  } finally {
    tree.delete();
  }
}

/** The module `file` belongs to, with `blocks` as its own; siblings that do not parse add nothing. */
export function moduleOf(file: string, blocks: Block[], files: InfraFiles): TfModule {
  const dir = path.dirname(file);
  const mod: TfModule = { dir, variables: new Map(), locals: new Map(), resources: new Map(), modules: [] };
  const all: Array<[string, Block[]]> = [[file, blocks]];
  for (const sibling of files.list?.(dir) ?? []) {
    if (!sibling.endsWith('.tf') || path.resolve(sibling) === path.resolve(file)) continue;
    const text = files.read(sibling);
    const parsed = text === null ? null : parseFile(text);
    if (parsed && 'blocks' in parsed) all.push([sibling, parsed.blocks]);
  }
  for (const [f, bs] of all)
    for (const b of bs) {
      if (b.type === 'variable' && b.labels[0]) mod.variables.set(b.labels[0], b.attributes.get('default') ?? null);
      else if (b.type === 'locals') for (const [k, v] of b.attributes) mod.locals.set(k, v);
      else if (b.type === 'resource' && b.labels.length === 2)
        mod.resources.set(`${b.labels[0]}.${b.labels[1]}`, {
          address: `${b.labels[0]}.${b.labels[1]}`,
          block: b,
          file: f,
        });
      else if (b.type === 'data' && b.labels.length === 2)
        mod.resources.set(`data.${b.labels[0]}.${b.labels[1]}`, {
          address: `data.${b.labels[0]}.${b.labels[1]}`,
          block: b,
          file: f,
        });
      else if (b.type === 'module' && b.labels[0])
        mod.modules.push({ address: `module.${b.labels[0]}`, block: b, file: f });
    }
  return mod;
}

const MAX_DEPTH = 12;

/** An expression with `var.x` (a literal default) and `local.x` replaced by what they stand for. */
export function follow(e: TfExpr | null | undefined, mod: TfModule, depth = 0): TfExpr | null {
  if (!e || depth > MAX_DEPTH) return e ?? null;
  if (e.kind === 'ref' && e.path.length === 2) {
    if (e.path[0] === 'local' && mod.locals.has(e.path[1])) return follow(mod.locals.get(e.path[1]), mod, depth + 1);
    if (e.path[0] === 'var') {
      const d = mod.variables.get(e.path[1]);
      if (d && (d.kind === 'literal' || d.kind === 'template')) return follow(d, mod, depth + 1);
    }
  }
  return e;
}

/** Text with holes: `"${var.app}-votes"` → `{$var.app}-votes` when `app` has no default; null for anything not text. */
export function textOf(
  e: TfExpr | null | undefined,
  mod: TfModule,
  depth = 0,
): { text: string; holes: boolean } | null {
  const f = follow(e, mod, depth);
  if (!f || depth > MAX_DEPTH) return null;
  if (f.kind === 'literal') return { text: f.text, holes: false };
  if (f.kind === 'ref') {
    // Paths are read relative to the module's folder, which `path.module` is.
    if (f.path.join('.') === 'path.module' || f.path.join('.') === 'path.root') return { text: '.', holes: false };
    if (f.path[0] === 'var' || f.path[0] === 'local' || f.path[0] === 'terraform')
      return { text: `{$${f.path.join('.')}}`, holes: true };
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

/** The resource a reference names (`aws_lambda_function.vote.arn` → that resource), with the attribute read. */
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
  const data = ref.path[0] === 'data';
  const address = ref.path.slice(0, data ? 3 : 2).join('.');
  const resource = mod.resources.get(address);
  if (!resource) return null;
  return { resource, attribute: ref.path[data ? 3 : 2] ?? null };
}

/** How an expression is written, for messages and opaque values. */
export function written(e: TfExpr): string {
  switch (e.kind) {
    case 'literal':
      return e.text;
    case 'ref':
      return e.path.join('.');
    case 'template':
      return e.parts.map((p) => (typeof p === 'string' ? p : `\${${written(p)}}`)).join('');
    case 'opaque':
      return e.text;
    default:
      return e.kind === 'list' ? '[…]' : '{…}';
  }
}

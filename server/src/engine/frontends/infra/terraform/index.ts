/**
 * Terraform (`*.tf`): the functions and tables one file declares, read with the
 * tree-sitter Terraform grammar and resolved against the whole module (its folder).
 * `aws_lambda_function` (handler, runtime, code from a `data.archive_file`'s
 * `source_dir`/`source_file`, environment), its triggers (triggers.ts), and
 * `aws_dynamodb_table` (tables.ts). The `terraform-aws-modules/lambda` module's
 * `handler` + `source_path` is read as a function too. Never throws.
 */
import * as path from 'node:path';
import type { EnvValue, InfraDeclarations, InfraFunction } from '../../../model/entry-point';
import { entryPoint } from '../events';
import { resolveHandler, type InfraFiles } from '../handlers';
import type { Block, TfExpr } from './hcl';
import { folderBlocks, moduleFrom, moduleOf, parseFile } from './load';
import { follow, referenced, textOf, written, type Resource, type TfModule } from './module';
import { terraformDirectAccesses } from './direct-accesses';
import { tableOf } from './tables';
import { triggersOf } from './triggers';
import { indexNamesStated } from '../unread-indexes';

type Skip = InfraDeclarations['skipped'][number];

export function readTerraform(file: string, text: string, files: InfraFiles): InfraDeclarations {
  const out: InfraDeclarations = { file, format: 'terraform', functions: [], tables: [], skipped: [] };
  const parsed = parseFile(text, file);
  if ('error' in parsed) {
    out.skipped.push({ reason: parsed.error, source: { file, span: parsed.span } });
    out.unread = parsed.error;
    out.indexNamesStated = indexNamesStated(text);
    return out;
  }
  const mod = moduleOf(file, parsed.blocks, files);
  const own = (r: Resource) => path.resolve(r.file) === path.resolve(file);
  declare(out, mod, own, '', files, 0);
  const direct = terraformDirectAccesses(mod, own);
  if (direct.length > 0) out.directAccesses = direct;
  return out;
}

/** How deep module calls of local modules are followed. */
const MAX_NESTING = 4;

/**
 * The tables and functions of `mod` that `own` picks, into `out`, with those of the local
 * modules they call (`source = "./modules/table"`), read with the call's arguments as their
 * variables and named under the call (`module.orders.aws_dynamodb_table.this`).
 */
function declare(
  out: InfraDeclarations,
  mod: TfModule,
  own: (r: Resource) => boolean,
  prefix: string,
  files: InfraFiles,
  depth: number,
): void {
  const file = out.file;
  for (const r of mod.resources.values()) {
    if (!own(r) || r.address.startsWith('data.')) continue;
    if (r.block.labels[0] === 'aws_dynamodb_table') {
      const t = tableOf(r, mod);
      out.tables.push({ ...t, logicalId: prefix + t.logicalId });
    }
    if (r.block.labels[0] === 'aws_lambda_function') {
      const f = functionOf(r, mod, file, files, out.skipped);
      out.functions.push({ ...f, name: prefix + f.name });
    }
  }
  for (const m of mod.modules) {
    if (!own(m)) continue;
    const child = depth < MAX_NESTING ? calledModule(m, mod, files) : null;
    if (child) {
      const dir = path.resolve(child.dir);
      if (!out.modulesCalled?.includes(dir)) (out.modulesCalled ??= []).push(dir);
      declare(out, child, () => true, `${prefix}${m.address}.`, files, depth + 1);
    } else if (m.block.attributes.has('handler')) {
      const f = functionOf(m, mod, file, files, out.skipped);
      out.functions.push({ ...f, name: prefix + f.name });
    }
  }
}

/** The module a call names by a local path (`./modules/table`), its variables bound to the call's arguments; null for a registry module. */
function calledModule(call: Resource, mod: TfModule, files: InfraFiles): TfModule | null {
  const source = textOf(call.block.attributes.get('source'), mod);
  if (!source || source.holes || !/^\.\.?\//.test(source.text)) return null;
  const dir = path.join(mod.dir, source.text);
  const blocks = folderBlocks(dir, files);
  if (blocks.length === 0) return null;
  const args = new Map<string, TfExpr>();
  for (const [k, v] of call.block.attributes)
    if (!/^(source|version|count|for_each|providers|depends_on)$/.test(k)) args.set(k, closed(v, mod));
  return moduleFrom(dir, blocks, args, files);
}

/** `module.tables.orders_name`: the output of a local module the module calls, as the caller sees it; null when not read. */
function outputOf(ref: TfExpr & { kind: 'ref' }, mod: TfModule, depth: number): TfExpr | null {
  const [root, name] = ref.path;
  if (root !== 'module' || typeof name !== 'string' || depth > MAX_NESTING) return null;
  let rest = ref.path.slice(2);
  let address = `module.${name}`;
  const index = rest[0];
  if (index !== undefined && typeof index !== 'string') {
    const key = textOf(index.index, mod);
    if (!key || key.holes) return null;
    address += `[${JSON.stringify(key.text)}]`;
    rest = rest.slice(1);
  }
  const call = mod.modules.find((m) => m.address === address || m.address === address.replace(/\["(\d+)"\]$/, '[$1]'));
  const output = typeof rest[0] === 'string' ? rest[0] : null;
  const child = call && output ? calledModule(call, mod, mod.files) : null;
  const value = child && output ? child.outputs.get(output) : undefined;
  return value && child ? closed(value, child, depth + 1) : null;
}

/**
 * An argument as the called module sees it: what it stands for in the caller, written
 * out (text, holes, collections of them; a table's `name`/`id` its name), since the
 * callee's names (`var.x`) mean other things.
 */
function closed(e: TfExpr, mod: TfModule, depth = 0): TfExpr {
  const f = follow(e, mod) ?? e;
  const span = e.span;
  if (depth > 8) return { kind: 'opaque', text: written(e), span };
  switch (f.kind) {
    case 'literal':
    case 'hole':
      return f;
    case 'object':
      return { ...f, entries: f.entries.map(({ key, value }) => ({ key, value: closed(value, mod, depth + 1) })) };
    case 'list':
      return { ...f, items: f.items.map((x) => closed(x, mod, depth + 1)) };
    case 'call':
      return /^(toset|tolist|tomap)$/.test(f.name) && f.args.length === 1 ? closed(f.args[0], mod, depth + 1) : f;
    case 'ref': {
      const out = outputOf(f, mod, depth);
      if (out) return out;
      const ref = referenced(f, mod);
      if (ref?.resource.block.labels[0] === 'aws_dynamodb_table' && /^(name|id)$/.test(ref.attribute ?? ''))
        return closed(ref.resource.block.attributes.get('name') ?? f, mod, depth + 1);
      break;
    }
  }
  const t = textOf(f, mod);
  if (t) return t.holes ? { kind: 'hole', text: t.text, span } : { kind: 'literal', text: t.text, span };
  return { kind: 'opaque', text: written(f), span };
}

function functionOf(r: Resource, mod: TfModule, file: string, files: InfraFiles, skipped: Skip[]): InfraFunction {
  const b = r.block;
  const source = { file: r.file, span: b.span };
  const handler = textOf(b.attributes.get('handler'), mod)?.text ?? null;
  const code = codeDirOf(b, mod);
  let handlerFile: string | null = null;
  let handlerFunction: string | null = null;
  if (!handler)
    skipped.push({
      reason: `${r.address}: no handler to follow (${b.attributes.has('image_uri') ? 'a container image' : 'not written as text'})`,
      source,
    });
  else if ('reason' in code) skipped.push({ reason: `${r.address}: ${code.reason}`, source });
  else {
    const target = resolveHandler(handler, code.dir, files, { declaredIn: path.dirname(r.file) });
    if ('reason' in target) skipped.push({ reason: `${r.address}: ${target.reason}`, source });
    else ({ file: handlerFile, fn: handlerFunction } = target);
  }
  const place = { file: handlerFile ?? '', functionName: handlerFunction, line: null };
  return {
    name: r.address,
    runtime: textOf(b.attributes.get('runtime'), mod)?.text ?? null,
    handler: handler ?? '',
    handlerFile,
    handlerFunction,
    triggers: r.address.startsWith('module.') ? [] : triggersOf(r, mod).map((t) => entryPoint(t, place, file)),
    environment: environmentOf(b, mod, file),
    source,
  };
}

/**
 * The folder the handler is relative to: an archive's `source_dir`, the folder of its
 * `source_file`, or the module's `source_path`. A prebuilt zip leads nowhere readable.
 */
function codeDirOf(b: Block, mod: TfModule): { dir: string } | { reason: string } {
  const dirOf = (e: Parameters<typeof textOf>[0]) => {
    const t = textOf(e, mod);
    if (!t || t.holes) return null;
    return path.isAbsolute(t.text) ? t.text : path.join(mod.dir, t.text);
  };
  const sourcePath = b.attributes.get('source_path');
  if (sourcePath) {
    const dir = dirOf(sourcePath);
    return dir ? { dir } : { reason: `source_path ${written(sourcePath)} is not a folder written as text` };
  }
  const filename = b.attributes.get('filename');
  if (!filename) return { reason: 'no filename: the code is in S3 or an image, not in this workspace' };
  const archive = referenced(filename, mod)?.resource;
  if (!archive || archive.block.labels[0] !== 'archive_file')
    return { reason: `filename ${written(filename)} is a built package, not a data.archive_file of the sources` };
  const sourceDir = archive.block.attributes.get('source_dir');
  const sourceFile = archive.block.attributes.get('source_file');
  const dir = sourceDir ? dirOf(sourceDir) : sourceFile ? dirOf(sourceFile) : null;
  if (dir === null) return { reason: `${archive.address} has no source_dir or source_file written as text` };
  return { dir: sourceDir ? dir : path.dirname(dir) };
}

function environmentOf(b: Block, mod: TfModule, file: string): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  // `environment { variables = {...} }` on the resource; `environment_variables = {...}` on the module.
  const vars = follow(
    b.blocks.find((x) => x.type === 'environment')?.attributes.get('variables') ??
      b.attributes.get('environment_variables'),
    mod,
  );
  if (vars?.kind !== 'object') return env;
  for (const { key, value } of vars.entries) env[key] = envValueOf(value, mod, file);
  return env;
}

/**
 * `aws_dynamodb_table.votes.name` (or `.id`, the same for a table) is the table: by its
 * address when this file declares it, else by its name so a table in another file of the
 * module is still found with its key schema.
 */
function envValueOf(e: Parameters<typeof textOf>[0], mod: TfModule, file: string): EnvValue {
  const ref = referenced(e, mod);
  const f = follow(e, mod);
  if (
    ref &&
    ref.resource.block.labels[0] === 'aws_dynamodb_table' &&
    (ref.attribute === 'name' || ref.attribute === 'id') &&
    f?.kind === 'ref'
  ) {
    const t = ref.resource;
    if (path.resolve(t.file) === path.resolve(file)) return { kind: 'table', logicalId: t.address };
    const name = textOf(t.block.attributes.get('name'), mod);
    if (name) return name.holes ? { kind: 'template', text: name.text } : { kind: 'text', text: name.text };
    return { kind: 'table', logicalId: t.address };
  }
  // `module.tables.orders_name`: what the called module's output is.
  const out = f?.kind === 'ref' ? outputOf(f, mod, 0) : null;
  const t = textOf(out ?? e, mod);
  if (t) return t.holes ? { kind: 'template', text: t.text } : { kind: 'text', text: t.text };
  return { kind: 'opaque', text: e ? written(e) : '' };
}

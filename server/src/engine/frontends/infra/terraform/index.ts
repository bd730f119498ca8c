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
import type { Block } from './hcl';
import { follow, moduleOf, parseFile, referenced, textOf, written, type Resource, type TfModule } from './module';
import { tableOf } from './tables';
import { triggersOf } from './triggers';

type Skip = InfraDeclarations['skipped'][number];

export function readTerraform(file: string, text: string, files: InfraFiles): InfraDeclarations {
  const out: InfraDeclarations = { file, format: 'terraform', functions: [], tables: [], skipped: [] };
  const parsed = parseFile(text);
  if ('error' in parsed) {
    out.skipped.push({ reason: parsed.error, source: { file, span: parsed.span } });
    out.unread = parsed.error;
    return out;
  }
  const mod = moduleOf(file, parsed.blocks, files);
  const own = (r: Resource) => path.resolve(r.file) === path.resolve(file);
  for (const r of mod.resources.values()) {
    if (!own(r) || r.address.startsWith('data.')) continue;
    if (r.block.labels[0] === 'aws_dynamodb_table') out.tables.push(tableOf(r, mod, file));
    if (r.block.labels[0] === 'aws_lambda_function') out.functions.push(functionOf(r, mod, file, files, out.skipped));
  }
  for (const m of mod.modules) {
    if (!own(m) || !m.block.attributes.has('handler')) continue;
    out.functions.push(functionOf(m, mod, file, files, out.skipped));
  }
  return out;
}

function functionOf(r: Resource, mod: TfModule, file: string, files: InfraFiles, skipped: Skip[]): InfraFunction {
  const b = r.block;
  const source = { file, span: b.span };
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
    const target = resolveHandler(handler, code.dir, files);
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
  const t = textOf(e, mod);
  if (t) return t.holes ? { kind: 'template', text: t.text } : { kind: 'text', text: t.text };
  return { kind: 'opaque', text: e ? written(e) : '' };
}

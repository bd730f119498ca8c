/**
 * Reading a Terraform module from its folder: each `.tf` / `.tf.json` file parsed, its
 * variables (or a module call's arguments), locals, resources, data sources, module calls
 * and outputs gathered, and the copies `count` / `for_each` make expanded.
 */
import * as path from 'node:path';
import type { Span } from '../../../model';
import { parseTerraform } from '../../../syntax/parser';
import type { InfraFiles } from '../handlers';
import { attributesOf, blocksOf, firstError, type Block, type TfExpr } from './hcl';
import { expandInstances } from './instances';
import { blocksOfJson } from './json';
import type { TfModule } from './module';

export type Parsed = { blocks: Block[] } | { error: string; span: Span };

const TERRAFORM_FILE = /\.tf(\.json)?$/;
const NOWHERE = { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };

/**
 * The files parsed last, by path, with the text each was parsed from: every `.tf` file of a
 * folder reads its siblings as the rest of its module, so a folder of n files was parsed
 * n times over (a third of reading the 337 of a public monorepo). Blocks are never changed
 * once made, so they are shared. Bounded: the language server reads templates all day.
 */
const parsedFiles = new Map<string, { text: string; parsed: Parsed }>();
const MAX_PARSED_FILES = 256;

/** One file's blocks (HCL, or Terraform's JSON syntax for `*.tf.json`), or where and why it does not parse. */
export function parseFile(text: string, file = 'main.tf'): Parsed {
  const kept = parsedFiles.get(file);
  if (kept?.text === text) return kept.parsed;
  const parsed = parseAnew(text, file);
  parsedFiles.delete(file);
  parsedFiles.set(file, { text, parsed });
  if (parsedFiles.size > MAX_PARSED_FILES) parsedFiles.delete(parsedFiles.keys().next().value!);
  return parsed;
}

function parseAnew(text: string, file: string): Parsed {
  if (file.endsWith('.json')) return blocksOfJson(text);
  const tree = parseTerraform(text);
  if (!tree) return { error: 'the Terraform grammar is not loaded', span: NOWHERE };
  try {
    const err = firstError(tree.rootNode);
    if (err) return { error: `malformed HCL: ${err.what} at line ${err.span.startLine + 1}`, span: err.span };
    return { blocks: blocksOf(tree.rootNode) };
  } finally {
    tree.delete();
  }
}

/**
 * The module `file` belongs to, with `blocks` as its own; siblings that do not parse add
 * nothing. Its variables take the values Terraform loads by itself for the folder it runs
 * in (`variableFiles`) over their defaults.
 */
export function moduleOf(file: string, blocks: Block[], files: InfraFiles): TfModule {
  const dir = path.dirname(file);
  const all: Array<[string, Block[]]> = [[file, blocks], ...folderBlocks(dir, files, file)];
  return moduleFrom(dir, all, variableFiles(dir, files), files);
}

/**
 * What `terraform plan` reads without being told: `terraform.tfvars`, then each
 * `*.auto.tfvars` in name order, a later file's value winning. A file given with
 * `-var-file` (`prod.tfvars`) is a choice made at deploy time, and not read.
 */
function variableFiles(dir: string, files: InfraFiles): Map<string, TfExpr> {
  const values = new Map<string, TfExpr>();
  const listed = files.list?.(dir) ?? [];
  const auto = listed.filter((f) => f.endsWith('.auto.tfvars')).sort();
  const chosen = [...listed.filter((f) => path.basename(f) === 'terraform.tfvars'), ...auto];
  for (const f of chosen) {
    const text = files.read(f);
    const tree = text === null ? null : parseTerraform(text);
    if (!tree) continue;
    try {
      // One malformed line makes the whole file unread, as Terraform refuses it.
      if (firstError(tree.rootNode)) continue;
      for (const [k, v] of attributesOf(tree.rootNode)) values.set(k, v);
    } finally {
      tree.delete();
    }
  }
  return values;
}

/** The parsed Terraform files of a folder, but `except`. */
export function folderBlocks(dir: string, files: InfraFiles, except?: string): Array<[string, Block[]]> {
  const out: Array<[string, Block[]]> = [];
  for (const f of files.list?.(dir) ?? []) {
    if (!TERRAFORM_FILE.test(f) || (except && path.resolve(f) === path.resolve(except))) continue;
    const text = files.read(f);
    const parsed = text === null ? null : parseFile(text, f);
    if (parsed && 'blocks' in parsed) out.push([f, parsed.blocks]);
  }
  return out;
}

/** A module from its files' blocks; `args`: what a module call passes for its variables. */
export function moduleFrom(
  dir: string,
  all: Array<[string, Block[]]>,
  args: Map<string, TfExpr>,
  files: InfraFiles,
): TfModule {
  const mod: TfModule = {
    dir,
    variables: new Map(),
    locals: new Map(),
    resources: new Map(),
    modules: [],
    outputs: new Map(),
    files,
  };
  for (const [f, bs] of all)
    for (const b of bs) {
      if (b.type === 'variable' && b.labels[0])
        mod.variables.set(b.labels[0], args.get(b.labels[0]) ?? b.attributes.get('default') ?? null);
      else if (b.type === 'locals') for (const [k, v] of b.attributes) mod.locals.set(k, v);
      else if (b.type === 'output' && b.labels[0] && b.attributes.has('value'))
        mod.outputs.set(b.labels[0], b.attributes.get('value')!);
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
  expandInstances(mod);
  return mod;
}

/**
 * The DynamoDB tasks of Terraform's state machines (`aws_sfn_state_machine`), as
 * `infra/direct-accesses.ts` reads them from SAM: the `definition` written with
 * `jsonencode({...})`, rendered with `templatefile("${path.module}/flow.asl.json", {...})`,
 * or given as JSON text (a heredoc). A table named by a reference (`aws_dynamodb_table.t.name`,
 * directly or through a `templatefile` variable) is that table's name.
 */
import * as path from 'node:path';
import type { DirectAccess } from '../../../model/entry-point';
import type { Span } from '../../../model';
import { stateMachineAccesses } from '../direct-accesses';
import { kindsOf } from '../state-machines';
import { parseTree, scalarText, type TNode } from '../tree';
import type { TfExpr } from './hcl';
import { follow, referenced, textOf, type Resource, type TfModule } from './module';
import { tableOf } from './tables';
import { triggersOf } from './triggers';

export function terraformDirectAccesses(mod: TfModule, own: (r: Resource) => boolean): DirectAccess[] {
  const out: DirectAccess[] = [];
  for (const r of mod.resources.values()) {
    if (!own(r) || r.block.labels[0] !== 'aws_sfn_state_machine') continue;
    const definition = follow(r.block.attributes.get('definition'), mod);
    const read = definitionOf(definition, mod, r.file);
    if (!read) continue;
    const tableName = (n: TNode) => {
      const written = scalarText(n);
      const variable = written && /^\$\{(\w+)\}$/.exec(written);
      const e = refs.get(n) ?? (variable ? read.vars.get(variable[1]) : undefined);
      return e ? tableNamed(e, mod) : written && !written.includes('${') ? written : null;
    };
    // What starts the machine (rules, schedules, routes naming its arn): how often its steps run.
    const startedBy = kindsOf(triggersOf(r, mod, 1));
    out.push(...stateMachineAccesses(r.address, read.root, read.file, tableName).map((d) => ({ ...d, startedBy })));
  }
  return out;
}

/** The TNode a reference was converted to, and the reference: for the table it names. */
const refs = new WeakMap<TNode, TfExpr>();

function definitionOf(
  e: TfExpr | null,
  mod: TfModule,
  file: string,
): { root: TNode; file: string; vars: Map<string, TfExpr> } | null {
  if (!e) return null;
  if (e.kind === 'call' && e.name === 'jsonencode' && e.args[0])
    return { root: toTree(e.args[0]), file, vars: new Map() };
  if (e.kind === 'call' && e.name === 'templatefile' && e.args[0]) {
    const where = pathOf(e.args[0], mod);
    const text = where ? mod.files.read(where) : null;
    const root = text === null ? null : parseTree(text).root;
    const vars = new Map<string, TfExpr>();
    if (e.args[1]?.kind === 'object') for (const x of e.args[1].entries) vars.set(x.key, x.value);
    return root && where ? { root, file: where, vars } : null;
  }
  const json = textOf(e, mod);
  const root = json ? parseTree(json.text).root : null;
  return root ? { root, file, vars: new Map() } : null;
}

/** `"${path.module}/flow.asl.json"`, a literal path: the file, relative to the module's folder. */
function pathOf(e: TfExpr, mod: TfModule): string | null {
  if (e.kind === 'literal') return path.join(mod.dir, e.text);
  if (e.kind !== 'template') return null;
  const parts = e.parts.map((p) =>
    typeof p === 'string' ? p : p.kind === 'ref' && p.path.join('.') === 'path.module' ? mod.dir : null,
  );
  if (parts.some((p) => p === null)) return null;
  const joined = parts.join('');
  return path.isAbsolute(joined) ? joined : path.join(mod.dir, joined);
}

/** A table's name from a reference to it (`aws_dynamodb_table.tickets.name`), else null. */
function tableNamed(e: TfExpr, mod: TfModule): string | null {
  const target = referenced(e, mod)?.resource;
  if (target?.block.labels[0] !== 'aws_dynamodb_table') return null;
  return tableOf(target, mod).tableName;
}

/** An HCL value as the plain tree the ASL reader walks; references kept for `tableNamed`. */
function toTree(e: TfExpr, depth = 0): TNode {
  const span: Span = e.span;
  if (depth > 40) return { kind: 'scalar', value: null, span };
  switch (e.kind) {
    case 'literal':
      return { kind: 'scalar', value: e.text, span };
    case 'object':
      return { kind: 'map', entries: e.entries.map((x) => ({ key: x.key, value: toTree(x.value, depth + 1) })), span };
    case 'list':
      return { kind: 'seq', items: e.items.map((x) => toTree(x, depth + 1)), span };
    case 'template': {
      const text = e.parts.map((p) => (typeof p === 'string' ? p : '${…}')).join('');
      return { kind: 'scalar', value: text, span };
    }
    default: {
      // A reference or a call: a value known at deploy time, written as a hole.
      const n: TNode = { kind: 'scalar', value: '${…}', span };
      refs.set(n, e);
      return n;
    }
  }
}

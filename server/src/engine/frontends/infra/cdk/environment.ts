/**
 * A function's environment as the CDK writes it: `environment: { TABLE_NAME:
 * table.tableName }` in its props and `fn.addEnvironment('TABLE_NAME', table.tableName)`
 * after it. A table made in the same file is named by its construct id; text stays text;
 * a template literal keeps its other parts as deploy-time holes (`{$props.stage}`);
 * anything else is kept as written.
 */
import type { CdkValue } from '../../../model/cdk';
import type { EnvValue } from '../../../model/entry-point';
import {
  constructId,
  constructOf,
  propsOf,
  TABLE_CLASSES,
  textOf,
  written,
  type CallValue,
  type NewValue,
} from './values';

/** Text with its non-literal parts as `{$…}` holes, or null when nothing of it is literal. */
export function templateText(v: CdkValue): string | null {
  if (v.kind !== 'template' || !v.parts.some((p) => 'text' in p && p.text)) return null;
  return v.parts.map((p) => ('text' in p ? p.text : `{$${written(p.hole)}}`)).join('');
}

/** The table construct a value is the name of (`table.tableName`, `props.table.tableName`), and its file when another's; or null. */
export function tableNamed(v: CdkValue): { construct: NewValue; file: string | null } | null {
  if (v.kind !== 'member' || v.name !== 'tableName') return null;
  const table = constructOf(v.object);
  return table && TABLE_CLASSES.has(table.construct.className) ? table : null;
}

export function envValueOf(v: CdkValue): EnvValue {
  const table = tableNamed(v);
  const id = table && constructId(table.construct);
  if (id) return table.file ? { kind: 'table', logicalId: id, file: table.file } : { kind: 'table', logicalId: id };
  const text = textOf(v);
  if (text !== null) return { kind: 'text', text };
  if (v.kind === 'number' || v.kind === 'bool') return { kind: 'text', text: String(v.value) };
  const template = templateText(v);
  if (template !== null) return { kind: 'template', text: template };
  return { kind: 'opaque', text: written(v) };
}

/** The variables a function construct's props and its `addEnvironment` calls set, in that order. */
export function environmentOf(fn: NewValue, calls: readonly CallValue[]): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  const environment = propsOf(fn).find((e) => e.key === 'environment')?.value;
  for (const { key, value } of propsOf(environment?.kind === 'object' ? environment : null))
    env[key] = envValueOf(value);
  for (const c of calls) {
    if (c.name !== 'addEnvironment' || c.receiver?.kind !== 'new' || c.receiver.at !== fn.at) continue;
    const key = textOf(c.args[0]);
    if (key && c.args[1]) env[key] = envValueOf(c.args[1]);
  }
  return env;
}

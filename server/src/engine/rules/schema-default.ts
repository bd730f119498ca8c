import type { Access, Finding, RelatedLocation } from '../model';
import { sameTable } from '../keys/table';
import { render } from '../model/template';

/**
 * A library schema whose key attribute has a constant `default` (dynamoose's
 * `default: 'GLOBAL'`, PynamoDB's `default="GLOBAL"`) makes every write that leaves the
 * attribute out store that one partition. The schema is where the key is made and where
 * its fix goes, so it is the one place the finding stands, as ElectroDB's `composite: []`
 * and the toolbox's, OneTable's and TypeDORM's constant keys are reported: the
 * schema's own site (`library.schema`) carries the finding, and each write taking the
 * default (`library.defaulted`) is one of its related locations rather than a second
 * finding on the same key. The writes stay accesses of the key, since the fixes edit them
 * and the key's verdict counts them. One schema given to several tables (OneTable's
 * `new Table({ schema })` in each repository) is one declaration: its key is reported at
 * the first of those sites, the others related.
 */
export function atSchemaOnce(f: Finding, accessesOfKey: () => Access[]): Finding | null {
  if (f.rule !== 'SL001') return f;
  const a = f.access;
  const attribute = a.partitionKey?.attribute;
  if (!attribute || !a.library) return f;
  if (a.kind === 'write' && a.library.defaulted?.includes(attribute)) {
    // Only when the schema's site is read: else this write is the one place the key shows.
    return accessesOfKey().some((s) => s.library?.schema && same(s, a)) ? null : f;
  }
  if (!a.library.schema) return f;
  // Several tables given one schema (each repository making its own `new Table({ schema })`):
  // one key, made by one declaration, reported at the first of them, the others related.
  const twins = accessesOfKey().filter((s) => s !== a && s.library?.schema && same(s, a) && sameDeclaration(s, a));
  if (twins.some((s) => before(s, a))) return null;
  const alsoGiven: RelatedLocation[] = twins.map((s) => ({
    file: s.file,
    span: s.span,
    message: `this table is given the same schema, whose ${attribute} is this key`,
  }));
  const once = alsoGiven.length ? { ...f, related: [...f.related, ...alsoGiven] } : f;
  const writers = accessesOfKey().filter(
    (w) => w.kind === 'write' && !w.library?.schema && w.library?.defaulted?.includes(attribute) && same(w, a),
  );
  if (!writers.length) return once;
  const key = render(a.partitionKey!.template);
  // ElectroDB's key has no default: the pattern's `composite: []` makes it.
  const how =
    a.library.library === 'electrodb'
      ? `writes ${attribute} "${key}", which the schema alone makes`
      : `leaves ${attribute} to its default "${key}"`;
  const related: RelatedLocation[] = writers.map((w) => ({
    file: w.file,
    span: w.span,
    message: `this ${w.call.callee} ${how}`,
  }));
  return { ...once, related: [...once.related, ...related] };
}

/** Made by the same declaration in the schema (one field, however many tables are given it). */
function sameDeclaration(x: Access, y: Access): boolean {
  const [dx, dy] = [x.library!.declaration, y.library!.declaration];
  return dx.file === dy.file && dx.span.startLine === dy.span.startLine && dx.span.startColumn === dy.span.startColumn;
}

/** Whether `x` comes first in the workspace: by file, then position. */
function before(x: Access, y: Access): boolean {
  if (x.file !== y.file) return x.file < y.file;
  if (x.span.startLine !== y.span.startLine) return x.span.startLine < y.span.startLine;
  return x.span.startColumn < y.span.startColumn;
}

/** The same stored partition: model, table, index and key text. */
function same(x: Access, y: Access): boolean {
  return (
    x.library?.library === y.library?.library &&
    x.library?.entity === y.library?.entity &&
    (x.index ?? null) === (y.index ?? null) &&
    sameTable(x.table, y.table) &&
    x.partitionKey?.attribute === y.partitionKey?.attribute &&
    !!x.partitionKey &&
    !!y.partitionKey &&
    render(x.partitionKey.template) === render(y.partitionKey.template)
  );
}

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
 * and the key's verdict counts them.
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
  const writers = accessesOfKey().filter(
    (w) => w.kind === 'write' && !w.library?.schema && w.library?.defaulted?.includes(attribute) && same(w, a),
  );
  if (!writers.length) return f;
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
  return { ...f, related: [...f.related, ...related] };
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

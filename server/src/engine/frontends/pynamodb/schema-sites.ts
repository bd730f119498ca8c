/**
 * Where a model is declared: a hash key whose `default=` is one constant
 * (`UnicodeAttribute(hash_key=True, default="GLOBAL")`), of the table or of an index,
 * puts every item the code saves without it in one partition. That is a finding on the
 * attribute itself, so the declaration is a site: every such save writes that partition.
 * A model that inherits the attribute from a base model (`class AuditEvent(StreamEvent)`
 * with its own `Meta.table_name`) writes that partition of its own table: its site is its
 * class name, the attribute its declaration. A base without `Meta` has no table and no site.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { spanOf, spanWithin } from '../../syntax/span';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { SourceFile } from '../../model/frontend';
import { literalText } from '../../model/template';
import type { Entry, Value } from '../../model/value';
import { perItem } from '../library-requests';
import { schemaPutSite } from '../library-sites';
import { attributeDeclaration } from './requests';
import {
  keySchemaOf,
  modelKeys,
  modelSchema,
  type AttributeSchema,
  type IndexSchema,
  type ModelSchema,
} from './schema';

export function schemaSites(f: SourceFile, ctx: EvalContext): CallSite[] {
  return f.tree.rootNode.descendantsOfType('class_definition').flatMap((cls) => {
    if (!cls?.childForFieldName('superclasses')) return [];
    const m = modelSchema(ctx.evaluate(cls, ctx) ?? undefined);
    if (!m || m.file !== '' || m.abstract) return [];
    const sites: CallSite[] = [];
    if (constant(m.hash.default)) sites.push(site(cls, m, f, m.hash, m.range, null));
    // An index keyed by an attribute with a constant default (`gsi1pk = UnicodeAttribute(default="PROJECT")`):
    // every item saved without it lands in that one partition of the index.
    for (const ix of m.indexes.values()) {
      const own = m.attributes.get(ix.hash.name);
      const declared = constant(own?.default) ? own! : constant(ix.hash.default) ? ix.hash : null;
      if (declared) sites.push(site(cls, m, f, { ...declared, stored: ix.hash.stored }, ix.range, ix));
    }
    return sites;
  });
}

function constant(d: Value | undefined): boolean {
  return d?.kind === 'scalar' && literalText(d.template) !== null;
}

function site(
  cls: Node,
  m: ModelSchema,
  f: SourceFile,
  key: AttributeSchema,
  range: AttributeSchema | null,
  index: IndexSchema | null,
): CallSite {
  const at = ownAttribute(cls, key) ? key.span : spanOf(cls.childForFieldName('name') ?? cls);
  const d = perItem(key.default!) as Value & { kind: 'scalar' };
  const value: Value = { ...d, span: at, via: [attributeDeclaration(m, key)] };
  const item: Entry[] = [[key.stored, value, at]];
  if (range)
    item.push([
      range.stored,
      { kind: 'scalar', template: { parts: [{ hole: { kind: 'unknown', source: range.name } }] }, span: at },
      at,
    ]);
  return schemaPutSite({
    f,
    at,
    table: m.table,
    index: index?.indexName ?? null,
    item,
    sdk: 'boto3-resource',
    call: callStyle(cls, f.text, 'boto3-table', 'save', null),
    keySchema: keySchemaOf(m),
    library: {
      library: 'pynamodb',
      entity: m.name,
      accessPattern: index?.name ?? '',
      declaration: { file: key.file, span: key.span },
      model: modelKeys(m, index, f.file),
    },
  });
}

/** Whether the class body itself declares the attribute (not a base model it derives from). */
const ownAttribute = (cls: Node, a: AttributeSchema) => a.file === '' && spanWithin(a.span, spanOf(cls));

import type { Node } from 'web-tree-sitter';
import { type SourceLanguage, type SourceRange, type Span, spanOf } from '../../../../engine';
import type { FixContext } from '../../fix-model';
import { nodeAt, withTree } from '../../syntax';

/**
 * A dynamoose key attribute as its schema is written: the attribute's object
 * (`feed: { type: String, hashKey: true, default: 'GLOBAL' }`), its `default` value, and
 * the schema object around it, which names the range keys a reader merges by. Read from
 * the text, where the fix edits it; nodes are never kept (the tree may be freed).
 */
export interface KeyAttributeText {
  file: string;
  language: SourceLanguage;
  attribute: string;
  /** The `default` value expression, when the attribute has one. */
  defaultValue: { span: Span; text: string; type: string; body: { span: Span; text: string } | null } | null;
  /** The attributes object's last property: a new setting goes after it. */
  lastSetting: Span | null;
  /** The schema's range key (`rangeKey: true`). */
  tableRange: string | null;
  /** Each index declared on an attribute, by name: its range key. */
  indexRange: Map<string, string | null>;
}

const unquote = (s: string) => s.replace(/^['"`]|['"`]$/g, '');

/** The value of `key` in an object node, or null. */
function property(obj: Node, key: string): Node | null {
  for (const c of obj.namedChildren)
    if (c?.type === 'pair' && unquote(c.childForFieldName('key')?.text ?? '') === key)
      return c.childForFieldName('value');
  return null;
}

/** The attribute whose declaration (`feed: {...}`, as the front-end records it) is at `declaration`. */
export function keyAttributeText(ctx: FixContext, declaration: SourceRange): KeyAttributeText | null {
  const text = ctx.textOf(declaration.file);
  if (text === null) return null;
  return withTree(declaration.file, text, (tree, language) => {
    let pair = nodeAt(tree, declaration.span);
    while (pair && pair.type !== 'pair') pair = pair.parent;
    const settings = pair?.childForFieldName('value');
    const schema = pair?.parent;
    if (!pair || settings?.type !== 'object' || schema?.type !== 'object') return null;
    const d = property(settings, 'default');
    const body = d?.type === 'arrow_function' ? d.childForFieldName('body') : null;
    const pairs = settings.namedChildren.filter((c): c is Node => c?.type === 'pair');
    const out: KeyAttributeText = {
      file: declaration.file,
      language,
      attribute: unquote(pair.childForFieldName('key')?.text ?? ''),
      defaultValue: d
        ? {
            span: spanOf(d),
            text: d.text,
            type: d.type,
            body: body && body.type !== 'statement_block' ? { span: spanOf(body), text: body.text } : null,
          }
        : null,
      lastSetting: pairs.length ? spanOf(pairs[pairs.length - 1]) : null,
      tableRange: null,
      indexRange: new Map(),
    };
    for (const c of schema.namedChildren) {
      if (c?.type !== 'pair') continue;
      const name = unquote(c.childForFieldName('key')?.text ?? '');
      const v = c.childForFieldName('value');
      if (v?.type !== 'object') continue;
      if (property(v, 'rangeKey')?.text === 'true') out.tableRange ??= name;
      const ix = property(v, 'index');
      for (const i of ix?.type === 'array' ? ix.namedChildren : ix ? [ix] : []) {
        if (i?.type !== 'object') continue;
        const n = property(i, 'name');
        const r = property(i, 'rangeKey');
        const global = (property(i, 'type')?.text ?? "'global'").includes('global');
        const indexName = n ? unquote(n.text) : `${name}${global ? 'GlobalIndex' : 'LocalIndex'}`;
        out.indexRange.set(indexName, global ? (r ? unquote(r.text) : null) : name);
      }
    }
    return out;
  });
}

/** The range key a query of the table (`index` null) or an index returns its items ordered by. */
export function rangeKeyOf(schema: KeyAttributeText, index: string | null): string | null {
  return index === null ? schema.tableRange : (schema.indexRange.get(index) ?? null);
}

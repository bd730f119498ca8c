/**
 * Where an entity's schema alone fixes a partition key (`partitionKey: 'SETTINGS'`, an
 * index keyed `'USERS'`): every item of the entity goes to one partition, so the
 * schema is a site (every create of the entity), and creates of it are not reported
 * again (`calls.ts`). The site is where the entity meets its table: in the
 * `createConnection({ table, entities: [User, Setting] })` that lists it, at the key's
 * `partitionKey` pair when the entity is declared in that module, else at the entity's
 * name in `entities`, with the pair as related location; an entity naming its own
 * table (`@Entity({ table })`) is the site at its declaration.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { schemaPutSite } from '../library-sites';
import { candidateCalls } from '../../syntax/candidates';
import type { Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { SourceFile } from '../../model/frontend';
import { entry, type Entry } from '../../model/value';
import { fixedBySchema, storedKey } from './keys';
import { keySchemaOf } from './requests';
import { connectionTable, entitySchema, storedNames, type EntitySchema } from './schema';

const ENTITY = /@\s*(?<name>Entity)\s*\(/g;
const CONNECTION = /\b(?<name>createConnection)\s*\(/g;
const CALLS = new Set(['call_expression']);

export function schemaSites(f: SourceFile, ctx: EvalContext): CallSite[] {
  const value = (n: Node) => ctx.evaluate(n, ctx) ?? undefined;
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, CONNECTION, CALLS)) {
    const connection = value(call);
    const entities = entry(connection?.kind === 'object' ? connection.made?.args[0] : undefined, 'entities');
    if (entities?.kind !== 'array') continue;
    for (const item of entities.items) {
      const e = entitySchema(item, connectionTable(connection));
      if (!e || e.ownTable) continue;
      const here = e.file === '' || e.file === f.file;
      sites.push(...entitySites(e, call, f, here ? null : item.span));
    }
  }
  for (const d of candidateCalls(f.tree, f.text, ENTITY, CALLS)) {
    const cls = classOf(d);
    const e = cls ? entitySchema(value(cls), undefined) : null;
    if (e?.ownTable && cls) sites.push(...entitySites(e, cls, f, null));
  }
  return sites;
}

/** The class a decorator's call is written on (`@Entity(...) export class User`). */
function classOf(call: Node): Node | null {
  const decorator = call.parent?.type === 'decorator' ? call.parent : null;
  const holder = decorator?.parent;
  if (holder?.type === 'class_declaration') return holder;
  return holder?.type === 'export_statement' ? holder.childForFieldName('declaration') : null;
}

/** A site for each key of the entity the schema alone fixes, at `listed` (the entity's name in `entities`) or the key. */
function entitySites(e: EntitySchema, n: Node, f: SourceFile, listed: Span | null): CallSite[] {
  const none = () => undefined;
  return [e.primary, ...e.indexes.filter((k) => !k.local)].flatMap((key): CallSite[] => {
    if (!fixedBySchema(e, key, none)) return [];
    const at = listed ?? key.span;
    const stored = storedKey(e, key, key.partition, none, true, at);
    if (!stored) return [];
    const sk = key.sort ? storedKey(e, key, key.sort, none, true, at) : null;
    const names = storedNames(e, key);
    // The finding lands at `at`; the key's declaration stays related (`via`).
    const item: Entry[] = [[names.partition, { ...stored.value, span: at }, at]];
    if (sk && names.sort) item.push([names.sort, sk.value, at]);
    return [
      schemaPutSite({
        f,
        at,
        table: e.table?.name,
        index: key.name === 'primary' ? null : key.name,
        item,
        call: callStyle(n, f.text, 'v2-call', n.type === 'call_expression' ? 'createConnection' : '@Entity', null),
        keySchema: keySchemaOf(e),
        library: {
          library: 'typedorm',
          entity: e.name,
          accessPattern: key.name,
          declaration: { file: e.file, span: key.span },
        },
      }),
    ];
  });
}

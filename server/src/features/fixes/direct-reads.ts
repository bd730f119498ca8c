import { compileMatcher, type DirectAccess, type LogicalKey, literalText, render } from '../../engine';
import { memoized, type FixContext } from './fix-model';
import { where } from './key-sites';

/**
 * A key a state machine or an API Gateway integration also names (`"PK": {"S": "orders"}` in
 * an ASL task, in a VTL mapping template): those requests are written in infrastructure
 * code, where no fix can add the shard part. Sharding the key in the code alone would leave
 * them asking for the bare key: an update there would create a new item beside the sharded
 * one, a get would find nothing. So a shard fix is refused while such a request exists.
 */
export function directRequestOf(key: LogicalKey, ctx: FixContext): DirectAccess | null {
  const matches = compileMatcher([{ key, template: key.template }]);
  const text = literalText(key.template);
  for (const d of directAccesses(ctx)) {
    if ((d.index ?? null) !== key.index || !sameTable(d.table, key.table)) continue;
    const named = d.attributes.find((a) => a.name === key.attribute && a.value !== null);
    if (!named) continue;
    if (named.value === text || matches(named.value!).length > 0) return d;
  }
  return null;
}

/** Why the fix is refused, naming the request: "the state machine OrderFlow's UpdateItem at om.asl.json:41 …". */
export function directRequestReason(d: DirectAccess, key: LogicalKey, ctx: FixContext): string {
  const owner = d.via === 'state-machine' ? `the state machine ${d.owner}` : `the API ${d.owner}`;
  return `${owner} makes a ${d.operation} of "${render(key.template)}" at ${where(ctx, d.source.file, d.source.span)}, written in its definition where no fix can add the shard: it would no longer find the items once they are sharded`;
}

/** A table unknown on either side may be the same table; names with holes or variables are unknown. */
function sameTable(direct: string | null, key: string | null): boolean {
  if (direct === null || key === null || key.startsWith('$') || /[{$]/.test(direct)) return true;
  return direct === key;
}

function directAccesses(ctx: FixContext): DirectAccess[] {
  return memoized(ctx, ctx, 'direct-accesses', () => ctx.directAccesses?.() ?? []);
}

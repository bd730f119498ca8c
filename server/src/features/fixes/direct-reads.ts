import { directRequestsOf, type DirectAccess, type LogicalKey, render } from '../../engine';
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
  return directRequestsOf(key, directAccesses(ctx))[0] ?? null;
}

/** Why the fix is refused, naming the request: "the state machine OrderFlow makes a UpdateItem … at om.asl.json:41 …". */
export function directRequestReason(d: DirectAccess, key: LogicalKey, ctx: FixContext): string {
  const owner = d.via === 'state-machine' ? `the state machine ${d.owner}` : `the API ${d.owner}`;
  return `${owner} makes a ${d.operation} of "${render(key.template)}" at ${where(ctx, d.source.file, d.source.span)}, written in its definition where no fix can add the shard: it would no longer find the items once they are sharded`;
}

function directAccesses(ctx: FixContext): readonly DirectAccess[] {
  return memoized(ctx, ctx, 'direct-accesses', () => ctx.directAccesses?.() ?? []);
}

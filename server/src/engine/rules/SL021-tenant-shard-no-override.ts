import type { Access, FixDescriptor } from '../model';
import type { AccessRule } from './rule';

/**
 * A tenant routed to a shard, partition, table or cluster by a hash of its id
 * (`hash(tenantId) % NUM_SHARDS`) with no lookup before the hash that could send a hot
 * tenant elsewhere. The hash spreads tenants evenly, not their traffic: the tenant with
 * 40% of the queries takes its shard with it, and moving it means changing the hash for
 * everyone. An info: many services never have such a tenant, and the code cannot say.
 */

function placeOf(a: Access): string {
  const fn = a.library?.entity ?? '?';
  return fn === '?' ? 'this routing' : `\`${fn}\``;
}

function dedicated(a: Access, key: string): FixDescriptor[] {
  // At a wrapper's caller the remainder is the wrapper's, written in another function.
  const route = a.library?.route;
  return route && !a.through ? [{ kind: 'dedicated-tenants', key, route }] : [];
}

export const tenantShardNoOverride: AccessRule = {
  scope: 'access',
  subject: 'tenant-route',
  code: 'SL021',
  category: 'tenant-shard-no-override',
  defaultSeverity: 'info',
  summary:
    'A tenant routed to a shard, partition, table or cluster by a hash of its id, with no lookup first that could send a hot tenant elsewhere.',
  fixKinds: ['dedicated-tenants'],
  messages: { noOverride: 'a tenant routed by a hash of its id, with no way to move a hot tenant' },
  check(input) {
    const { access } = input;
    // The routing function's callers are not routes of their own: it is reported once, where the hash is.
    if (access.through || !access.library?.route) return null;
    const tenant = access.library.route.tenant;
    return {
      access,
      messageId: 'noOverride',
      span: access.library.route.hash,
      message:
        `${placeOf(access)} routes each tenant by a hash of \`${tenant}\` alone: tenants spread evenly, their ` +
        `traffic does not. The tenant with the most traffic stays on its shard with every tenant that hashes ` +
        `beside it, and moving it means changing the hash for all of them. Look the tenant up first (a map of ` +
        `dedicated tenants, each to a shard or database of its own) and hash the others.`,
      fixes: dedicated(access, input.key.id),
    };
  },
};

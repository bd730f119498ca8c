/**
 * What the names around a hash say: that the hashed value is a tenant (by the tenant
 * words SL022 reads too, `frontends/names.ts`), and that the remainder picks a place to send
 * it (a shard, a partition, a table, a cluster, a database). A user id or an order id is
 * not a tenant: there are millions of them and none takes a large share of the traffic.
 */
import type { Node } from 'web-tree-sitter';
import { isIdWord, isTenantName } from '../names';
import { inner, words, type Shapes } from './syntax';

const PLACES = new Set([
  'shard', 'shards', 'partition', 'partitions', 'cluster', 'clusters', 'table', 'tables', 'database', 'databases',
  'db', 'dbs', 'node', 'nodes', 'cell', 'cells', 'host', 'hosts', 'server', 'servers', 'pool', 'pools', 'slot',
  'slots', 'region', 'regions', 'instance', 'instances', 'replica', 'replicas', 'queue', 'queues', 'worker', 'workers',
  'route', 'routing', 'backend', 'backends', 'connection', 'connections', 'conn', 'conns', 'silo', 'silos', 'stamp',
]); // prettier-ignore

/**
 * The tenant a hashed value names, as written, or null: `tenantId`, `tenant.id`,
 * `req.params.orgId`, `event["tenant_id"]`, `self.account_id`.
 */
export function tenantOf(n: Node, s: Shapes): string | null {
  const at = inner(n, s);
  if (at.type === 'identifier') return isTenantName(at.text) ? at.text : null;
  if (at.type === s.member) {
    const name = at.childForFieldName(s.memberName)?.text ?? '';
    if (isTenantName(name)) return at.text;
    // `tenant.id`, `org.slug`: the id of an object named for the tenant.
    const object = at.childForFieldName('object');
    const objectName = object ? lastWord(object, s) : '';
    return isIdWord(name) && isTenantName(objectName) ? at.text : null;
  }
  if (at.type === s.subscript) {
    const index = at.childForFieldName(s.subscriptIndex);
    const key = index?.text.replace(/^['"`]|['"`]$/g, '') ?? '';
    return index && /^['"`]/.test(index.text) && isTenantName(key) ? at.text : null;
  }
  return null;
}

function lastWord(n: Node, s: Shapes): string {
  const at = inner(n, s);
  if (at.type === 'identifier') return at.text;
  if (at.type === s.member) return at.childForFieldName(s.memberName)?.text ?? '';
  return '';
}

/** Whether a name says it is a place traffic is sent to: `NUM_SHARDS`, `shardFor`, `clusters`. */
export function namesPlace(name: string): boolean {
  return words(name).some((w) => PLACES.has(w));
}

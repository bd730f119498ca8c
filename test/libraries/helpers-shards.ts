/** What the library fix tests check of a sharded key: the FNV-1a shard of a value, and how the engine reads each access after a fix. */
import { indexWorkspace } from '../fixes/helpers-write';

/** FNV-1a (32 bits) of the UTF-8 bytes, written out here as its definition says: what the generated helpers must compute. */
export function fnv(value: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(value)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

/** `fnv1a32(s) % n`, to check the stored shard. */
export const fnvShard = (s: string, n: number): number => fnv(s) % n;

/** How the engine reads each access of the entity: `operation method count` of its key's shard part. */
export async function shardsRead(dir: string, entity: string): Promise<string[]> {
  const { index } = await indexWorkspace(dir);
  return index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.library?.entity === entity)
    .map((a) => {
      const shard = a.partitionKey?.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
      const set = shard && 'hole' in shard ? shard.hole.shards : null;
      return `${a.operation} ${set?.method} ${set?.values?.length}`;
    });
}

/**
 * Functions the fixes write into a user's code that the engine must read back as what
 * they stand for: the paged reader of every shard the ElectroDB shard fix writes
 * (`readShardPage(N, (shard, cursor, limit) => <query of one shard>, ...)`) calls its
 * callback once per shard, 0..N-1, as `Array.from({ length: N }, (_, shard) => ...)` does.
 */
export const SHARD_PAGE_READER = 'readShardPage';

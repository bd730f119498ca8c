/** See engine-hash.mjs. */
export function engineSourceHash(root?: string): string;

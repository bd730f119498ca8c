import * as path from 'node:path';
import type { InfraFiles } from './handlers';

/** How many folders up an app's folder is looked for: deeper than any source tree nests its stacks. */
const MAX_UP = 12;

/**
 * The nearest folder from `dir` up holding one of `names`, or null: the folder `cdk` runs an
 * app in (`cdk.json`), the one SST reads its config in (`sst.config.ts`).
 */
export function folderHolding(dir: string, names: readonly string[], files: InfraFiles): string | null {
  for (let i = 0; i < MAX_UP; i++) {
    if (names.some((n) => files.exists(path.join(dir, n)))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

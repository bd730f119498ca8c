// Live heat's AWS calls need the SDK, which a server that never connects does not: they
// are a bundle of their own, dist/server-heat.js beside the server's (built from
// heat/aws.ts), loaded at the first use; the sources when running under tsx.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type AwsHeat = typeof import('../heat/aws');

let loaded: AwsHeat | null = null;

export function awsHeat(): AwsHeat {
  if (loaded) return loaded;
  const candidates = [
    path.join(__dirname, 'server-heat.js'), // dist/server-main.js → dist/server-heat.js
    path.join(__dirname, '..', 'heat', 'aws.ts'), // server/src/lsp/load-heat.ts → heat/aws.ts (tsx)
  ];
  const entry = candidates.find((p) => existsSync(p));
  if (!entry) throw new Error('live heat is not built (dist/server-heat.js is missing): run `npm run build`');
  // createRequire keeps the bundler from inlining the SDK into the server's bundle.
  loaded = createRequire(__filename)(entry) as AwsHeat;
  return loaded;
}

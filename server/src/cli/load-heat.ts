// Live heat needs the AWS SDK, which a plain `shardlens check` does not: parsing it
// at every start-up cost 15 MB of memory and 30 ms. So `check --heat` and `shardlens
// heat` load it when asked for: dist/cli-heat.js beside the CLI bundle (built from
// heat.ts), or the sources when running under tsx.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type HeatModule = typeof import('./heat');

export function loadHeat(): HeatModule {
  const candidates = [
    path.join(__dirname, 'cli-heat.js'), // dist/cli.js → dist/cli-heat.js
    path.join(__dirname, 'heat.ts'), // server/src/cli/main.ts → heat.ts (tsx)
  ];
  const entry = candidates.find((p) => existsSync(p));
  if (!entry) throw new Error('live heat is not built (dist/cli-heat.js is missing): run `npm run build`');
  // createRequire keeps the bundler from inlining the SDK into the CLI bundle.
  return createRequire(__filename)(entry) as HeatModule;
}

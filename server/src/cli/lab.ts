// `shardlens lab`: the local hot-partition lab (a DynamoDB + CloudWatch
// endpoint that throttles per partition key; see docs/lab.md).
//
// The lab lives in lab/, outside this TypeScript project, and needs dynalite
// and the AWS SDK, which `shardlens check` does not. So it is loaded when the
// subcommand runs rather than imported: from dist/lab.js beside the CLI bundle
// (built from lab/cli.ts), or from the sources when running under tsx.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface LabEntry {
  runLabCli(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number>;
}

function locateLab(): string | undefined {
  const candidates = [
    path.join(__dirname, 'lab.js'), // dist/cli.js → dist/lab.js
    path.join(__dirname, '..', '..', '..', 'lab', 'cli.ts'), // server/src/cli → lab/cli.ts
  ];
  return candidates.find((p) => existsSync(p));
}

/** Runs `shardlens lab ...`; `argv` excludes the word `lab`. Resolves to the exit code. */
export async function labMain(argv: string[]): Promise<number> {
  const entry = locateLab();
  if (!entry) {
    process.stderr.write('shardlens: the lab is not built (dist/lab.js is missing); run `npm run build`.\n');
    return 2;
  }
  // createRequire keeps bundlers from trying to inline the lab into the CLI bundle.
  const lab = createRequire(__filename)(entry) as LabEntry;
  return lab.runLabCli(argv, process.stdout, process.stderr);
}

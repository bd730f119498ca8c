// Entry of `shardlens lab`: serve until SIGINT/SIGTERM, or run the demo.
// server/src/cli/lab.ts loads this module at run time (see there why).

import { LAB_USAGE, LabUsageError, parseLabArgs, type ServeOptions } from './cli-args';
import { runDemo } from './demo';
import { startLab } from './lab';

type Out = NodeJS.WritableStream;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

async function serve(o: ServeOptions, out: Out, err: Out): Promise<number> {
  let lab;
  try {
    lab = await startLab({
      port: o.port,
      host: o.host,
      dataDir: o.dataDir,
      writeLimit: o.writeLimit,
      readLimit: o.readLimit,
      periodSeconds: o.periodSeconds,
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    err.write(
      `shardlens lab: cannot listen on ${o.host}:${o.port}${code ? ` (${code})` : ''}: ${(e as Error).message}\n`,
    );
    return 1;
  }
  if (!LOOPBACK.has(o.host)) {
    err.write(
      `shardlens lab: warning: listening on ${o.host}. The lab checks no signatures: anyone who can reach this ` +
        'address can read and change its tables.\n',
    );
  }
  out.write(
    `ShardLens lab on ${lab.url} (DynamoDB + CloudWatch; data ${o.dataDir ? `in ${o.dataDir}` : 'in memory'})\n` +
      `  per-key ceilings: ${o.writeLimit} WCU/s, ${o.readLimit} RCU/s; metric period ${o.periodSeconds} s\n` +
      `  point the SDKs at it: new DynamoDBClient({ endpoint: '${lab.url}' }), ` +
      `boto3.client('dynamodb', endpoint_url='${lab.url}')\n` +
      '  Ctrl-C stops it.\n',
  );
  // A stray exception in a request must not take the lab down mid-experiment.
  const onUncaught = (e: Error) =>
    err.write(`shardlens lab: internal error (still serving): ${e.stack ?? e.message}\n`);
  process.on('uncaughtException', onUncaught);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  out.write('shardlens lab: stopping\n');
  await lab.close();
  process.off('uncaughtException', onUncaught);
  return 0;
}

export async function runLabCli(argv: string[], out: Out = process.stdout, err: Out = process.stderr): Promise<number> {
  let parsed;
  try {
    parsed = parseLabArgs(argv);
  } catch (e) {
    if (e instanceof LabUsageError) {
      err.write(`shardlens lab: ${e.message}\n\n${LAB_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.command === 'help') {
    out.write(LAB_USAGE + '\n');
    return 0;
  }
  if (parsed.command === 'demo') return runDemo(parsed.options, out, err);
  return serve(parsed.options, out, err);
}

if (require.main === module) {
  void runLabCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

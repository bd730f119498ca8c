// Entry of `shardlens lab`: serve until SIGINT/SIGTERM, or run the demo.
// server/src/cli/lab.ts loads this module at run time (see there why).

import { LAB_USAGE, LabUsageError, parseLabArgs, type ServeOptions } from './cli-args';
import { runDemo } from './demo';
import { startLab } from './lab';

type Out = NodeJS.WritableStream;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** How long a signalled lab may take to close before it exits regardless. */
export const STOP_DEADLINE_MS = 800;

/**
 * A writer that gives up on a stream once it has failed. A lab whose output
 * pipe was closed (its terminal or parent went away) must keep serving and
 * stop on a signal; writing to the dead pipe only raises EPIPE again, and an
 * EPIPE raised from the exception handler would call that handler forever.
 */
export function safeWriter(stream: Out): (text: string) => void {
  let broken = false;
  // Without a listener a failed write becomes an uncaught exception.
  stream.on('error', () => {
    broken = true;
  });
  return (text) => {
    const s = stream as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
    if (broken || s.destroyed || s.writableEnded) return;
    try {
      stream.write(text);
    } catch {
      broken = true;
    }
  };
}

async function serve(o: ServeOptions, outStream: Out, errStream: Out): Promise<number> {
  const out = safeWriter(outStream);
  const err = safeWriter(errStream);
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
    err(`shardlens lab: cannot listen on ${o.host}:${o.port}${code ? ` (${code})` : ''}: ${(e as Error).message}\n`);
    return 1;
  }
  if (!LOOPBACK.has(o.host)) {
    err(
      `shardlens lab: warning: listening on ${o.host}. The lab checks no signatures: anyone who can reach this ` +
        'address can read and change its tables.\n',
    );
  }
  out(
    `ShardLens lab on ${lab.url} (DynamoDB + CloudWatch; data ${o.dataDir ? `in ${o.dataDir}` : 'in memory'})\n` +
      `  per-key ceilings: ${o.writeLimit} WCU/s, ${o.readLimit} RCU/s; metric period ${o.periodSeconds} s\n` +
      `  point the SDKs at it: new DynamoDBClient({ endpoint: '${lab.url}' }), ` +
      `boto3.client('dynamodb', endpoint_url='${lab.url}')\n` +
      '  Ctrl-C stops it.\n',
  );
  // A stray exception in a request must not take the lab down mid-experiment.
  // The handler only reports, through the writer that goes quiet once stderr
  // has failed, and never reports while already reporting.
  let reporting = false;
  const onUncaught = (e: Error) => {
    if (reporting) return;
    reporting = true;
    try {
      err(`shardlens lab: internal error (still serving): ${e?.stack ?? e?.message ?? String(e)}\n`);
    } finally {
      reporting = false;
    }
  };
  process.on('uncaughtException', onUncaught);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // Whatever happens to the streams or to close(), the process ends promptly:
  // past the deadline (or on a second signal) it exits without waiting.
  const force = () => process.exit(0);
  const deadline = setTimeout(force, STOP_DEADLINE_MS);
  deadline.unref();
  process.once(signal, force);
  out('shardlens lab: stopping\n');
  await lab.close();
  clearTimeout(deadline);
  process.off(signal, force);
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

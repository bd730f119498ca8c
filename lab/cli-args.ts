// Arguments of `shardlens lab` and `shardlens lab demo`, in the style of the
// `check` command's parser (server/src/cli/args.ts): `--flag value` or
// `--flag=value`, UsageError on anything unknown.

export class LabUsageError extends Error {}

export interface ServeOptions {
  port: number;
  host: string;
  hostGiven: boolean;
  dataDir?: string;
  writeLimit: number;
  readLimit: number;
  periodSeconds: number;
}

export interface DemoOptions {
  port: number;
  host: string;
  rate: number;
  phaseSeconds: number;
  shards: number;
  /** Per-partition-key write ceiling of the demo's lab, WCU/s. */
  writeLimit: number;
}

export type LabCommand =
  { command: 'help' } | { command: 'serve'; options: ServeOptions } | { command: 'demo'; options: DemoOptions };

export const LAB_USAGE = `Usage: shardlens lab [options]
       shardlens lab demo [options]

Starts a local endpoint that speaks DynamoDB and CloudWatch to the real AWS
SDKs (endpoint http://127.0.0.1:8000). Every request is served by an
in-process dynalite after a metering layer that throttles each partition key
at DynamoDB's per-partition ceilings and records CloudWatch metrics and
Contributor Insights reports. Signatures are not checked.

Options:
  --port <n>          port to listen on (default 8000; 0 picks a free port)
  --host <address>    address to bind (default 127.0.0.1; any other address
                      exposes the lab, unauthenticated, to that network)
  --data <dir>        keep tables in this folder (default: in memory)
  --write-limit <n>   per-partition-key write ceiling in WCU/s (default 1000)
  --read-limit <n>    per-partition-key read ceiling in RCU/s (default 3000)
  --period <s>        metric and Contributor Insights period in seconds
                      (default 60; shorten it for demos)
  -h, --help          show this help

Demo (starts its own lab on a free port, drives the celebrity leaderboard
first against BOARD#global, then against BOARD#global#<0..N-1>):
  --rate <n>          target write rate in WCU/s (default 3000)
  --phase <s>         seconds per phase (default 10, 2..30)
  --shards <n>        shard count of the second phase (default 10)
  --write-limit <n>   per-partition-key write ceiling in WCU/s (default 1000;
                      lower it, with --rate, on a machine that cannot offer
                      more than 1,000 writes/s)

Exit codes: 0 stopped normally, 1 could not start, 2 usage error.`;

function positive(flag: string, v: string | undefined, integer: boolean, max = Infinity): number {
  const n = Number(v);
  if (v === undefined || v === '' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)) || n > max) {
    throw new LabUsageError(
      `${flag} needs a positive ${integer ? 'whole ' : ''}number${max < Infinity ? ` up to ${max}` : ''} (got "${v ?? ''}")`,
    );
  }
  return n;
}

function port(v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new LabUsageError(`--port needs 0..65535 (got "${v ?? ''}")`);
  return n;
}

/** Parses the arguments after `lab`. Throws LabUsageError. */
export function parseLabArgs(argv: string[]): LabCommand {
  const demo = argv[0] === 'demo';
  const serve: ServeOptions = {
    port: 8000,
    host: '127.0.0.1',
    hostGiven: false,
    writeLimit: 1000,
    readLimit: 3000,
    periodSeconds: 60,
  };
  const demoOpts: DemoOptions = {
    port: 0,
    host: '127.0.0.1',
    rate: 3000,
    phaseSeconds: 10,
    shards: 10,
    writeLimit: 1000,
  };
  for (let i = demo ? 1 : 0; i < argv.length; i++) {
    const raw = argv[i];
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const inline = eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = () => inline ?? argv[++i];
    const serveOnly = () => {
      if (demo) throw new LabUsageError(`${flag} is not a demo option`);
    };
    const demoOnly = () => {
      if (!demo) throw new LabUsageError(`${flag} is only for "shardlens lab demo"`);
    };
    switch (flag) {
      case '-h':
      case '--help':
        return { command: 'help' };
      case '--port':
        serve.port = demoOpts.port = port(value());
        break;
      case '--host': {
        const h = value();
        if (!h) throw new LabUsageError('--host needs an address');
        serve.host = demoOpts.host = h;
        serve.hostGiven = true;
        break;
      }
      case '--data': {
        serveOnly();
        const d = value();
        if (!d) throw new LabUsageError('--data needs a folder');
        serve.dataDir = d;
        break;
      }
      case '--write-limit':
        serve.writeLimit = demoOpts.writeLimit = positive(flag, value(), false);
        break;
      case '--read-limit':
        serveOnly();
        serve.readLimit = positive(flag, value(), false);
        break;
      case '--period':
        serveOnly();
        serve.periodSeconds = positive(flag, value(), true, 3600);
        break;
      case '--rate':
        demoOnly();
        demoOpts.rate = positive(flag, value(), true, 20000);
        break;
      case '--phase':
        demoOnly();
        demoOpts.phaseSeconds = positive(flag, value(), true, 30);
        if (demoOpts.phaseSeconds < 2) throw new LabUsageError('--phase needs at least 2 seconds');
        break;
      case '--shards':
        demoOnly();
        demoOpts.shards = positive(flag, value(), true, 100);
        break;
      default:
        throw new LabUsageError(raw.startsWith('-') ? `unknown option "${raw}"` : `unexpected argument "${raw}"`);
    }
  }
  return demo ? { command: 'demo', options: demoOpts } : { command: 'serve', options: serve };
}

// Child process of lab/bench.ts: serves either dynalite alone or the lab on
// a free loopback port, prints "PORT <n>", and runs until SIGTERM, so the
// bench's client and the server under test do not share one event loop.

import dynalite from 'dynalite';
import { startLab } from '../lab';

async function main(): Promise<void> {
  const which = process.argv[2];
  let close: () => Promise<void>;
  let port: number;
  if (which === 'dynalite') {
    const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
    close = () => new Promise((r) => server.close(() => r()));
  } else if (which === 'lab') {
    const lab = await startLab({ port: 0, tableStateMs: 0 });
    port = lab.port;
    close = () => lab.close();
  } else {
    throw new Error(`usage: bench/server.ts dynalite|lab (got ${which})`);
  }
  process.stdout.write(`PORT ${port}\n`);
  process.once('SIGTERM', () => void close().then(() => process.exit(0)));
}

void main();

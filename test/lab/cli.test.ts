// `shardlens lab` as a command: arguments, serving until SIGTERM, failing to
// start, and the demo's measured output. Child processes are stopped by PID.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LabUsageError, parseLabArgs } from '../../lab/cli-args';
import { CREDENTIALS } from './helpers';

const RUNNER = path.join(__dirname, 'run-lab-main.ts');

function launch(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const waitFor = async (re: RegExp, ms: number) => {
    const end = Date.now() + ms;
    while (!re.test(out)) {
      if (Date.now() > end || child.exitCode !== null) throw new Error(`no ${re} in output:\n${out}\n${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return re.exec(out)!;
  };
  return { child, exited, waitFor, output: () => out, errors: () => err };
}

describe('lab arguments', () => {
  test('defaults: port 8000 on loopback, the service ceilings, a 60 s period', () => {
    assert.deepEqual(parseLabArgs([]), {
      command: 'serve',
      options: {
        port: 8000,
        host: '127.0.0.1',
        hostGiven: false,
        writeLimit: 1000,
        readLimit: 3000,
        periodSeconds: 60,
      },
    });
  });

  test('flags, with separate or inline values', () => {
    const p = parseLabArgs([
      '--port=9000',
      '--data',
      '/tmp/x',
      '--write-limit',
      '500',
      '--read-limit=1500',
      '--period',
      '5',
      '--host',
      '0.0.0.0',
    ]);
    assert.deepEqual(p, {
      command: 'serve',
      options: {
        port: 9000,
        host: '0.0.0.0',
        hostGiven: true,
        dataDir: '/tmp/x',
        writeLimit: 500,
        readLimit: 1500,
        periodSeconds: 5,
      },
    });
    assert.deepEqual(parseLabArgs(['demo', '--rate', '2000', '--phase=4']), {
      command: 'demo',
      options: { port: 0, host: '127.0.0.1', rate: 2000, phaseSeconds: 4, shards: 10, writeLimit: 1000 },
    });
    assert.deepEqual(parseLabArgs(['demo', '--write-limit=150', '--rate', '600']), {
      command: 'demo',
      options: { port: 0, host: '127.0.0.1', rate: 600, phaseSeconds: 10, shards: 10, writeLimit: 150 },
    });
  });

  test('bad input is a usage error', () => {
    for (const argv of [
      ['--port', 'x'],
      ['--port', '70000'],
      ['--period', '0'],
      ['--write-limit'],
      ['--rate', '5'],
      ['demo', '--data', 'x'],
      ['--nope'],
      ['extra'],
      ['demo', '--phase', '60'],
    ]) {
      assert.throws(() => parseLabArgs(argv), LabUsageError, argv.join(' '));
    }
  });
});

describe('shardlens lab (through server/src/cli/lab.ts)', () => {
  test('--help prints the usage; a bad flag exits 2', async () => {
    const help = launch(['--help']);
    assert.equal(await help.exited, 0);
    assert.match(help.output(), /Usage: shardlens lab \[options\]/);
    const bad = launch(['--port', 'nope']);
    assert.equal(await bad.exited, 2);
    assert.match(bad.errors(), /--port needs 0\.\.65535/);
  });

  test('serves the SDKs until SIGTERM, then exits 0', async () => {
    const lab = launch(['--port', '0', '--period', '1']);
    const [, url] = await lab.waitFor(/ShardLens lab on (http:\/\/127\.0\.0\.1:\d+)/, 15_000);
    const client = new DynamoDBClient({ endpoint: url, region: 'us-east-1', credentials: CREDENTIALS });
    assert.deepEqual((await client.send(new ListTablesCommand({}))).TableNames, []);
    client.destroy();
    lab.child.kill('SIGTERM');
    assert.equal(await lab.exited, 0);
    assert.match(lab.output(), /stopping/);
  });

  test('stops within a second of SIGTERM when its output pipes are closed, without spinning', async () => {
    // The parent (a terminal, a CI runner) went away: both pipes are closed.
    // Writing "stopping" then fails with EPIPE; that failure must not reach
    // the exception handler, whose own write would fail again, forever.
    const lab = launch(['--port', '0', '--period', '1']);
    await lab.waitFor(/ShardLens lab on/, 15_000);
    lab.child.stdout.destroy();
    lab.child.stderr.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const pid = lab.child.pid!;
    // utime + stime of the child, in clock ticks (1/100 s), while it is alive.
    const cpuTicks = () => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return Number(fields[11]) + Number(fields[12]);
      } catch {
        return undefined;
      }
    };
    const before = cpuTicks();
    let lastSeen = before;
    const sent = Date.now();
    lab.child.kill('SIGTERM');
    const sampler = setInterval(() => (lastSeen = cpuTicks() ?? lastSeen), 50);
    const outcome = await Promise.race([
      lab.exited.then((code) => ({ code, ms: Date.now() - sent })),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 2000)),
    ]);
    clearInterval(sampler);
    const spent = before === undefined || lastSeen === undefined ? 0 : lastSeen - before;
    if (!outcome) lab.child.kill('SIGKILL');
    assert.ok(outcome, `still running 2 s after SIGTERM, having used ${spent / 100} s of CPU`);
    assert.equal(outcome.code, 0);
    assert.ok(outcome.ms < 1500, `took ${outcome.ms} ms to stop`);
    assert.ok(spent <= 50, `used ${spent / 100} s of CPU while stopping`);
  });

  test('exits 1 when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    const lab = launch(['--port', String(port)]);
    assert.equal(await lab.exited, 1);
    assert.match(lab.errors(), /EADDRINUSE/);
    await new Promise((r) => blocker.close(r));
  });

  test('the demo shows the hot key throttled near its ceiling and the shards not at all', async () => {
    // A ceiling of 150 WCU/s offered 4× over: a busy machine that pushes a few hundred
    // writes/s still drives the hot key well past it, and each of the 10 shards gets 60/s.
    const LIMIT = 150;
    const RATE = 600;
    const PHASE = 3;
    const demo = launch(['demo', '--phase', String(PHASE), '--rate', String(RATE), '--write-limit', String(LIMIT)]);
    assert.equal(await demo.exited, 0, demo.errors());
    const out = demo.output();
    assert.match(out, /per-key ceiling 150 WCU\/s/);
    const row = (title: string) => {
      const line = out.split('\n').find((l) => l.startsWith(title));
      assert.ok(line, `no "${title}" row in:\n${out}`);
      return line
        .slice(34)
        .trim()
        .split(/\s{2,}/)
        .map((v) => Number(v.replace(/,/g, '')));
    };
    const [hotAccepted, shardAccepted] = row('accepted writes/s');
    const [hotThrottled, shardThrottled] = row('throttled writes/s');
    const [hotOffered] = row('offered writes/s');
    assert.ok(hotOffered > 2.5 * LIMIT, `the demo offered only ${hotOffered} writes/s`);
    // The ceiling plus its one second of burst spread over the phase, within 10% either way.
    const held = LIMIT + LIMIT / PHASE;
    assert.ok(
      hotAccepted > 0.9 * LIMIT && hotAccepted < 1.1 * held,
      `hot key accepted ${hotAccepted}/s (ceiling ${LIMIT}/s plus one second of burst over ${PHASE} s: ${held}/s)`,
    );
    assert.ok(hotThrottled > 0);
    assert.equal(shardThrottled, 0);
    assert.ok(shardAccepted > 2.5 * LIMIT, `the shards accepted only ${shardAccepted} writes/s`);
    assert.match(
      out,
      /throttling reasons\s+TableWriteKeyRangeThroughputExceeded: [\d,]+ events(, [\d,]+ exceptions)?\s+none/,
    );
    assert.match(out, /Contributor Insights PKC top 3\s+BOARD#global\s+[\d,]+\s+BOARD#global#\d/);
    assert.match(out, /Contributor Insights PKT top 3\s+BOARD#global\s+[\d,]+\s+none/);
  });
});

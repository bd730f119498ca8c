// Puts the fault switch in front of the lab's request handler. Only requests a
// fault applies to are touched; the rest go to the lab untouched (their bodies
// unread). The switch is also reachable over HTTP, for a lab started from the
// command line: PUT /_lab/faults with a JSON array of faults, DELETE to clear,
// GET to list. The lab binds to loopback, like everything else it serves.

import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import zlib from 'node:zlib';
import { CW_CBOR_PATH, CW_TARGET_PREFIX, writeError } from '../cloudwatch/protocols';
import { cloudWatchFault, dynamoFault } from './replies';
import type { Fault, FaultSwitch } from './switch';

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const CONTROL_PATH = '/_lab/faults';
const MAX_CONTROL_BODY = 64 * 1024;

/** The service and operation a request names in its headers or path; null for awsQuery (the operation is in the body). */
function operationOf(
  req: http.IncomingMessage,
): { service: 'dynamodb' | 'cloudwatch'; op: string; cbor: boolean } | null {
  const target = String(req.headers['x-amz-target'] ?? '');
  if (target.startsWith('DynamoDB_20120810.')) return { service: 'dynamodb', op: target.slice(18), cbor: false };
  if (target.startsWith(CW_TARGET_PREFIX))
    return { service: 'cloudwatch', op: target.slice(CW_TARGET_PREFIX.length), cbor: false };
  const m = CW_CBOR_PATH.exec((req.url ?? '').split('?')[0]);
  return m ? { service: 'cloudwatch', op: m[1], cbor: true } : null;
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function control(faults: FaultSwitch, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  if (req.method === 'GET') return send(200, faults.list());
  if (req.method === 'DELETE') {
    faults.clear();
    return send(200, []);
  }
  if (req.method !== 'PUT' && req.method !== 'POST') return send(405, { message: 'use GET, PUT or DELETE' });
  try {
    const parsed = JSON.parse((await readBody(req, MAX_CONTROL_BODY)).toString('utf8')) as Fault[] | Fault;
    faults.set(Array.isArray(parsed) ? parsed : [parsed]);
    send(200, faults.list());
  } catch (e) {
    send(400, { message: (e as Error).message });
  }
}

async function serveFault(
  fault: Fault,
  route: NonNullable<ReturnType<typeof operationOf>>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pass: () => void,
): Promise<void> {
  if (fault.kind === 'slow') {
    setTimeout(pass, fault.delayMs ?? 5000);
    return;
  }
  const body = await readBody(req, 16 * 1024 * 1024);
  if (route.service === 'dynamodb') {
    let input: Record<string, unknown> = {};
    try {
      input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      // A fault answers whatever the body is.
    }
    const reply = dynamoFault(fault, route.op, input ?? {});
    if (!reply) throw new Error(`fault ${fault.kind} has no DynamoDB reply for ${route.op}`);
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'Content-Type': 'application/x-amz-json-1.0',
      'Content-Length': Buffer.byteLength(text),
      'x-amz-crc32': String(zlib.crc32(text)),
      'x-amzn-RequestId': randomUUID(),
    });
    res.end(text);
    return;
  }
  const err = cloudWatchFault(fault, route.op);
  if (!err) throw new Error(`fault ${fault.kind} has no CloudWatch reply`);
  const id = randomUUID();
  const reply = writeError(route.cbor ? 'cbor' : 'json', err, id);
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': reply.body.length, 'x-amzn-RequestId': id });
  res.end(reply.body);
}

/** Routes every request of `server` through the switch first. */
export function installFaults(server: http.Server, faults: FaultSwitch): void {
  const handlers = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const pass = () => {
      for (const h of handlers) h.call(server, req, res);
    };
    if ((req.url ?? '').split('?')[0] === CONTROL_PATH) {
      void control(faults, req, res);
      return;
    }
    const route = faults.active ? operationOf(req) : null;
    // A fault without a reply for this operation (insights-disabled on GetItem) is not spent on it.
    const fault = route && faults.take(route.op, (f) => applies(f, route));
    if (!route || !fault) return pass();
    serveFault(fault, route, req, res, pass).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
}

function applies(f: Fault, route: NonNullable<ReturnType<typeof operationOf>>): boolean {
  if (f.kind === 'insights-disabled') return route.service === 'dynamodb' && route.op === 'DescribeContributorInsights';
  return true;
}

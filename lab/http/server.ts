// One HTTP endpoint for both services. Requests are routed by what the SDKs
// send: `X-Amz-Target: DynamoDB_20120810.<Op>` (DynamoDB, AWS JSON 1.0),
// `X-Amz-Target: GraniteServiceVersion20100801.<Op>` (CloudWatch, AWS JSON
// 1.0), POST /service/GraniteServiceVersion20100801/operation/<Op>
// (CloudWatch, RPC v2 CBOR) or a form body with Action=<Op> (CloudWatch,
// awsQuery). Signatures are not checked, as with DynamoDB Local.

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { CloudWatchError, internalFault, unknownCloudWatchOperation } from '../cloudwatch/errors';
import { CLOUDWATCH_OPERATIONS, runCloudWatch, type CloudWatchBackend } from '../cloudwatch/operations';
import {
  CW_CBOR_PATH,
  CW_TARGET_PREFIX,
  parseInput,
  writeError,
  writeOutput,
  type CwProtocol,
} from '../cloudwatch/protocols';
import { jsonDeeperThan, MAX_REQUEST_JSON_DEPTH, nestingError } from '../dynamo/limits';
import type { DynamoService } from '../dynamo/service';

const DDB_TARGET_PREFIX = 'DynamoDB_20120810.';
/** DynamoDB's limit on one HTTP request body. */
export const DYNAMODB_MAX_BODY = 16 * 1024 * 1024;
/** CloudWatch's documented limit on an HTTP POST body (PutMetricData); the lab applies it to every operation. */
export const CLOUDWATCH_MAX_BODY = 1024 * 1024;
/** Past this much discarded input the connection is dropped instead of drained. */
const MAX_DRAIN = 64 * 1024 * 1024;

type Route =
  | { service: 'dynamodb'; op: string }
  | { service: 'cloudwatch'; protocol: CwProtocol; op?: string }
  | { service: 'unknown'; target: string };

function route(req: http.IncomingMessage): Route {
  const target = String(req.headers['x-amz-target'] ?? '');
  if (target.startsWith(DDB_TARGET_PREFIX)) return { service: 'dynamodb', op: target.slice(DDB_TARGET_PREFIX.length) };
  if (target.startsWith(CW_TARGET_PREFIX))
    return { service: 'cloudwatch', protocol: 'json', op: target.slice(CW_TARGET_PREFIX.length) };
  const cbor = CW_CBOR_PATH.exec((req.url ?? '').split('?')[0]);
  if (cbor) return { service: 'cloudwatch', protocol: 'cbor', op: cbor[1] };
  if (!target && String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return { service: 'cloudwatch', protocol: 'query' };
  }
  return { service: 'unknown', target };
}

// 52 characters like DynamoDB's request ids: a random per-process prefix and a counter (cheaper than 39 random bytes each).
const ID_PREFIX = randomBytes(24).toString('hex').toUpperCase();
let idCounter = 0;
const requestId = () => ID_PREFIX + (idCounter++ % 0xffffffff).toString(16).toUpperCase().padStart(4, '0');

/** Reads the body, or reports `tooLarge` after draining it (so the client still reads the reply). */
function readBody(req: http.IncomingMessage, limit: number): Promise<{ body?: Buffer; tooLarge: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
      else if (size > MAX_DRAIN) req.destroy();
    });
    req.on('end', () => resolve(size > limit ? { tooLarge: size } : { body: Buffer.concat(chunks), tooLarge: 0 }));
    req.on('error', reject);
  });
}

export class LabHttpServer {
  readonly server: http.Server;

  constructor(
    private readonly dynamo: DynamoService,
    private readonly cloudwatch: CloudWatchBackend,
  ) {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((e) => {
        if (!res.headersSent)
          this.sendDynamo(res, 500, {
            __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
            message: String(e),
          });
        else res.destroy();
      });
    });
    this.server.keepAliveTimeout = 60_000;
  }

  private sendDynamo(res: http.ServerResponse, status: number, body: Record<string, unknown>): void {
    const text = JSON.stringify(body);
    // boto3 checks x-amz-crc32 on DynamoDB replies when it is present.
    res.writeHead(status, {
      'Content-Type': 'application/x-amz-json-1.0',
      'Content-Length': Buffer.byteLength(text),
      'x-amz-crc32': String(zlib.crc32(text)),
      'x-amzn-RequestId': requestId(),
    });
    res.end(text);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' && (req.url === '/' || req.url === '')) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('healthy: ShardLens lab (DynamoDB + CloudWatch) ');
      return;
    }
    const r = route(req);
    if (r.service === 'cloudwatch') return this.handleCloudWatch(req, res, r.protocol, r.op);

    const { body, tooLarge } = await readBody(req, DYNAMODB_MAX_BODY);
    if (r.service === 'unknown') {
      this.sendDynamo(res, 400, {
        __type: 'com.amazon.coral.service#UnknownOperationException',
        message: r.target
          ? `Unknown X-Amz-Target "${r.target}": the lab serves DynamoDB_20120810.* and GraniteServiceVersion20100801.*`
          : 'No X-Amz-Target header: the lab serves DynamoDB (AWS JSON 1.0) and CloudWatch (AWS JSON 1.0, RPC v2 CBOR, awsQuery)',
      });
      return;
    }
    if (tooLarge) {
      this.sendDynamo(res, 413, {
        __type: 'com.amazon.coral.service#RequestEntityTooLargeException',
        message: `Request body of ${tooLarge} bytes exceeds DynamoDB's limit of ${DYNAMODB_MAX_BODY} bytes`,
      });
      return;
    }
    // No valid request nests deeper than this; refusing it unparsed keeps a
    // megabytes-deep body from ever becoming an object tree.
    if (jsonDeeperThan(body!, MAX_REQUEST_JSON_DEPTH)) {
      const e = nestingError();
      this.sendDynamo(res, e.status, e.body);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body!.toString('utf8') || 'null');
    } catch {
      this.sendDynamo(res, 400, {
        __type: 'com.amazon.coral.service#SerializationException',
        Message: 'The request body is not valid JSON',
      });
      return;
    }
    const reply = await this.dynamo.handle(r.op, parsed);
    this.sendDynamo(res, reply.status, reply.body);
  }

  private async handleCloudWatch(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    protocol: CwProtocol,
    targetOp: string | undefined,
  ): Promise<void> {
    const id = requestId();
    const { body, tooLarge } = await readBody(req, CLOUDWATCH_MAX_BODY);
    let op = targetOp ?? '';
    let reply;
    try {
      if (tooLarge) {
        throw new CloudWatchError(
          'RequestEntityTooLargeException',
          'RequestEntityTooLarge',
          413,
          `Request body of ${tooLarge} bytes exceeds ${CLOUDWATCH_MAX_BODY} bytes`,
        );
      }
      const input = parseInput(protocol, body!);
      if (protocol === 'query') op = typeof input.Action === 'string' ? input.Action : '';
      if (!CLOUDWATCH_OPERATIONS.includes(op)) throw unknownCloudWatchOperation(op, CLOUDWATCH_OPERATIONS);
      reply = writeOutput(protocol, op, runCloudWatch(this.cloudwatch, op, input), id);
    } catch (e) {
      const err = e instanceof CloudWatchError ? e : internalFault(String((e as Error)?.message ?? e));
      reply = writeError(protocol, err, id);
    }
    res.writeHead(reply.status, { ...reply.headers, 'Content-Length': reply.body.length, 'x-amzn-RequestId': id });
    res.end(reply.body);
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

// The lab part of the fuzz suite: hostile HTTP requests against a real
// `shardlens lab` process. Random X-Amz-Target operations (Object.prototype
// names among them), mutated and truncated JSON, attribute values nested up to
// 50,000 levels, strings of up to 2 MB with multi-byte and unpaired-surrogate
// text, wrong content types, awsQuery forms with hostile field names, and
// garbage, truncated or deep CBOR on the CloudWatch endpoint.
//
// A failure is a 5xx answer, a connection the lab dropped, an "internal
// error" line on its stderr, or the lab process exiting (crashes); or no
// answer within the input's timeout (hangs). The lab runs as a child process,
// from the built bundle, so a crash of the process is seen as one.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { encodeCbor } from '../lab/cloudwatch/cbor';
import { inputRandom, type Failure, type PartOptions, type PartResult, type Random } from './random';

const ROOT = path.join(__dirname, '..');
const CACHE = path.join(ROOT, '.cache', 'fuzz');
/** Per input: past this without an answer it is a hang. Bodies stay ≤ ~4 MB, which the lab reads in well under it. */
const INPUT_TIMEOUT_MS = 5000;
const TABLE = 'fuzz';

interface Request {
  kind: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

// ---- inputs -------------------------------------------------------------

const DDB_OPS = [
  'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem',
  'TransactWriteItems', 'TransactGetItems', 'CreateTable', 'UpdateTable', 'DescribeTable', 'ListTables',
  'UpdateContributorInsights', 'DescribeContributorInsights', 'ListContributorInsights', 'DescribeEndpoints',
  'TagResource', 'ExecuteStatement',
]; // prettier-ignore
const CW_OPS = [
  'GetMetricStatistics',
  'GetMetricData',
  'GetInsightRuleReport',
  'DescribeInsightRules',
  'PutMetricData',
];
const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', 'then'];
const MEMBERS = [
  'TableName', 'Key', 'Item', 'ExpressionAttributeValues', 'ExpressionAttributeNames', 'KeyConditionExpression',
  'UpdateExpression', 'ConditionExpression', 'FilterExpression', 'ProjectionExpression', 'RequestItems',
  'TransactItems', 'ExclusiveStartKey', 'Limit', 'ReturnConsumedCapacity', 'ReturnValues', 'KeyConditions',
  'AttributeUpdates', 'Expected', 'IndexName', 'Select', 'Segment', 'TotalSegments', 'ContributorInsightsAction',
  'Namespace', 'MetricName', 'Dimensions', 'StartTime', 'EndTime', 'Period', 'Statistics', 'MetricDataQueries',
  'RuleName', 'MaxContributorCount', 'Metrics', 'OrderBy', 'ScanBy',
]; // prettier-ignore
const STRINGS = ['', 'x', 'PK', 'SK', TABLE, 'PK = :p', ':p', '#n', 'SET a = :v', 'é', '\u{1F525}', '\ud800', '\u0000'];

function text(r: Random): string {
  switch (r.int(6)) {
    case 0:
      return r.pick(STRINGS);
    case 1:
      return r.pick(PROTO_NAMES);
    case 2:
      return r.pick(['é', 'x', '\u{1F525}', '"', '\\']).repeat(r.between(1, 3000));
    case 3:
      return String.fromCharCode(...Array.from({ length: r.between(1, 40) }, () => r.int(0x10000)));
    case 4:
      return `${r.pick(['PK', '#k', ':v', 'a.b[1]', 'size(x)'])} ${r.pick(['=', '<', 'BETWEEN', 'and', 'begins_with('])} ${r.pick([':p', ':v', '#n', '(', ''])}`;
    default:
      return `K#${r.int(10)}`;
  }
}

/** An attribute value: usually well-formed, sometimes not; nested `depth` levels. */
function attr(r: Random, depth: number): unknown {
  if (depth > 0) return r.chance(0.5) ? { L: [attr(r, depth - 1)] } : { M: { [text(r)]: attr(r, depth - 1) } };
  switch (r.int(9)) {
    case 0:
      return { S: text(r) };
    case 1:
      return { N: r.pick(['1', '-0', '1e400', '12345678901234567890123456789012345678901', 'NaN', '0x10', ' 1']) };
    case 2:
      return { B: r.pick(['AAAA', '', '!!!', 'A'.repeat(r.between(1, 5000))]) };
    case 3:
      return { SS: [text(r), text(r)] };
    case 4:
      return { NS: ['1', '1'] };
    case 5:
      return { BOOL: r.pick([true, 'true', 1]) };
    case 6:
      return { NULL: r.pick([true, false]) };
    case 7:
      return { S: 'x', N: '1' };
    default:
      return value(r, 1);
  }
}

/** Any JSON value, for members of the wrong type. */
function value(r: Random, depth: number): unknown {
  switch (r.int(depth > 3 ? 4 : 7)) {
    case 0:
      return text(r);
    case 1:
      return r.pick([0, -1, 1e308, 2 ** 53 + 1, 0.5]);
    case 2:
      return r.pick([null, true, false]);
    case 3:
      return attr(r, 0);
    case 4:
      return Array.from({ length: r.int(4) }, () => value(r, depth + 1));
    case 5:
      return Object.fromEntries(Array.from({ length: r.int(4) }, () => [text(r), value(r, depth + 1)]));
    default:
      return { [r.pick(['PK', 'SK', text(r)])]: attr(r, 0), SK: attr(r, 0) };
  }
}

function dynamoBody(r: Random): Record<string, unknown> {
  const body: Record<string, unknown> = { TableName: r.chance(0.8) ? TABLE : text(r) };
  const key = { PK: attr(r, 0), SK: attr(r, 0) };
  if (r.chance(0.5)) body.Key = key;
  if (r.chance(0.5)) body.Item = { ...key, [text(r)]: attr(r, r.int(3)) };
  for (let i = r.int(4); i > 0; i--) body[r.pick(MEMBERS)] = value(r, 0);
  if (r.chance(0.2)) body.RequestItems = { [TABLE]: r.chance(0.5) ? [{ PutRequest: { Item: key } }] : { Keys: [key] } };
  if (r.chance(0.2))
    body.TransactItems = [{ [r.pick(['Put', 'Get', 'Update', 'Delete', 'ConditionCheck'])]: { ...body } }];
  return body;
}

function mutate(r: Random, buf: Buffer): Buffer {
  const b = Buffer.from(buf);
  switch (r.int(5)) {
    case 0:
      return b.subarray(0, r.int(b.length + 1));
    case 1:
      for (let i = r.between(1, 8); i > 0 && b.length; i--) b[r.int(b.length)] = r.int(256);
      return b;
    case 2: {
      const brackets = [...b.keys()].filter((i) => '{}[]"'.includes(String.fromCharCode(b[i])));
      const drop = brackets.length ? r.pick(brackets) : 0;
      return Buffer.concat([b.subarray(0, drop), b.subarray(drop + 1)]);
    }
    case 3:
      return Buffer.concat([b, Buffer.from(r.pick([',', '}', ']]]', '\u0000', '{"a":']))]);
    default:
      return Buffer.concat([b.subarray(0, r.int(b.length + 1)), b]);
  }
}

const ddbRequest = (kind: string, op: string, body: Buffer, type = 'application/x-amz-json-1.0'): Request => ({
  kind,
  path: '/',
  // Only what an HTTP header can carry (Node refuses to send anything else).
  headers: { 'content-type': type, 'x-amz-target': `DynamoDB_20120810.${op.replace(/[^\x21-\x7e]/g, '?')}` },
  body,
});
const cborRequest = (kind: string, op: string, body: Buffer): Request => ({
  kind,
  path: `/service/GraniteServiceVersion20100801/operation/${op}`,
  headers: { 'content-type': 'application/cbor', 'smithy-protocol': 'rpc-v2-cbor' },
  body,
});

function cwInput(r: Random): Record<string, unknown> {
  const now = 1_700_000_000;
  const input: Record<string, unknown> = {
    Namespace: 'AWS/DynamoDB',
    MetricName: r.pick(['ConsumedWriteCapacityUnits', text(r)]),
    StartTime: r.pick([now - 3600, -1e20, text(r), 1e300]),
    EndTime: now,
    Period: r.pick([1, 60, 0, -5, 1.5, 2 ** 40]),
    Statistics: r.chance(0.7) ? ['Sum'] : value(r, 0),
  };
  for (let i = r.int(3); i > 0; i--) input[r.pick(MEMBERS)] = value(r, 0);
  if (r.chance(0.3)) input.MetricDataQueries = [{ Id: text(r), MetricStat: value(r, 0), Expression: value(r, 2) }];
  return input;
}

/** Input `n` of `seed`: one request, drawn from its own generator. */
export function makeInput(seed: number, n: number): Request {
  const r = inputRandom(seed, n);
  const op = () => (r.chance(0.3) ? r.pick(PROTO_NAMES) : r.chance(0.1) ? text(r) : r.pick(DDB_OPS));
  switch (r.int(10)) {
    case 0:
      return ddbRequest('random target', op(), Buffer.from(JSON.stringify(dynamoBody(r))));
    case 1:
      return ddbRequest('malformed JSON', op(), mutate(r, Buffer.from(JSON.stringify(dynamoBody(r)))));
    case 2: {
      const wraps = r.pick([31, 32, 33, 100, 5000, 50_000]);
      const inner = '{"L":['.repeat(wraps) + '{"S":"x"}' + ']}'.repeat(wraps);
      const member = r.pick(['Item', 'ExpressionAttributeValues', 'Key']);
      const body = `{"TableName":"${TABLE}","${member}":{"PK":{"S":"d"},"SK":{"S":"d"},":v":${inner},"deep":${inner}}${member === 'ExpressionAttributeValues' ? ',"Key":{"PK":{"S":"d"},"SK":{"S":"d"}},"UpdateExpression":"SET deep = :v"' : ''}}`;
      return ddbRequest(
        `nested ${wraps}`,
        r.pick(['PutItem', 'UpdateItem', 'GetItem', 'TransactWriteItems']),
        Buffer.from(body),
      );
    }
    case 3: {
      const big = r.pick(['é', 'x', '\u{1F525}', '\\ud800']).repeat(r.between(1000, 500_000));
      const where = r.pick(['PK', 'SK', 'data']);
      const body = `{"TableName":"${TABLE}","Item":{"PK":{"S":"p"},"SK":{"S":"s"},"${where}":{"S":"${big}"}}}`;
      return ddbRequest(`huge string in ${where}`, r.pick(['PutItem', 'BatchWriteItem', 'GetItem']), Buffer.from(body));
    }
    case 4: {
      const type = r.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/cbor',
        '',
        'application/json; charset=utf-16',
      ]);
      const req = ddbRequest(`content type "${type}"`, op(), Buffer.from(JSON.stringify(dynamoBody(r))), type);
      if (r.chance(0.5)) delete req.headers['x-amz-target'];
      return req;
    }
    case 5: {
      const valid = encodeCbor(cwInput(r));
      const body =
        r.int(3) === 0
          ? Buffer.from(Array.from({ length: r.between(1, 64) }, () => r.int(256)))
          : r.chance(0.5)
            ? mutate(r, valid)
            : Buffer.concat([
                Buffer.alloc(r.pick([10, 70, 10_000]), r.pick([0x81, 0x9f, 0xbf, 0xc1, 0x5f, 0x7f])),
                valid,
              ]);
      return cborRequest('CBOR garbage', r.chance(0.8) ? r.pick(CW_OPS) : r.pick(PROTO_NAMES), body);
    }
    case 6: {
      const fields = new URLSearchParams({
        Action: r.chance(0.7) ? r.pick(CW_OPS) : r.pick(PROTO_NAMES),
        Version: '2010-08-01',
      });
      for (let i = r.between(1, 6); i > 0; i--) {
        const name = [
          r.pick([...MEMBERS, ...PROTO_NAMES]),
          r.pick(['member', '1', '__proto__', String(r.int(100_000))]),
          r.pick(MEMBERS),
        ]
          .slice(0, r.between(1, 3))
          .join('.');
        fields.append(name, text(r));
      }
      return {
        kind: 'awsQuery form',
        path: '/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(fields.toString()),
      };
    }
    case 7: {
      const body = r.chance(0.5)
        ? Buffer.from(JSON.stringify(cwInput(r)))
        : mutate(r, Buffer.from(JSON.stringify(cwInput(r))));
      const target = `GraniteServiceVersion20100801.${r.chance(0.7) ? r.pick(CW_OPS) : r.pick(PROTO_NAMES)}`;
      return {
        kind: 'CloudWatch JSON',
        path: '/',
        headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': target },
        body,
      };
    }
    case 8:
      return ddbRequest(
        'brackets',
        op(),
        Buffer.from(r.pick(['[', '{"a":', '[{"L":']).repeat(r.between(1000, 400_000))),
      );
    default:
      return ddbRequest('typed members', r.pick(DDB_OPS), Buffer.from(JSON.stringify(dynamoBody(r))));
  }
}

// ---- the lab process ----------------------------------------------------

interface LabProcess {
  child: ChildProcess;
  url: string;
  /** stderr lines since the last take(). */
  take(): string[];
  exited: Promise<string>;
}

/** Whether dist/lab.js exists and is newer than every source under lab/ (a stale bundle would test old code). */
function bundleIsFresh(): boolean {
  const bundle = path.join(ROOT, 'dist', 'lab.js');
  if (!existsSync(bundle) || !existsSync(path.join(ROOT, 'dist', 'cli.js'))) return false;
  const built = statSync(bundle).mtimeMs;
  const dir = path.join(ROOT, 'lab');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).every(
    (f) => !f.endsWith('.ts') || statSync(path.join(dir, f)).mtimeMs <= built,
  );
}

/** Starts `shardlens lab` from the built bundle (from the sources when it is missing or stale) on a free port. */
async function startLab(notes: string[]): Promise<LabProcess> {
  const built = bundleIsFresh();
  const args = built
    ? [path.join(ROOT, 'bin', 'shardlens.js'), 'lab']
    : ['--import', 'tsx', path.join(ROOT, 'lab', 'cli.ts')];
  if (!built && !notes.some((n) => n.startsWith('lab: dist/')))
    notes.push('lab: dist/lab.js missing or older than lab/, ran lab/cli.ts');
  const child = spawn(process.execPath, [...args, '--port', '0', '--period', '1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`)),
  );
  const deadline = Date.now() + 30_000;
  let m: RegExpExecArray | null;
  while (!(m = /ShardLens lab on (http:\/\/[^\s]+)/.exec(out))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the lab did not start: ${err.split('\n')[0]}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    url: m[1],
    exited,
    take() {
      const lines = err.split('\n').filter(Boolean);
      err = '';
      return lines;
    },
  };
}

async function stopLab(lab: LabProcess): Promise<void> {
  if (lab.child.exitCode !== null || lab.child.signalCode !== null) return;
  lab.child.kill('SIGTERM');
  const done = await Promise.race([lab.exited, new Promise((r) => setTimeout(() => r(undefined), 3000))]);
  if (done === undefined) lab.child.kill('SIGKILL');
}

type Outcome = { status: number; body: string } | { error: string } | { timeout: true };

function send(url: string, req: Request, timeoutMs: number): Promise<Outcome> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const r = http.request(
      { host: u.hostname, port: u.port, method: 'POST', path: req.path, headers: req.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8', 0, 300) });
        });
        res.on('error', (e) => resolve({ error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      r.destroy();
      resolve({ timeout: true });
    }, timeoutMs);
    r.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ error: e.code ?? e.message });
    });
    r.end(req.body);
  });
}

async function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const r = http.get(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    r.on('error', () => resolve(false));
    r.on('timeout', () => (r.destroy(), resolve(false)));
  });
}

/** Writes the request that failed, for `--input` to replay and for a person to read. */
function saveInput(seed: number, n: number, req: Request): string {
  mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `lab-seed${seed}-input${n}.json`);
  writeFileSync(
    file,
    JSON.stringify({ kind: req.kind, path: req.path, headers: req.headers, bodyBase64: req.body.toString('base64') }),
  );
  return `${path.relative(ROOT, file)} (npm run fuzz -- --only lab --seed ${seed} --input ${n})`;
}

const describe = (req: Request) =>
  `${req.kind}: ${req.headers['x-amz-target'] ?? req.path} with ${req.body.length} bytes`;

export async function run(options: PartOptions): Promise<PartResult> {
  const { seed, seconds } = options;
  const result: PartResult = { inputs: 0, crashes: [], hangs: [], notes: [] };
  let lab = await startLab(result.notes);
  try {
    // A table for the inputs to hit, so requests get past "table not found".
    const create = await send(
      lab.url,
      ddbRequest(
        'setup',
        'CreateTable',
        Buffer.from(
          JSON.stringify({
            TableName: TABLE,
            BillingMode: 'PAY_PER_REQUEST',
            KeySchema: [
              { AttributeName: 'PK', KeyType: 'HASH' },
              { AttributeName: 'SK', KeyType: 'RANGE' },
            ],
            AttributeDefinitions: [
              { AttributeName: 'PK', AttributeType: 'S' },
              { AttributeName: 'SK', AttributeType: 'S' },
            ],
          }),
        ),
      ),
      INPUT_TIMEOUT_MS,
    );
    if (!('status' in create) || create.status !== 200)
      result.notes.push(`lab: CreateTable answered ${JSON.stringify(create)}`);
    await new Promise((r) => setTimeout(r, 600)); // dynalite's CREATING → ACTIVE
    lab.take();

    const end = Date.now() + seconds * 1000;
    const numbers = options.input !== undefined ? [options.input] : null;
    const statuses = new Map<number, number>();
    for (let n = numbers ? numbers[0] : 0; numbers ? n === numbers[0] : Date.now() < end; n++) {
      const req = makeInput(seed, n);
      result.inputs++;
      const outcome = await send(lab.url, req, INPUT_TIMEOUT_MS);
      const fail = (what: string): Failure => ({ input: n, what, repro: saveInput(seed, n, req) });
      if ('timeout' in outcome) result.hangs.push(fail(`no answer within ${INPUT_TIMEOUT_MS} ms to ${describe(req)}`));
      else if ('error' in outcome)
        result.crashes.push(fail(`connection failed (${outcome.error}) on ${describe(req)}`));
      else {
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        if (outcome.status >= 500)
          result.crashes.push(fail(`HTTP ${outcome.status} to ${describe(req)}: ${outcome.body.slice(0, 160)}`));
      }
      const internal = lab.take().find((l) => /internal error/.test(l));
      if (internal) result.crashes.push(fail(`the lab reported "${internal.slice(0, 160)}" after ${describe(req)}`));
      // A dead or wedged lab is a crash of its own; start a fresh one to go on.
      if ('status' in outcome && outcome.status < 500) continue;
      if (lab.child.exitCode !== null || lab.child.signalCode !== null || !(await healthy(lab.url))) {
        const how =
          lab.child.exitCode !== null || lab.child.signalCode !== null ? await lab.exited : 'stopped answering';
        result.crashes.push(fail(`the lab process ${how} after ${describe(req)}`));
        await stopLab(lab);
        lab = await startLab(result.notes);
      }
    }
    result.notes.push(
      `lab: answers by status ${[...statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([s, c]) => `${s}×${c}`)
        .join(', ')}`,
    );
  } finally {
    await stopLab(lab);
  }
  return result;
}

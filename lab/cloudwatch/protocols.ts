// The three wire protocols CloudWatch clients speak, each reduced to
// "operation name + input object" in and "output object or error" out:
// - AWS JSON 1.0 (X-Amz-Target: GraniteServiceVersion20100801.<Op>), which
//   @aws-sdk/client-cloudwatch 3.x sends (with x-amzn-query-mode: true);
// - Smithy RPC v2 CBOR (POST /service/GraniteServiceVersion20100801/operation/<Op>),
//   which current botocore picks first;
// - awsQuery (form-encoded Action=<Op>, XML replies), which older botocore uses.
// CloudWatch is "awsQuery compatible": JSON and CBOR errors also carry the
// query error code in an `x-amzn-query-error: <Code>;<Sender|Receiver>` header.

import { decodeCbor, encodeCbor } from './cbor';
import { CloudWatchError, malformedRequest } from './errors';
import type { Input } from './input';

export const CW_TARGET_PREFIX = 'GraniteServiceVersion20100801.';
export const CW_CBOR_PATH = /^\/service\/GraniteServiceVersion20100801\/operation\/([A-Za-z]+)$/;
const XMLNS = 'http://monitoring.amazonaws.com/doc/2010-08-01/';

export type CwProtocol = 'json' | 'cbor' | 'query';

export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function mapDates(v: unknown, f: (d: Date) => unknown): unknown {
  if (v instanceof Date) return f(v);
  if (Array.isArray(v)) return v.map((x) => mapDates(x, f));
  if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = mapDates(x, f);
    return o;
  }
  return v;
}

export function parseInput(protocol: CwProtocol, body: Buffer): Input {
  if (protocol === 'query') return parseQueryForm(body.toString('utf8'));
  let v: unknown;
  try {
    v =
      protocol === 'json'
        ? body.length
          ? JSON.parse(body.toString('utf8'))
          : {}
        : body.length
          ? decodeCbor(body)
          : {};
  } catch (e) {
    throw malformedRequest(
      `The request body is not valid ${protocol === 'json' ? 'JSON' : 'CBOR'}: ${(e as Error).message}`,
    );
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw malformedRequest('The request body must be a structure.');
  return v as Input;
}

export function writeOutput(protocol: CwProtocol, op: string, output: Input, requestId: string): WireReply {
  if (protocol === 'json') {
    const body = JSON.stringify(mapDates(output, (d) => d.getTime() / 1000));
    return { status: 200, headers: { 'Content-Type': 'application/x-amz-json-1.0' }, body: Buffer.from(body) };
  }
  if (protocol === 'cbor') {
    return {
      status: 200,
      headers: { 'Content-Type': 'application/cbor', 'smithy-protocol': 'rpc-v2-cbor' },
      body: encodeCbor(output),
    };
  }
  const xml =
    `<${op}Response xmlns="${XMLNS}"><${op}Result>${toXml(output)}</${op}Result>` +
    `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${op}Response>`;
  return { status: 200, headers: { 'Content-Type': 'text/xml' }, body: Buffer.from(xml) };
}

export function writeError(protocol: CwProtocol, err: CloudWatchError, requestId: string): WireReply {
  const fault = err.status >= 500 ? 'Receiver' : 'Sender';
  if (protocol === 'query') {
    const xml =
      `<ErrorResponse xmlns="${XMLNS}"><Error><Type>${fault}</Type><Code>${err.queryCode}</Code>` +
      `<Message>${escapeXml(err.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
    return { status: err.status, headers: { 'Content-Type': 'text/xml' }, body: Buffer.from(xml) };
  }
  const headers: Record<string, string> = { 'x-amzn-query-error': `${err.queryCode};${fault}` };
  if (protocol === 'json') {
    headers['Content-Type'] = 'application/x-amz-json-1.0';
    return { status: err.status, headers, body: Buffer.from(JSON.stringify(err.body())) };
  }
  headers['Content-Type'] = 'application/cbor';
  headers['smithy-protocol'] = 'rpc-v2-cbor';
  return { status: err.status, headers, body: encodeCbor(err.body()) };
}

/**
 * Turns `A.member.1.B=x` form fields into `{A: [{B: 'x'}]}`; values stay text.
 * Field names are the client's, so structures have no prototype: with one,
 * `__proto__.x=1` would walk into Object.prototype and set `x` on every object
 * in the process.
 */
export function parseQueryForm(form: string): Input {
  const root = Object.create(null) as Input;
  for (const [key, value] of new URLSearchParams(form)) {
    const parts = key.split('.');
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < parts.length; i++) {
      const last = i === parts.length - 1;
      const part = parts[i];
      if (part === 'member' && Array.isArray(node)) continue;
      const slot: string | number = Array.isArray(node) ? Number(part) - 1 : part;
      if (typeof slot === 'number' && (!Number.isInteger(slot) || slot < 0 || slot > 10000)) break;
      const container = node as Record<string | number, unknown>;
      if (last) {
        container[slot] = value;
        break;
      }
      if (container[slot] === undefined) container[slot] = parts[i + 1] === 'member' ? [] : Object.create(null);
      // `A=x&A.B=y`: A is a value already, not a structure; the deeper field is ignored.
      else if (typeof container[slot] !== 'object') break;
      node = container[slot] as Record<string, unknown> | unknown[];
    }
  }
  return root;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

function scalar(v: unknown): string {
  return v instanceof Date ? v.toISOString() : escapeXml(String(v));
}

/** awsQuery XML: members as elements, lists as <member> children. */
function toXml(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'object' || v instanceof Date) return scalar(v);
  let out = '';
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x === undefined) continue;
    if (Array.isArray(x)) out += `<${k}>${x.map((m) => `<member>${toXml(m)}</member>`).join('')}</${k}>`;
    else out += `<${k}>${toXml(x)}</${k}>`;
  }
  return out;
}

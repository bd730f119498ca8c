// CBOR (RFC 8949) for the Smithy RPC v2 CBOR protocol, which botocore ≥ 1.3x and the Go SDK
// v2 use for CloudWatch. The bytes are read and written by cbor-x; this module fixes the
// options the protocol needs and shapes what the lab's handlers see:
// - maps become objects without a prototype, every key kept as data (a "__proto__" key is a
//   plain member, never a prototype switch; cbor-x's own objects would rename it);
// - timestamps travel as tag 1 (epoch seconds) and come back as Dates;
// - a member whose value is undefined is left out, as in the JSON protocol;
// - every decoding failure is a CborError, so the lab answers a malformed request with 400.
//
// The "no eval" build: it never compiles code from what it reads, and it loads no native
// addon, so the lab behaves the same from the repository and from an installed package.
import { Decoder, Encoder } from 'cbor-x/index-no-eval';

const MAX_DEPTH = 64;

export class CborError extends Error {}

// Maps as Map (not objects) so no key is renamed; byte strings copied out of the request body.
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false, copyBuffers: true });
// Plain CBOR maps sized to their members, byte strings untagged, no cbor-x record extension.
const encoder = new Encoder({ useRecords: false, variableMapSize: true, tagUint8Array: false });

export function decodeCbor(buf: Uint8Array): unknown {
  let v: unknown;
  try {
    v = decoder.decode(buf);
  } catch (e) {
    const err = e as Error & { incomplete?: boolean };
    throw new CborError(err.incomplete ? 'truncated CBOR input' : `malformed CBOR: ${err.message}`);
  }
  return toPlain(v, 0);
}

/** Maps to prototype-less objects, byte strings to Buffers; what the handlers validate. */
function toPlain(v: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new CborError('CBOR nesting too deep');
  if (v instanceof Map) {
    const m = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of v) m[String(k)] = toPlain(x, depth + 1);
    return m;
  }
  if (Array.isArray(v)) return v.map((x) => toPlain(x, depth + 1));
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

export function encodeCbor(value: unknown): Buffer {
  return encoder.encode(withoutUndefined(value));
}

function withoutUndefined(v: unknown): unknown {
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.map(withoutUndefined);
  if (v && typeof v === 'object' && !(v instanceof Date) && !(v instanceof Uint8Array)) {
    // No prototype, so a "__proto__" member is copied as a member.
    const o = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = withoutUndefined(x);
    return o;
  }
  return v;
}

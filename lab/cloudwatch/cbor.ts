// A small CBOR (RFC 8949) codec for the Smithy RPC v2 CBOR protocol, which
// botocore ≥ 1.3x and the Go SDK v2 use for CloudWatch. It covers what that
// protocol sends: integers, floats, strings, byte strings, arrays, maps,
// booleans, null, indefinite lengths, and tag 1 (epoch-seconds timestamps).

const MAX_DEPTH = 64;

/** Maps decode into objects without a prototype: a "__proto__" key is then plain data, not a prototype switch. */
const newMap = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

export class CborError extends Error {}

export function decodeCbor(buf: Uint8Array): unknown {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 0;
  const need = (n: number) => {
    if (pos + n > buf.length) throw new CborError('truncated CBOR input');
  };
  const length = (info: number): number => {
    if (info < 24) return info;
    if (info === 24) return (need(1), buf[pos++]);
    if (info === 25) return (need(2), (pos += 2), view.getUint16(pos - 2));
    if (info === 26) return (need(4), (pos += 4), view.getUint32(pos - 4));
    if (info === 27) return (need(8), (pos += 8), Number(view.getBigUint64(pos - 8)));
    throw new CborError(`unsupported additional information ${info}`);
  };
  const BREAK = Symbol('break');
  const item = (depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new CborError('CBOR nesting too deep');
    need(1);
    const head = buf[pos++];
    const major = head >> 5;
    const info = head & 31;
    if (info === 31 && major >= 2 && major <= 5) {
      const parts: unknown[] = [];
      for (;;) {
        const v = item(depth + 1);
        if (v === BREAK) break;
        parts.push(v);
      }
      // Chunks of an indefinite byte or text string must be strings of the same kind.
      if (major === 2) {
        if (!parts.every((p) => Buffer.isBuffer(p))) throw new CborError('bad chunk in an indefinite byte string');
        return Buffer.concat(parts as Buffer[]);
      }
      if (major === 3) {
        if (!parts.every((p) => typeof p === 'string')) throw new CborError('bad chunk in an indefinite text string');
        return (parts as string[]).join('');
      }
      if (major === 4) return parts;
      const m = newMap();
      for (let i = 0; i + 1 < parts.length; i += 2) m[String(parts[i])] = parts[i + 1];
      return m;
    }
    switch (major) {
      case 0:
        return length(info);
      case 1:
        return -1 - length(info);
      case 2:
      case 3: {
        const n = length(info);
        need(n);
        const bytes = Buffer.from(buf.subarray(pos, pos + n));
        pos += n;
        return major === 2 ? bytes : bytes.toString('utf8');
      }
      case 4: {
        const n = length(info);
        const a: unknown[] = [];
        for (let i = 0; i < n; i++) a.push(item(depth + 1));
        return a;
      }
      case 5: {
        const n = length(info);
        const m = newMap();
        for (let i = 0; i < n; i++) {
          const k = item(depth + 1);
          m[String(k)] = item(depth + 1);
        }
        return m;
      }
      case 6: {
        const tag = length(info);
        const v = item(depth + 1);
        return tag === 1 && typeof v === 'number' ? new Date(v * 1000) : v;
      }
      default:
        if (info === 20) return false;
        if (info === 21) return true;
        if (info === 22 || info === 23) return null;
        if (info === 25) return (need(2), (pos += 2), halfToFloat(view.getUint16(pos - 2)));
        if (info === 26) return (need(4), (pos += 4), view.getFloat32(pos - 4));
        if (info === 27) return (need(8), (pos += 8), view.getFloat64(pos - 8));
        if (info === 31) return BREAK;
        throw new CborError(`unsupported simple value ${info}`);
    }
  };
  const v = item(0);
  if (v === BREAK) throw new CborError('unexpected break');
  return v;
}

function halfToFloat(h: number): number {
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  if (exp === 0) return sign * 2 ** -14 * (mant / 1024);
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + mant / 1024);
}

export function encodeCbor(value: unknown): Buffer {
  const chunks: Buffer[] = [];
  const head = (major: number, n: number) => {
    if (n < 24) chunks.push(Buffer.from([(major << 5) | n]));
    else if (n < 0x100) chunks.push(Buffer.from([(major << 5) | 24, n]));
    else if (n < 0x10000) {
      const b = Buffer.alloc(3);
      b[0] = (major << 5) | 25;
      b.writeUInt16BE(n, 1);
      chunks.push(b);
    } else if (n < 0x100000000) {
      const b = Buffer.alloc(5);
      b[0] = (major << 5) | 26;
      b.writeUInt32BE(n, 1);
      chunks.push(b);
    } else {
      const b = Buffer.alloc(9);
      b[0] = (major << 5) | 27;
      b.writeBigUInt64BE(BigInt(n), 1);
      chunks.push(b);
    }
  };
  const float = (n: number) => {
    const b = Buffer.alloc(9);
    b[0] = 0xfb;
    b.writeDoubleBE(n, 1);
    chunks.push(b);
  };
  const write = (v: unknown): void => {
    if (v === null || v === undefined) chunks.push(Buffer.from([0xf6]));
    else if (v === true) chunks.push(Buffer.from([0xf5]));
    else if (v === false) chunks.push(Buffer.from([0xf4]));
    else if (typeof v === 'number') {
      if (Number.isSafeInteger(v)) head(v >= 0 ? 0 : 1, v >= 0 ? v : -1 - v);
      else float(v);
    } else if (typeof v === 'string') {
      const b = Buffer.from(v, 'utf8');
      head(3, b.length);
      chunks.push(b);
    } else if (Buffer.isBuffer(v)) {
      head(2, v.length);
      chunks.push(v);
    } else if (v instanceof Date) {
      chunks.push(Buffer.from([0xc1]));
      float(v.getTime() / 1000);
    } else if (Array.isArray(v)) {
      head(4, v.length);
      v.forEach(write);
    } else if (typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
      head(5, entries.length);
      for (const [k, x] of entries) {
        write(k);
        write(x);
      }
    } else throw new CborError(`cannot encode ${typeof v}`);
  };
  write(value);
  return Buffer.concat(chunks);
}

// Item sizes by DynamoDB's published rules (developer guide, "Item sizes and
// formats"): names and strings count their UTF-8 bytes, binaries their raw
// bytes, numbers one byte per two significant digits plus one, lists and maps
// three bytes of overhead plus one byte per element.

import type { Attrs } from './dynalite-engine';

export type AttributeValue = Record<string, unknown>;

export function itemSize(item: Attrs | undefined): number {
  if (!item) return 0;
  let size = 0;
  for (const name in item) size += Buffer.byteLength(name, 'utf8') + valueSize(item[name] as AttributeValue);
  return size;
}

function numberSize(n: string): number {
  // Leading and trailing zeros are not significant; the sign takes a byte.
  const digits = n
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return (digits.length === 0 ? 1 : 1 + Math.ceil(digits.length / 2)) + (n.startsWith('-') ? 1 : 0);
}

export function valueSize(v: AttributeValue | undefined): number {
  if (!v || typeof v !== 'object') return 0;
  if (typeof v.S === 'string') return Buffer.byteLength(v.S, 'utf8');
  if (typeof v.N === 'string') return numberSize(v.N);
  if (typeof v.B === 'string') return Buffer.from(v.B, 'base64').length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (Array.isArray(v.SS)) return v.SS.reduce((s: number, x: string) => s + Buffer.byteLength(x, 'utf8'), 0);
  if (Array.isArray(v.NS)) return v.NS.reduce((s: number, x: string) => s + numberSize(x), 0);
  if (Array.isArray(v.BS)) return v.BS.reduce((s: number, x: string) => s + Buffer.from(x, 'base64').length, 0);
  if (Array.isArray(v.L)) return 3 + v.L.reduce((s: number, x: AttributeValue) => s + 1 + valueSize(x), 0);
  if (v.M && typeof v.M === 'object') {
    const m = v.M as Attrs;
    return 3 + Object.keys(m).length + itemSize(m);
  }
  return 0;
}

/** Write units: one per started KB, at least one. */
export function writeUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}

/** Read units: one per started 4 KB (at least one), half for eventually consistent reads. */
export function readUnits(bytes: number, consistent: boolean): number {
  return Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);
}

import type { Random } from './random';

/**
 * Mutations of real source files, as the CLI part of the fuzz suite applies them: each
 * aims at a way real input goes wrong (a bad download, an editor crash, a generator run
 * wild, another platform's line endings or encoding).
 */
export type Mutation = (bytes: Buffer, r: Random) => Buffer;

const flipBytes: Mutation = (b, r) => {
  const out = Buffer.from(b);
  for (let i = r.between(1, 16); i > 0 && out.length > 0; i--) out[r.int(out.length)] ^= 1 << r.int(8);
  return out;
};

const truncate: Mutation = (b, r) => b.subarray(0, r.int(b.length + 1));

const deleteBrackets: Mutation = (b, r) => {
  const s = b.toString('latin1');
  const at = [...s.matchAll(/[()[\]{}]/g)].map((m) => m.index!);
  const drop = new Set(at.filter(() => r.chance(0.2)));
  return Buffer.from([...s].filter((_, i) => !drop.has(i)).join(''), 'latin1');
};

/** A key built from a deeply nested expression, placed where a real key is. */
const deepNesting: Mutation = (b, r) => {
  const depth = r.pick([20, 30, 100, 1000, 5000]);
  const shape = r.pick(['parens', 'plus', 'call', 'array'] as const);
  const leaf = "'BOARD#global'";
  const nested =
    shape === 'parens'
      ? '('.repeat(depth) + leaf + ')'.repeat(depth)
      : shape === 'plus'
        ? Array.from({ length: depth }, () => "'a'").join(' + ') + ` + ${leaf}`
        : shape === 'call'
          ? 'String('.repeat(depth) + leaf + ')'.repeat(depth)
          : '['.repeat(depth) + leaf + ']'.repeat(depth);
  const s = b.toString('utf8');
  const keys = [...s.matchAll(/(PK|pk|"PK"|'PK')\s*[:=]\s*/g)];
  if (keys.length === 0) return Buffer.from(s + `\nconst PK = ${nested};\n`);
  const m = r.pick(keys);
  const at = m.index! + m[0].length;
  return Buffer.from(s.slice(0, at) + nested + ', ' + s.slice(at));
};

const encodings: Mutation = (b, r) => {
  const s = b.toString('utf8');
  switch (r.int(5)) {
    case 0:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]); // UTF-8 BOM
    case 1:
      return Buffer.from('\ufeff' + s, 'utf16le'); // UTF-16 with BOM (has NUL bytes)
    case 2:
      return Buffer.from(s, 'latin1'); // non-UTF-8 bytes for every non-ASCII character
    case 3: {
      const out = Buffer.from(b); // invalid UTF-8 lead bytes sprinkled in
      for (let i = 0; i < 8 && out.length > 0; i++) out[r.int(out.length)] = r.pick([0xc0, 0xf8, 0xff, 0x80]);
      return out;
    }
    default:
      return Buffer.from(s.replace(/'([^'\n]*)'/g, (_, x: string) => `'${x}\u{1F525}\u0301\u202e'`)); // astral, combining, bidi
  }
};

const lineEndings: Mutation = (b, r) => {
  const s = b.toString('utf8').replace(/\r\n?/g, '\n');
  const eol = r.pick(['\r', '\r\n', 'mixed'] as const);
  let i = 0;
  return Buffer.from(s.replace(/\n/g, () => (eol === 'mixed' ? ['\r', '\r\n', '\n'][i++ % 3] : eol)));
};

const longLine: Mutation = (b, r) =>
  Buffer.concat([b, Buffer.from('\n// ' + 'x'.repeat(r.pick([9_000, 11_000, 200_000])) + '\n')]);

const splice: Mutation = (b, r) => {
  const at = r.int(b.length + 1);
  const from = r.int(b.length + 1);
  return Buffer.concat([b.subarray(0, at), b.subarray(from, from + r.int(200)), b.subarray(at)]);
};

export const MUTATIONS: Record<string, Mutation> = {
  flipBytes,
  truncate,
  deleteBrackets,
  deepNesting,
  encodings,
  lineEndings,
  longLine,
  splice,
};

/** One to three mutations in a row; returns the bytes and their names (for the report). */
export function mutate(source: Buffer, r: Random): { bytes: Buffer; applied: string[] } {
  const names = Object.keys(MUTATIONS);
  const applied: string[] = [];
  let bytes = source;
  for (let n = r.between(1, 3); n > 0; n--) {
    const name = r.pick(names);
    applied.push(name);
    bytes = MUTATIONS[name](bytes, r);
  }
  return { bytes, applied };
}

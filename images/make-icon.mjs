// Draws images/icon.png (128x128): four partitions as bars, one of them hot and on fire.
// No dependencies: a tiny anti-aliased rasterizer (4x4 supersampling) and a PNG writer on zlib.
// Run: node images/make-icon.mjs
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { URL } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SS = 4; // subsamples per axis

const hex = (h, a = 1) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16), a];
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);

function inRoundedRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** A flame: a teardrop with its round bottom at (cx, cy), radius r, tip at tipY, leaning by `lean`. */
function inFlame(x, y, cx, cy, r, tipY, lean) {
  if (y >= cy) return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  if (y < tipY) return false;
  const t = (y - tipY) / (cy - tipY); // 0 at the tip, 1 at the widest point
  const half = r * Math.pow(t, 0.85) * (1 - 0.12 * Math.sin(t * Math.PI * 2));
  const center = cx + lean * (1 - t) * (1 - t);
  return Math.abs(x - center) <= half;
}

// Shapes in paint order: [test(x, y), color(x, y)].
const BG = hex('#232F3E');
const COOL = hex('#4FA3D9');
const COOL_TOP = hex('#7CC4EE');
const HOT_BOTTOM = hex('#E8430F');
const HOT_TOP = hex('#FF9A1F');
const bars = [
  { x: 16, h: 30 },
  { x: 42, h: 38 },
  { x: 68, h: 62, hot: true },
  { x: 94, h: 26 },
];
const W = 18;
const BOTTOM = 110;
const shapes = [
  [(x, y) => inRoundedRect(x, y, 0, 0, SIZE, SIZE, 26), () => BG],
  // baseline (the table)
  [(x, y) => inRoundedRect(x, y, 12, BOTTOM + 3, SIZE - 12, BOTTOM + 7, 2), () => hex('#8A99AD')],
  ...bars.map((b) => [
    (x, y) => inRoundedRect(x, y, b.x, BOTTOM - b.h, b.x + W, BOTTOM, 4),
    (x, y) => {
      const t = (BOTTOM - y) / b.h;
      return b.hot ? mix(HOT_BOTTOM, HOT_TOP, t) : mix(COOL, COOL_TOP, t * 0.6);
    },
  ]),
  // the flame over the hot partition
  [(x, y) => inFlame(x, y, 77, 46, 17, 4, 7), () => hex('#FF5A1F')],
  [(x, y) => inFlame(x, y, 77, 51, 11, 18, 4), () => hex('#FFB02E')],
  [(x, y) => inFlame(x, y, 77, 55, 5.5, 32, 2), () => hex('#FFF0B8')],
];

const rgba = Buffer.alloc(SIZE * SIZE * 4);
for (let py = 0; py < SIZE; py++) {
  for (let px = 0; px < SIZE; px++) {
    let acc = [0, 0, 0, 0];
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const x = px + (sx + 0.5) / SS;
        const y = py + (sy + 0.5) / SS;
        let c = [0, 0, 0, 0];
        for (const [test, color] of shapes) {
          if (!test(x, y)) continue;
          const [r, g, b, a] = color(x, y);
          // source-over, premultiplied
          c = [r * a + c[0] * (1 - a), g * a + c[1] * (1 - a), b * a + c[2] * (1 - a), a + c[3] * (1 - a)];
        }
        acc = acc.map((v, i) => v + c[i]);
      }
    }
    const n = SS * SS;
    const a = acc[3] / n;
    const o = (py * SIZE + px) * 4;
    rgba[o] = a ? Math.round(acc[0] / n / a) : 0;
    rgba[o + 1] = a ? Math.round(acc[1] / n / a) : 0;
    rgba[o + 2] = a ? Math.round(acc[2] / n / a) : 0;
    rgba[o + 3] = Math.round(a * 255);
  }
}

// PNG: signature, IHDR, IDAT (filter 0 per row), IEND.
const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (buf) => {
  let c = -1;
  for (const byte of buf) c = CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) rgba.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = new URL('./icon.png', import.meta.url);
writeFileSync(out, png);
console.log(`wrote ${out.pathname} (${png.length} bytes)`);

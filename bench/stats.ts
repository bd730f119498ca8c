// Small helpers shared by the in-process benchmarks.

/** mulberry32: the same seeded PRNG as bench/generate.mjs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0 || 1;
  return () => {
    let t = (a = (a + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), 1 | t);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest-rank percentile of unsorted samples. */
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

export function summary(samples: number[]) {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    max: Math.max(...samples),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

/** A one-character keystroke: mostly letters, some digits, spaces and punctuation. */
export function keystroke(next: () => number): string {
  const x = next();
  if (x < 0.7) return 'abcdefghijklmnopqrstuvwxyz'[Math.floor(next() * 26)];
  if (x < 0.8) return String(Math.floor(next() * 10));
  if (x < 0.9) return ' ';
  return "();,.='"[Math.floor(next() * 7)];
}

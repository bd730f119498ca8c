/**
 * The fuzz suite's only source of randomness: a seeded generator (mulberry32), so that a
 * seed and an input number reproduce an input exactly. Never use Math.random in fuzz/.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi], both included. */
  between(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
}

export function makeRandom(seed: number): Random {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    between: (lo, hi) => lo + int(hi - lo + 1),
    pick: (list) => list[int(list.length)],
    chance: (p) => next() < p,
  };
}

/** The generator of input `n` of a seed: independent of how earlier inputs ran. */
export function inputRandom(seed: number, n: number): Random {
  return makeRandom((Math.imul(seed, 1_000_003) + n) >>> 0);
}

/** What a part reports for one failing input. */
export interface Failure {
  input: number;
  what: string;
  repro: string;
}

export interface PartResult {
  inputs: number;
  crashes: Failure[];
  hangs: Failure[];
  notes: string[];
}

export interface PartOptions {
  seed: number;
  seconds: number;
  /** Run only this input number (reproducing a failure). */
  input?: number;
  /**
   * Run at least this many inputs even past `seconds`: a smoke run on a loaded machine
   * must still cover the same inputs, not fewer because the CPU was busy.
   */
  minInputs?: number;
}

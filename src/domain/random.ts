/**
 * Seeded pseudo-random numbers for the core: xoshiro128** on 32-bit integer ops, so a seed gives
 * the same sequence on every platform and Node version. The platform generator is never used: its
 * sequence cannot be replayed.
 */
export interface Random {
  /** Uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform in [0, 1) with 53 random bits. */
  nextFloat(): number;
  /** Uniform integer in [0, n), 1 <= n <= 2^32, without modulo bias. */
  nextInt(n: number): number;
  /** Standard normal (mean 0, variance 1). */
  nextGaussian(): number;
}

const TWO_POW_32 = 4_294_967_296;
const TWO_POW_53 = 9_007_199_254_740_992;

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Two 32-bit halves of a string hash (cyrb53): strings seed as well as numbers do. */
function hashString(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2_654_435_761);
    h2 = Math.imul(h2 ^ c, 1_597_334_677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2_246_822_507) ^ Math.imul(h2 ^ (h2 >>> 13), 3_266_489_909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2_246_822_507) ^ Math.imul(h1 ^ (h1 >>> 13), 3_266_489_909);
  return [h1 >>> 0, h2 >>> 0];
}

function seedHalves(seed: number | string): [number, number] {
  if (typeof seed === 'string') return hashString(seed);
  if (!Number.isSafeInteger(seed)) throw new Error(`random seed must be a safe integer or a string, got ${seed}`);
  return [seed >>> 0, Math.floor(seed / TWO_POW_32) >>> 0];
}

class Xoshiro128 implements Random {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spare = 0;
  private hasSpare = false;

  constructor(lo: number, hi: number) {
    // splitmix32 spreads a low-entropy seed (0, 1, 2...) over the whole 128-bit state.
    let x = (lo ^ Math.imul(hi ^ (hi >>> 16), 0x45d9f3b)) | 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) | 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) | 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1; // the one state xoshiro cannot leave
  }

  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9);
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result >>> 0;
  }

  nextFloat(): number {
    const high = this.nextUint32() >>> 5; // 27 bits
    const low = this.nextUint32() >>> 6; // 26 bits
    return (high * 67_108_864 + low) / TWO_POW_53;
  }

  nextInt(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) throw new Error(`nextInt bound must be an integer in [1, 2^32], got ${n}`);
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    for (;;) {
      const x = this.nextUint32();
      if (x < limit) return x % n;
    }
  }

  /** Marsaglia's polar form of Box–Muller: needs only sqrt and log, no trigonometry. */
  nextGaussian(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    for (;;) {
      const u = 2 * this.nextFloat() - 1;
      const v = 2 * this.nextFloat() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const factor = Math.sqrt((-2 * Math.log(s)) / s);
        this.spare = v * factor;
        this.hasSpare = true;
        return u * factor;
      }
    }
  }
}

/** A generator seeded by a safe integer or by any string (hashed). Same seed, same sequence. */
export function createRandom(seed: number | string): Random {
  const [lo, hi] = seedHalves(seed);
  return new Xoshiro128(lo, hi);
}

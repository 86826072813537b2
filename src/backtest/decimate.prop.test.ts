import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimator, decimateIndices } from './decimate.js';

/**
 * The specification: the whole-array decimation report.html used before the curve could be read
 * from disk (each bucket's first point and each key's first lowest and highest point, in index
 * order, the last point always). The streaming Decimator must pick exactly these indices.
 */
function reference(length: number, keys: readonly (readonly number[])[], maxPoints: number): number[] {
  if (length <= maxPoints) return Array.from({ length }, (_, i) => i);
  const perBucket = 1 + 2 * keys.length;
  const buckets = Math.max(1, Math.floor((maxPoints - 2) / perBucket));
  const size = length / buckets;
  const picked: number[] = [0];
  for (let b = 0; b < buckets; b += 1) {
    const from = Math.floor(b * size);
    const to = Math.min(length, Math.floor((b + 1) * size));
    if (to <= from) continue;
    const chosen = new Set<number>([from]);
    for (const key of keys) {
      let lo = from,
        hi = from;
      for (let i = from + 1; i < to; i += 1) {
        const v = key[i] as number;
        if (v < (key[lo] as number)) lo = i;
        if (v > (key[hi] as number)) hi = i;
      }
      chosen.add(lo);
      chosen.add(hi);
    }
    for (const i of [...chosen].sort((x, y) => x - y)) if (i > (picked[picked.length - 1] as number)) picked.push(i);
  }
  if (picked[picked.length - 1] !== length - 1) picked.push(length - 1);
  return picked;
}

/** Series of small integers, so that ties (which the first occurrence wins) are common. */
const caseArb = fc.record({
  length: fc.integer({ min: 0, max: 400 }),
  keyCount: fc.integer({ min: 1, max: 3 }),
  maxPoints: fc.integer({ min: 1, max: 60 }),
  seed: fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 50 }),
});

describe('Decimator (property)', () => {
  it('picks the same points as the whole-array decimation, reading each point once', () => {
    fc.assert(
      fc.property(caseArb, ({ length, keyCount, maxPoints, seed }) => {
        const keys = Array.from({ length: keyCount }, (_, k) =>
          Array.from({ length }, (_, i) => (seed[(i * (k + 3) + k) % seed.length] as number) * (k + 1) + (i % (7 + k))),
        );
        const expected = reference(length, keys, maxPoints);
        expect(decimateIndices(length, keys, maxPoints)).toEqual(expected);
        const decimator = new Decimator<number>(length, keyCount, maxPoints);
        for (let i = 0; i < length; i += 1)
          decimator.push(
            keys.map((key) => key[i] as number),
            i,
          );
        expect(decimator.picked()).toEqual(expected);
      }),
    );
  });

  it('keeps a bounded number of points whatever the length of the series', () => {
    const decimator = new Decimator<number>(1_000_000, 2, 4_000);
    for (let i = 0; i < 1_000_000; i += 1) decimator.push([Math.sin(i / 1000), (i * 7919) % 1013], i);
    const picked = decimator.picked();
    expect(picked.length).toBeLessThanOrEqual(4_000);
    expect(picked[0]).toBe(0);
    expect(picked.at(-1)).toBe(999_999);
  });
});

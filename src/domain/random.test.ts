import { describe, expect, it } from 'vitest';
import { createRandom } from './random.js';

function take(seed: number | string, n: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: n }, () => random.nextUint32());
}

describe('createRandom', () => {
  it('replays the same sequence for the same seed', () => {
    expect(take(42, 100)).toEqual(take(42, 100));
    expect(take('scenario-a', 100)).toEqual(take('scenario-a', 100));
  });

  it('pins its output, so a change to the generator cannot go unnoticed', () => {
    const random = createRandom(42);
    expect([random.nextUint32(), random.nextUint32(), random.nextUint32()]).toEqual([2837322924, 544945897, 479756282]);
    expect(random.nextFloat()).toBe(0.814939410083783);
    expect(take('v20sim', 2)).toEqual([2224999620, 2075236883]);
  });

  it('gives different sequences for different seeds, including neighbouring ones and high bits', () => {
    expect(take(1, 8)).not.toEqual(take(2, 8));
    expect(take(0, 8)).not.toEqual(take(2 ** 32, 8));
    expect(take(-1, 8)).not.toEqual(take(2 ** 32 - 1, 8));
    expect(take('a', 8)).not.toEqual(take('b', 8));
  });

  it('rejects seeds it cannot represent exactly', () => {
    expect(() => createRandom(1.5)).toThrow(/safe integer/);
    expect(() => createRandom(Number.NaN)).toThrow(/safe integer/);
    expect(() => createRandom(2 ** 60)).toThrow(/safe integer/);
  });

  it('nextFloat stays in [0, 1) and looks uniform', () => {
    const random = createRandom(7);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 100_000; i += 1) {
      const x = random.nextFloat();
      if (!(x >= 0 && x < 1)) outside += 1;
      sum += x;
    }
    expect(outside).toBe(0);
    expect(sum / 100_000).toBeCloseTo(0.5, 2);
  });

  it('nextInt covers [0, n) evenly and checks its bound', () => {
    const random = createRandom(11);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i += 1) {
      const k = random.nextInt(6);
      counts[k] = (counts[k] ?? 0) + 1;
    }
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    expect(random.nextInt(1)).toBe(0);
    expect(random.nextInt(2 ** 32)).toBeLessThan(2 ** 32);
    expect(() => random.nextInt(0)).toThrow();
    expect(() => random.nextInt(2.5)).toThrow();
    expect(() => random.nextInt(2 ** 32 + 1)).toThrow();
  });

  it('nextGaussian has mean 0 and variance 1', () => {
    const random = createRandom('gauss');
    const n = 200_000;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i += 1) {
      const z = random.nextGaussian();
      sum += z;
      squares += z * z;
    }
    expect(sum / n).toBeCloseTo(0, 1);
    expect(squares / n).toBeCloseTo(1, 1);
  });
});

import { describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { ticksInWindow } from './window.js';

const tick = (time: number): Tick => ({ instrument: 'EUR_USD', time, bid: 1.1, ask: 1.1001 });

/** Ticks at 1..10; reading the one at `poison` throws, so a read past the window shows. */
function source(poison = Number.POSITIVE_INFINITY): Iterable<Tick> {
  return {
    *[Symbol.iterator]() {
      for (let t = 1; t <= 10; t += 1) {
        if (t === poison) throw new Error(`read the tick at ${t}`);
        yield tick(t);
      }
    },
  };
}

const times = (ticks: Iterable<Tick>): number[] => [...ticks].map((t) => t.time);

describe('ticksInWindow', () => {
  it('takes from `from` (inclusive) to `to` (exclusive)', () => {
    expect(times(ticksInWindow(source(), { from: 3, to: 6 }))).toEqual([3, 4, 5]);
    expect(times(ticksInWindow(source(), { from: 8 }))).toEqual([8, 9, 10]);
    expect(times(ticksInWindow(source(), { to: 3 }))).toEqual([1, 2]);
    expect(times(ticksInWindow(source(), { from: 11 }))).toEqual([]);
  });

  it('reads no further than the first tick at or after `to`', () => {
    expect(times(ticksInWindow(source(7), { from: 2, to: 6 }))).toEqual([2, 3, 4, 5]);
  });

  it('is the source itself without bounds', () => {
    const ticks = source();
    expect(ticksInWindow(ticks, {})).toBe(ticks);
  });
});

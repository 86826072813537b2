import { describe, expect, it } from 'vitest';
import { NewConnectionRate, RequestRate } from './connection-limits.js';

/** A clock the test moves by hand: the limiters read time only through it. */
function clock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('NewConnectionRate (OANDA: 2 new connections per second)', () => {
  it('admits a burst of the rate, then one more per 1/rate seconds', () => {
    const c = clock();
    const rate = new NewConnectionRate(2, c.now);
    expect([rate.admit('a'), rate.admit('a'), rate.admit('a')]).toEqual([true, true, false]);
    c.advance(499);
    expect(rate.admit('a')).toBe(false);
    c.advance(1);
    expect(rate.admit('a')).toBe(true);
    expect(rate.admit('a')).toBe(false);
    c.advance(10_000);
    // The bucket holds no more than the rate however long the address was away.
    expect([rate.admit('a'), rate.admit('a'), rate.admit('a')]).toEqual([true, true, false]);
  });

  it('counts each address on its own', () => {
    const c = clock();
    const rate = new NewConnectionRate(1, c.now);
    expect([rate.admit('a'), rate.admit('b'), rate.admit('a'), rate.admit('b')]).toEqual([true, true, false, false]);
  });

  it('remembers a bounded number of addresses', () => {
    const c = clock();
    const rate = new NewConnectionRate(2, c.now);
    for (let i = 0; i < 12_000; i += 1) rate.admit(`10.0.${i >> 8}.${i & 255}`);
    expect(rate.size).toBeLessThanOrEqual(10_000);
  });
});

describe('RequestRate (OANDA: 100 requests per second on a connection)', () => {
  it('allows the rate in a one-second window and says how long until the next one', () => {
    const c = clock();
    const rate = new RequestRate(3, c.now);
    const conn = {};
    expect([rate.take(conn), rate.take(conn), rate.take(conn)]).toEqual([0, 0, 0]);
    c.advance(250);
    expect(rate.take(conn)).toBe(750);
    c.advance(750);
    expect(rate.take(conn)).toBe(0);
  });

  it('keys by connection, not address', () => {
    const c = clock();
    const rate = new RequestRate(1, c.now);
    const a = {};
    const b = {};
    expect([rate.take(a), rate.take(b), rate.take(a) > 0, rate.take(b) > 0]).toEqual([0, 0, true, true]);
  });
});

describe('NewConnectionRate with a burst', () => {
  it('admits the burst at once, then refills at the rate up to the burst', () => {
    const c = clock();
    const rate = new NewConnectionRate(2, c.now, 5);
    expect(Array.from({ length: 6 }, () => rate.admit('a'))).toEqual([true, true, true, true, true, false]);
    c.advance(1000);
    expect(Array.from({ length: 3 }, () => rate.admit('a'))).toEqual([true, true, false]);
    c.advance(60_000);
    expect(Array.from({ length: 6 }, () => rate.admit('a'))).toEqual([true, true, true, true, true, false]);
  });
});

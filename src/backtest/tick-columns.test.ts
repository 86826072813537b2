import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tick } from '../domain/tick.js';
import { mergeByTime } from '../engine/feeds/index.js';
import { mergeSweepFiles } from './sweep-ticks.js';
import { columnTicks, columnsCount, partsInTimeOrder, readTickColumns, type TickColumns } from './tick-columns.js';

const plain = (instrument: string, time: number, bid: number, ask: number): Tick => ({ instrument, time, bid, ask });

describe('tick columns', () => {
  it('give back the ticks read, field for field and in the same key order, on SharedArrayBuffers', () => {
    const ticks: Tick[] = [
      plain('EUR_USD', 1_000_000, 1.08001, 1.08011),
      { instrument: 'USD_JPY', time: 1_000_000, bid: 151.234, ask: 151.245, closeoutBid: 151.2, closeoutAsk: 151.3 },
      plain('EUR_USD', 1_700_000_000_123_456, 1.1, 1.2),
    ];
    const columns = readTickColumns(ticks, 10);
    expect(columns?.count).toBe(3);
    expect(columns?.time.buffer).toBeInstanceOf(SharedArrayBuffer);
    const back = [...columnTicks(columns as NonNullable<typeof columns>)];
    expect(back).toEqual(ticks);
    expect(back.map((t) => Object.keys(t))).toEqual(ticks.map((t) => Object.keys(t)));
    // Each iteration starts again at the first tick.
    expect([...columnTicks(columns as NonNullable<typeof columns>)]).toEqual(ticks);
  });

  it('keep any count of ticks across growth exactly (property)', () => {
    const tick = fc.record({
      instrument: fc.constantFrom('EUR_USD', 'USD_JPY', 'GBP_USD'),
      time: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      bid: fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
      ask: fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(tick, { maxLength: 40_000 }), (ticks) => {
        const columns = readTickColumns(ticks, Number.MAX_SAFE_INTEGER);
        expect(columns === undefined ? undefined : [...columnTicks(columns)]).toEqual(ticks);
      }),
      { numRuns: 20 },
    );
  });

  it('give up on liquidity levels and past the tick limit, and close the source', () => {
    let closed = 0;
    const source = (ticks: Tick[]): Iterable<Tick> => ({
      [Symbol.iterator]: () => {
        const it = ticks[Symbol.iterator]();
        return { next: () => it.next(), return: () => ((closed += 1), { done: true, value: undefined }) };
      },
    });
    const a = plain('EUR_USD', 1, 1.1, 1.2);
    expect(readTickColumns(source([a, { ...a, bids: [{ price: 1.1, liquidity: 1000 }] }]), 10)).toBeUndefined();
    expect(readTickColumns(source([a, a, a]), 2)).toBeUndefined();
    expect(readTickColumns(source([a, a]), 2)?.count).toBe(2);
    expect(closed).toBe(3);
  });

  it('keep parts in time order as they are and merge parts that overlap, reading back what the merge by time gives (property)', () => {
    const tick = fc.record({
      instrument: fc.constantFrom('EUR_USD', 'USD_JPY'),
      time: fc.integer({ min: 0, max: 50 }),
      bid: fc.constantFrom(1.1, 150.2),
      ask: fc.constantFrom(1.2, 150.3),
    });
    const sorted = fc.array(tick, { maxLength: 30 }).map((ticks) => [...ticks].sort((a, b) => a.time - b.time));
    fc.assert(
      fc.property(fc.array(sorted, { minLength: 1, maxLength: 5 }), (files) => {
        const parts = files.map((ticks) => readTickColumns(ticks, 1000) as TickColumns);
        const merged = [...mergeByTime(files)];
        const flat = files.flat();
        const ascending = flat.every((t, i) => i === 0 || (flat[i - 1] as Tick).time <= t.time);
        expect(partsInTimeOrder(parts)).toBe(ascending);
        const sweep = mergeSweepFiles(parts);
        // In order, the parts themselves (nothing copied); else one part, merged.
        expect(sweep?.length).toBe(ascending ? parts.length : 1);
        if (ascending) sweep?.forEach((part, i) => expect(part).toBe(parts[i]));
        expect([...columnTicks(sweep ?? [])]).toEqual(merged);
        expect(columnsCount(sweep ?? [])).toBe(merged.length);
        // The cursor, as a backtest reads them, also across empty parts.
        const cursor = columnTicks([...(sweep ?? []), readTickColumns([], 1) as TickColumns]).cursor();
        const read: Tick[] = [];
        for (let tick = cursor.next(); tick !== undefined; tick = cursor.next()) read.push(tick);
        expect(read).toEqual(merged);
        expect(cursor.next()).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PriceLevel, Tick } from '../domain/tick.js';
import type { Micros } from '../domain/time.js';
import { TickBatchBuilder, TickBatchReader, type TickBatch } from './tick-batch.js';

const price = fc.double({ min: 0.5, max: 200, noNaN: true });
const levels = fc.option(fc.array(fc.record({ price, liquidity: fc.nat() }), { minLength: 1, maxLength: 3 }), { nil: undefined });

/** Ticks as the feeds make them: closeouts both or neither, levels on either side, a few instruments. */
const tickArb: fc.Arbitrary<Tick> = fc
  .record({
    instrument: fc.constantFrom('EUR_USD', 'USD_JPY', 'XAU_USD'),
    time: fc.integer({ min: 0, max: 2 ** 52 }),
    bid: price,
    ask: price,
    closeout: fc.option(fc.tuple(price, price), { nil: undefined }),
    bids: levels,
    asks: levels,
  })
  .map(({ instrument, time, bid, ask, closeout, bids, asks }) => {
    const tick: { -readonly [K in keyof Tick]: Tick[K] } = { instrument, time: time as Micros, bid, ask };
    if (closeout !== undefined) [tick.closeoutBid, tick.closeoutAsk] = closeout;
    if (bids !== undefined) tick.bids = bids as PriceLevel[];
    if (asks !== undefined) tick.asks = asks as PriceLevel[];
    return tick;
  });

/** Batches as the reader thread cuts them, through a structured clone as postMessage makes one. */
function throughBatches(ticks: readonly Tick[], capacity: number): Tick[] {
  const batches: TickBatch[] = [];
  let builder = new TickBatchBuilder(capacity);
  for (const tick of ticks) {
    if (builder.add(tick)) continue;
    batches.push(structuredClone(builder.finish(0).batch));
    builder = new TickBatchBuilder(capacity);
    expect(builder.add(tick)).toBe(true);
  }
  if (builder.count > 0) batches.push(structuredClone(builder.finish(0).batch));
  const reader = new TickBatchReader();
  const out: Tick[] = [];
  for (const batch of batches) {
    reader.load(batch);
    for (let tick = reader.next(); tick !== undefined; tick = reader.next()) out.push(tick);
  }
  return out;
}

describe('tick batches (property)', () => {
  it('give back every tick equal, field for field and in the same key order, across batch boundaries', () => {
    fc.assert(
      fc.property(fc.array(tickArb, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (ticks, capacity) => {
        const out = throughBatches(ticks, capacity);
        expect(out).toEqual(ticks);
        out.forEach((tick, i) => expect(Object.keys(tick)).toEqual(Object.keys(ticks[i] as Tick)));
      }),
      { numRuns: 300 },
    );
  });
});

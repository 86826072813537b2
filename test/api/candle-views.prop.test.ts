/**
 * The API keeps the views of complete candles and prints each once (src/v3/candles/view-cache.ts).
 * Whatever ticks come and whatever clients ask, in any order, every answer is the text the same
 * query printed afresh would be: over series small enough to drop their oldest candles (a folded
 * candle then loses part of what it was made of, a smoothed one the candle it opens at), with the
 * serving shell's clock ahead of the simulated one, and in UNIX datetimes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { createMarketData } from '../../src/api/market.js';
import { formatRfc3339 } from '../../src/domain/time.js';
import { createEngine } from '../../src/engine/engine.js';
import { getCandles, type CandleQueryValues } from '../../src/v3/candles/query.js';
import { toUnixDatetimes } from '../../src/v3/datetime.js';
import { ACCOUNT, T0, TOKEN } from '../support/constants.js';

const MINUTE = 60_000_000;
/** Small enough that the finer series drop candles within a run. */
const SERIES_MAX = 40;

/** Small counts read the newest candles; the default (500) reaches the oldest a series still holds. */
const QUERIES: readonly CandleQueryValues[] = [
  { granularity: 'S5', count: '30' },
  { granularity: 'S5', smooth: 'true' },
  { granularity: 'M1', price: 'BA' },
  { granularity: 'M1', count: '25', smooth: 'true' },
  { granularity: 'M5', price: 'MBA', smooth: 'true' },
  { granularity: 'M15', count: '12' },
  { granularity: 'H1', price: 'B', smooth: 'true' },
  { granularity: 'H4', smooth: 'true' },
  { granularity: 'D', price: 'A' },
  { granularity: 'D', count: '3' },
  { granularity: 'D', alignmentTimezone: 'Asia/Kolkata', smooth: 'true' },
  { granularity: 'H2', dailyAlignment: '3', alignmentTimezone: 'Asia/Kathmandu' },
  { granularity: 'W', smooth: 'true' },
];

const tickStep = fc.record({
  kind: fc.constant('tick' as const),
  // Seconds to hours: a run outlasts each series' 40 candles, and a day's candles are dropped an hour at a time.
  gapMicros: fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 30 }).map((s) => s * 1_000_000), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: 40 }).map((m) => m * MINUTE), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max: 15 }).map((h) => h * 60 * MINUTE), weight: 1 },
  ),
  bidPips: fc.integer({ min: -40, max: 40 }),
  spreadPips: fc.integer({ min: 1, max: 5 }),
});
const askStep = fc.record({
  kind: fc.constant('ask' as const),
  query: fc.integer({ min: 0, max: QUERIES.length - 1 }),
  unix: fc.boolean(),
  windowed: fc.boolean(),
});

describe('kept candle views', () => {
  it('answer every query with the text it would print afresh', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ arbitrary: tickStep, weight: 3 }, { arbitrary: askStep, weight: 1 }), {
          minLength: 150,
          maxLength: 400,
          size: 'max',
        }),
        fc.integer({ min: 0, max: 90 }).map((m) => m * MINUTE),
        async (steps, shellAhead) => {
          const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000' }], start: T0 });
          const app = await buildApp({
            engine,
            tokens: [{ token: TOKEN, accounts: '*' }],
            candlesPerSeriesMax: SERIES_MAX,
            now: () => engine.now + shellAhead,
          });
          // The same candles, read without kept views.
          const fresh = createMarketData(engine, SERIES_MAX);
          try {
            let time = T0;
            let bid = 1.1;
            for (const step of steps) {
              if (step.kind === 'tick') {
                time += step.gapMicros;
                bid = Math.max(0.5, Math.round((bid + step.bidPips / 10_000) * 100_000) / 100_000);
                engine.pushTick({
                  instrument: 'EUR_USD',
                  time,
                  bid,
                  ask: Math.round((bid + step.spreadPips / 10_000) * 100_000) / 100_000,
                });
                continue;
              }
              const base = QUERIES[step.query] as CandleQueryValues;
              // A window ending at the clock: the count is then from the `to`, the latest candles left out or not.
              const query: CandleQueryValues = step.windowed ? { ...base, to: formatRfc3339(engine.now - 7 * MINUTE) } : base;
              const expected = getCandles({ engine, source: fresh, now: engine.now + shellAhead }, 'EUR_USD', query);
              const res = await app.inject({
                method: 'GET',
                url: `/v3/instruments/EUR_USD/candles?${new URLSearchParams(query as Record<string, string>).toString()}`,
                headers: { authorization: `Bearer ${TOKEN}`, ...(step.unix ? { 'accept-datetime-format': 'UNIX' } : {}) },
              });
              expect(res.statusCode, res.body).toBe(expected.status);
              expect(res.body).toBe(JSON.stringify(step.unix ? toUnixDatetimes(expected.body) : expected.body));
            }
          } finally {
            fresh.close();
            await app.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

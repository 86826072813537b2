import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../domain/instruments.js';
import { MarketCalendar, type MarketHoursSpec } from '../../domain/market-hours.js';
import { generateTicks } from './generator.js';

const HOLIDAY: MarketHoursSpec = { closures: [{ from: '2024-12-24T22:00:00Z', to: '2024-12-25T22:00:00Z', name: 'Christmas' }] };
const catalogue = buildCatalogue([{ name: 'EUR_USD', marketHours: HOLIDAY }]);

/** Starts around the 2024 Christmas week, its weekends and the holiday. */
const start = fc.integer({ min: Date.UTC(2024, 11, 19), max: Date.UTC(2024, 11, 31) }).map((ms) => ms * 1000);

describe('the generator and market hours', () => {
  it('never emits a quote in closed hours, and the same seed gives the same ticks', () => {
    fc.assert(
      fc.property(start, fc.integer({ min: 0, max: 1_000 }), (from, seed) => {
        const options = {
          seed,
          start: from,
          count: 200,
          // Ticks about 20 minutes apart: 200 of them span more than two days.
          meanIntervalMicros: 20 * 60 * 1_000_000,
          instruments: ['EUR_USD', 'USD_JPY'],
          catalogue,
        };
        const ticks = [...generateTicks(options)];
        expect(ticks).toHaveLength(200);
        const calendars = new Map([
          ['EUR_USD', new MarketCalendar(HOLIDAY)],
          ['USD_JPY', new MarketCalendar()],
        ]);
        for (const tick of ticks) expect(calendars.get(tick.instrument)?.openAt(tick.time), tick.instrument).toBe(true);
        expect([...generateTicks(options)]).toEqual(ticks);
      }),
      { numRuns: 30 },
    );
  });
});

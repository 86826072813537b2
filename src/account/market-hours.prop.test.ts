import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { MarketCalendar, type MarketHoursSpec } from '../domain/market-hours.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import type { OrderRequest } from '../orders/request.js';
import { Account } from './account.js';

const HOURS: MarketHoursSpec = { closures: [{ from: '2024-05-08T10:00:00Z', to: '2024-05-08T14:00:00Z', name: 'outage' }] };
const catalogue = buildCatalogue([{ name: 'EUR_USD', marketHours: HOURS }]);
/** Monday 6 May 2024: the steps below run over a closure, the weekend and the next Monday. */
const START = parseDateTime('2024-05-06T12:00:00Z') as Micros;
const MINUTE = 60_000_000;

type Step =
  | { readonly kind: 'quote'; readonly gap: number; readonly move: number }
  | { readonly kind: 'order'; readonly gap: number; readonly order: OrderRequest };

const orderArb: fc.Arbitrary<OrderRequest> = fc
  .record({
    type: fc.constantFrom('MARKET', 'LIMIT', 'STOP', 'MARKET_IF_TOUCHED'),
    units: fc.constantFrom('100', '-100', '1000', '-1000'),
    offset: fc.integer({ min: -40, max: 40 }),
  })
  .map(({ type, units, offset }) =>
    type === 'MARKET'
      ? { type, instrument: 'EUR_USD', units }
      : { type, instrument: 'EUR_USD', units, price: (1.1 + offset / 10_000).toFixed(5) },
  );

/** Gaps of up to a day, so that a few dozen steps cross the closure and the weekend. */
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('quote' as const), gap: fc.integer({ min: 1, max: 24 * 60 }), move: fc.integer({ min: -30, max: 30 }) }),
  fc.record({ kind: fc.constant('order' as const), gap: fc.integer({ min: 1, max: 24 * 60 }), order: orderArb }),
);

describe('market hours on an account', () => {
  it('never fills at a time the market is closed, and fills only on prices quoted in the same session', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 5, maxLength: 60 }), (steps) => {
        const calendar = new MarketCalendar(HOURS);
        const account = Account.open({ id: '101-004-1234567-001', currency: 'USD', balance: '1000000' }, catalogue, START);
        let now = START;
        let mid = 110_000;
        for (const step of steps) {
          now += step.gap * MINUTE;
          if (step.kind === 'quote') {
            mid += step.move;
            account.onQuote({ instrument: 'EUR_USD', time: now, bid: mid / 100_000, ask: (mid + 2) / 100_000 });
          } else {
            account.execute({ type: 'CREATE_ORDER', order: step.order }, now);
          }
        }
        for (const tx of account.log) {
          if (tx.type !== 'ORDER_FILL') continue;
          const time = parseDateTime(tx.time) as Micros;
          expect(calendar.openAt(time), `fill ${tx.id} at ${tx.time}`).toBe(true);
          const quoted = parseDateTime((tx as { fullPrice: { timestamp: string } }).fullPrice.timestamp) as Micros;
          expect(calendar.openAt(quoted) && calendar.changeAfter(quoted) > time, `fill ${tx.id} on a quote of ${quoted}`).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

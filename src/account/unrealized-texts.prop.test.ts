import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO, formatAccountUnits } from '../domain/decimal.js';
import { priceIntToDecimal } from '../domain/price.js';
import type { AccountState, PositionRecord, PositionSideRecord } from './state.js';
import { positionUnrealizedPL, unrealizedPLTextsAtHome } from './valuation.js';

/**
 * The unrealized P/L of a position quoted in the account's currency, printed from the integer grid
 * (unrealizedPLTextsAtHome), against the Decimal route every other figure takes (positionUnrealizedPL
 * and formatAccountUnits): the same three texts whenever the grid route answers, and it answers
 * for whole units at open prices on the grid. Trades are random: whole or fractional units, prices
 * on the grid or finer, either side or both (hedged), at every precision from 0 to 8.
 */
interface TradeSpec {
  readonly units: string;
  readonly priceInt: number;
  readonly finer: number;
}

const tradeArb: fc.Arbitrary<TradeSpec> = fc.record({
  units: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 50_000_000 }).map(String) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 99 })).map(([w, f]) => `${w}.${f}`) },
  ),
  priceInt: fc.integer({ min: 1, max: 20_000_000 }),
  // A price finer than the grid now and then (a trade opened at a VWAP): the grid route must decline.
  finer: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 9 }) }),
});

function side(trades: readonly TradeSpec[], sign: 1 | -1, precision: number): PositionSideRecord {
  let units = ZERO;
  let cost = ZERO;
  for (const t of trades) {
    const u = new Decimal(t.units).times(sign);
    const price = priceIntToDecimal(t.priceInt, precision).plus(new Decimal(t.finer).dividedBy(new Decimal(10).pow(precision + 1)));
    units = units.plus(u);
    cost = cost.plus(u.times(price));
  }
  return {
    units,
    cost,
    // The Decimals are the sums (finer prices than the instrument's keep no integer sum).
    unitsInt: Number.NaN,
    costInt: Number.NaN,
    costScale: -1,
    unitsFloat: units.toNumber(),
    costFloat: cost.toNumber(),
    pl: ZERO,
    plInt: 0,
    financing: ZERO,
    tradeIds: [],
  };
}

function accountAt(precision: number, bid: number, ask: number): AccountState {
  return {
    currency: 'USD',
    instruments: new Map([['EUR_USD', { displayPrecision: precision }]]),
    prices: new Map([['EUR_USD', { bid, ask, known: true, scale: 10 ** precision }]]),
  } as unknown as AccountState;
}

describe('unrealizedPLTextsAtHome', () => {
  it('prints what the Decimal route prints whenever it answers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.array(tradeArb, { maxLength: 4 }),
        fc.array(tradeArb, { maxLength: 4 }),
        fc.integer({ min: 1, max: 20_000_000 }),
        fc.integer({ min: 0, max: 5000 }),
        (precision, longs, shorts, bid, spread) => {
          const ask = bid + spread;
          const position: PositionRecord = { instrument: 'EUR_USD', long: side(longs, 1, precision), short: side(shorts, -1, precision) };
          const texts = unrealizedPLTextsAtHome(position, bid, ask, precision);
          const trades = [...longs, ...shorts];
          const grid = trades.every((t) => t.finer === 0 && !t.units.includes('.'));
          // Well inside the safe integers once printed at 4 decimals: the grid route must answer.
          const reach = trades.reduce((m, t) => m + Number(t.units) * Math.max(ask, t.priceInt), 0) * 10 ** Math.max(0, 4 - precision);
          if (grid && reach < 2 ** 50) expect(texts).not.toBeNull();
          if (texts === null) return;
          const v = positionUnrealizedPL(accountAt(precision, bid, ask), position);
          expect(texts).toEqual([
            formatAccountUnits(v.longUnrealizedPL),
            formatAccountUnits(v.shortUnrealizedPL),
            formatAccountUnits(v.longUnrealizedPL.plus(v.shortUnrealizedPL)),
          ]);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('rounds half away from zero at the fourth decimal, as decimal.js does', () => {
    // 3 units bought at 1.00000, bid 1.00005: +0.00015, printed 0.0002; sold short: -0.00015 -> -0.0002.
    const long: PositionRecord = {
      instrument: 'EUR_USD',
      long: side([{ units: '3', priceInt: 100_000, finer: 0 }], 1, 5),
      short: side([], -1, 5),
    };
    expect(unrealizedPLTextsAtHome(long, 100_005, 100_005, 5)).toEqual(['0.0002', '0.0000', '0.0002']);
    const short: PositionRecord = {
      instrument: 'EUR_USD',
      long: side([], 1, 5),
      short: side([{ units: '3', priceInt: 100_000, finer: 0 }], -1, 5),
    };
    expect(unrealizedPLTextsAtHome(short, 100_005, 100_005, 5)).toEqual(['0.0000', '-0.0002', '-0.0002']);
  });
});

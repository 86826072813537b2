/**
 * A strategy's candles are the v3 API's: at the same simulated time, over the same quotes,
 * ctx.candles answers what GET /v3/instruments/{instrument}/candles answers from `v20sim serve`.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { SAMPLE_TICKS_FILE, openTicks } from '../../src/backtest/tick-files.js';
import { checkDefinition } from '../../src/backtest/params.js';
import { runBacktest } from '../../src/backtest/runner.js';
import type { StrategyDefinition } from '../../src/backtest/strategy.js';
import type { V20CandlesQuery } from '../../src/backtest/v20.js';
import type { Tick } from '../../src/domain/tick.js';
import { createEngine } from '../../src/engine/engine.js';

const TICKS: Tick[] = [];
for (const tick of openTicks([SAMPLE_TICKS_FILE])) {
  TICKS.push(tick);
  if (TICKS.length === 30_000) break;
}
/** Where the strategy asks: the tick's index in TICKS (neighbours too: the second reads complete candles' views kept from the first). */
const AT = [4_000, 4_001, 17_321, 17_322, 29_999];
const ASKED: [string, V20CandlesQuery][] = [
  ['EUR_USD', { granularity: 'M5', count: 3, price: 'BA' }],
  ['EUR_USD', { granularity: 'H4', count: 2, price: 'MBA', smooth: true }],
  ['USD_JPY', { granularity: 'M1', from: '2024-01-02T03:00:00Z', count: 4 }],
  ['USD_JPY', { granularity: 'M1', from: '2024-01-02T03:00:30Z', to: '2024-01-02T03:05:00Z', includeFirst: false }],
  // A zone whose offset is not whole hours: daily candles folded from M15.
  ['EUR_USD', { granularity: 'D', count: 2, alignmentTimezone: 'Asia/Kolkata', dailyAlignment: 9 }],
];
const DECLARED = ['EUR_USD:M5', 'EUR_USD:H4', 'USD_JPY:M1', 'EUR_USD:D'];

function definition(candles: readonly string[] | undefined, seen: unknown[]): StrategyDefinition {
  return {
    name: 'reads-candles',
    params: {},
    ...(candles === undefined ? {} : { candles }),
    create() {
      let n = -1;
      return {
        onTick(_tick, ctx) {
          n += 1;
          if (AT.includes(n)) for (const [instrument, query] of ASKED) seen.push(ctx.candles(instrument, query));
        },
      };
    },
  };
}

function queryString(q: V20CandlesQuery): string {
  return Object.entries(q)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
}

describe('ctx.candles', () => {
  it('answers what the API answers at the same simulated time over the same quotes', async () => {
    const seen: unknown[] = [];
    runBacktest({ strategy: definition(DECLARED, seen), ticks: TICKS });
    const engine = createEngine({ accounts: [{ id: '101-004-1000001-001', currency: 'USD', balance: '100000' }], start: TICKS[0]!.time });
    const app = await buildApp({ engine, tokens: [{ token: 't', accounts: '*' }] });
    const served: unknown[] = [];
    try {
      for (let i = 0; i < TICKS.length; i += 1) {
        engine.pushTick(TICKS[i]!);
        if (!AT.includes(i)) continue;
        for (const [instrument, query] of ASKED) {
          const r = await app.inject({
            url: `/v3/instruments/${instrument}/candles?${queryString(query)}`,
            headers: { authorization: 'Bearer t' },
          });
          expect(r.statusCode, r.body).toBe(200);
          served.push(r.json());
        }
      }
    } finally {
      await app.close();
    }
    expect(seen).toHaveLength(AT.length * ASKED.length);
    expect(seen).toEqual(served);
    // Not a trivial agreement: candles were there, the newest still forming.
    const m5 = seen[0] as { candles: { complete: boolean }[] };
    expect(m5.candles).toHaveLength(3);
    expect(m5.candles.map((c) => c.complete)).toEqual([true, true, false]);
  });

  it('prints a complete candle once, but hands out objects of its own each time, as parsed JSON would be', () => {
    const opens: string[] = [];
    const firsts: object[] = [];
    runBacktest({
      strategy: {
        name: 'changes-its-candles',
        params: {},
        candles: ['EUR_USD:M5'],
        create() {
          let n = 0;
          return {
            onTick(_tick, ctx) {
              if ((n += 1) < 4_000 || opens.length >= 3) return;
              const first = ctx.candles('EUR_USD', { granularity: 'M5', count: 3, price: 'B' }).candles[0] as { bid: { o: string } };
              opens.push(first.bid.o);
              firsts.push(first);
              // A strategy may change what it was given; the next answer must not show it.
              first.bid.o = 'changed by the strategy';
            },
          };
        },
      },
      ticks: TICKS,
    });
    // Three neighbouring ticks: the same complete candle each time, its kept view untouched by the changes.
    expect(opens).toHaveLength(3);
    expect(new Set(opens).size).toBe(1);
    expect(opens[0]).toMatch(/^1\.\d{5}$/);
    expect(firsts[1]).not.toBe(firsts[0]);
  });

  it('reads only declared candles, and refuses a bad query with v20 words', () => {
    const read = (candles: readonly string[] | undefined, instrument: string, query: V20CandlesQuery): unknown =>
      runBacktest({
        strategy: {
          name: 'asks',
          params: {},
          ...(candles === undefined ? {} : { candles }),
          create: () => ({ onStart: (ctx) => void ctx.candles(instrument, query) }),
        },
        ticks: TICKS.slice(0, 10),
      });
    expect(() => read(undefined, 'EUR_USD', { granularity: 'M5' })).toThrow(
      "the strategy declares no candles; add e.g. candles: ['EUR_USD:M5'] to its definition",
    );
    expect(() => read(['EUR_USD:M5'], 'EUR_USD', { granularity: 'M1' })).toThrow(
      "candles of EUR_USD M1 were not declared: add 'EUR_USD:M1' to the strategy's candles",
    );
    expect(() => read(['EUR_USD:M5'], 'EUR_USD', {})).toThrow('candles of EUR_USD S5 were not declared');
    expect(() => read(['EUR_USD:M5'], 'EUR_USD', { granularity: 'M5', count: 0 })).toThrow(
      `candles("EUR_USD"): Invalid value specified for 'count'`,
    );
    expect(() => read(['EUR_XYZ:M5'], 'EUR_USD', { granularity: 'M5' })).toThrow('candles: unknown instrument in "EUR_XYZ:M5"');
  });

  it('is declared as INSTRUMENT:GRANULARITY', () => {
    const base = { name: 'x', params: {}, create: () => ({}) };
    expect(() => checkDefinition({ ...base, candles: ['EUR_USD:M5', 'USD_JPY:D'] }, 's.ts')).not.toThrow();
    expect(() => checkDefinition({ ...base, candles: 'EUR_USD:M5' }, 's.ts')).toThrow(
      'candles must be a list of INSTRUMENT:GRANULARITY strings',
    );
    expect(() => checkDefinition({ ...base, candles: ['EUR_USD'] }, 's.ts')).toThrow('candles: "EUR_USD" is not INSTRUMENT:GRANULARITY');
    expect(() => checkDefinition({ ...base, candles: ['EUR_USD:M3'] }, 's.ts')).toThrow(
      'candles: "EUR_USD:M3": granularity must be one of S5',
    );
  });
});

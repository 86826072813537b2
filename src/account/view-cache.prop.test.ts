import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sim } from './test-helpers.js';
import { cachedPositionJson, cachedSummaryJson, positionViewOf, summaryViewOf } from './view-cache.js';
import { accountSummaryView, positionView, type Json } from './views.js';
import type { AccountState, PositionRecord } from './state.js';
import { emptySide } from './state.js';
import { sideIsOpen } from './side-sums.js';

/**
 * The cached and lazy views (view-cache.ts, lazy-views.ts) are the plain views computed afresh
 * (views.ts), after any sequence of quotes and orders: the same JSON, the same value under every
 * key, and a view taken earlier and read only later still shows the figures of its own moment.
 */

const PAIRS = [
  { name: 'EUR_USD', mid: 1.1, pip: 0.0001 },
  { name: 'USD_JPY', mid: 150, pip: 0.01 },
  { name: 'EUR_GBP', mid: 0.88, pip: 0.0001 },
  { name: 'GBP_USD', mid: 1.25, pip: 0.0001 },
] as const;
/** Asked for, never quoted nor traded: a flat position. */
const UNTRADED = 'AUD_CAD';

const step = fc.oneof(
  fc.record({ k: fc.constant('quote' as const), i: fc.integer({ min: 0, max: 3 }), pips: fc.integer({ min: -300, max: 300 }) }),
  fc.record({ k: fc.constant('market' as const), i: fc.integer({ min: 0, max: 3 }), units: fc.integer({ min: -50_000, max: 50_000 }) }),
  fc.record({ k: fc.constant('limit' as const), i: fc.integer({ min: 0, max: 3 }), units: fc.integer({ min: -50_000, max: 50_000 }) }),
  fc.record({ k: fc.constant('close' as const), i: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ k: fc.constant('configure' as const), marginRate: fc.constantFrom('0.02', '0.05', '0.1') }),
  fc.record({ k: fc.constant('read' as const), figures: fc.boolean() }),
);

function positionOrFlat(state: AccountState, instrument: string): PositionRecord {
  return state.positions.get(instrument) ?? { instrument, long: emptySide(), short: emptySide() };
}

/** Every key of the plain view read from the lazy one (getters included), nested objects by their keys too. */
function readLike(lazy: unknown, plain: unknown): unknown {
  if (Array.isArray(plain)) return (lazy as unknown[]).map((v, i) => readLike(v, plain[i]));
  if (typeof plain !== 'object' || plain === null) return lazy;
  const out: Json = {};
  for (const key of Object.keys(plain)) out[key] = readLike((lazy as Json)[key], (plain as Json)[key]);
  return out;
}

interface Held {
  readonly views: readonly unknown[];
  readonly expected: readonly string[];
}

describe('cached views', () => {
  it('equal the views computed afresh, now and when read later', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('USD', 'EUR', 'JPY'),
        fc.boolean(),
        fc.constantFrom('0', '0.005'),
        fc.array(step, { maxLength: 40 }),
        (currency, hedgingEnabled, fee, steps) => {
          const sim = new Sim({ currency, hedgingEnabled, homeConversionFee: fee, balance: '100000', marginCloseout: false });
          const mids: number[] = PAIRS.map((p) => p.mid);
          const held: Held[] = [];
          const quote = (i: number): void => {
            const p = PAIRS[i] as (typeof PAIRS)[number];
            const digits = p.pip === 0.01 ? 3 : 5;
            const bid = Number((mids[i] as number).toFixed(digits));
            sim.quote(p.name, bid, Number((bid + 2 * p.pip).toFixed(digits)));
          };
          for (const [i] of PAIRS.entries()) quote(i);
          for (const s of steps) {
            const state = sim.account.state;
            if (s.k === 'quote') {
              const p = PAIRS[s.i] as (typeof PAIRS)[number];
              mids[s.i] = Math.max(p.pip * 100, (mids[s.i] as number) + s.pips * p.pip);
              quote(s.i);
            } else if (s.k === 'market' && s.units !== 0) {
              sim.order({ type: 'MARKET', instrument: (PAIRS[s.i] as (typeof PAIRS)[number]).name, units: String(s.units) });
            } else if (s.k === 'limit' && s.units !== 0) {
              const p = PAIRS[s.i] as (typeof PAIRS)[number];
              const price = (mids[s.i] as number) - Math.sign(s.units) * 5 * p.pip;
              sim.order({ type: 'LIMIT', instrument: p.name, units: String(s.units), price: price.toFixed(p.pip === 0.01 ? 3 : 5) });
            } else if (s.k === 'configure') {
              sim.exec({ type: 'CONFIGURE', marginRate: s.marginRate });
            } else if (s.k === 'read') {
              // Taken now, read only after the steps that follow: the figures of this moment. A fresh
              // cache, so that no figure of this moment is printed yet (the checks below print them all).
              state.memo.views = undefined;
              const views: unknown[] = [summaryViewOf(state), ...PAIRS.map((p) => positionViewOf(state, p.name))];
              const expected = [
                JSON.stringify(accountSummaryView(state)),
                ...PAIRS.map((p) => JSON.stringify(positionView(state, positionOrFlat(state, p.name)))),
              ];
              // Half the time one figure is read at once, so that a later read finds it printed.
              if (s.figures) void (views[0] as { NAV: string }).NAV;
              held.push({ views, expected });
              continue;
            } else if (s.k === 'close') {
              const name = (PAIRS[s.i] as (typeof PAIRS)[number]).name;
              const position = state.positions.get(name);
              if (position !== undefined && sideIsOpen(position.long))
                sim.exec({ type: 'CLOSE_POSITION', instrument: name, longUnits: 'ALL' });
              else if (position !== undefined && sideIsOpen(position.short))
                sim.exec({ type: 'CLOSE_POSITION', instrument: name, shortUnits: 'ALL' });
            }

            // Now: the lazy views, the cached plain views and the fresh views agree.
            const fresh = accountSummaryView(state);
            const lazy = summaryViewOf(state);
            expect(JSON.stringify(lazy)).toBe(JSON.stringify(fresh));
            expect(readLike(lazy, fresh)).toStrictEqual(fresh);
            expect(JSON.stringify(cachedSummaryJson(state))).toBe(JSON.stringify(fresh));
            for (const name of [...PAIRS.map((p) => p.name), UNTRADED]) {
              const freshPosition = positionView(state, positionOrFlat(state, name));
              const lazyPosition = positionViewOf(state, name);
              expect(readLike(lazyPosition, freshPosition)).toStrictEqual(freshPosition);
              expect(JSON.stringify(lazyPosition)).toBe(JSON.stringify(freshPosition));
              expect(JSON.stringify(cachedPositionJson(state, positionOrFlat(state, name)))).toBe(JSON.stringify(freshPosition));
            }
          }
          for (const h of held) expect(h.views.map((v) => JSON.stringify(v))).toStrictEqual(h.expected);
        },
      ),
      {
        numRuns: 120,
        // A position valued by a view taken before the quote moved and read after.
        examples: [
          [
            'USD',
            false,
            '0',
            [
              { k: 'market', i: 0, units: 1000 },
              { k: 'read', figures: false },
              { k: 'quote', i: 0, pips: 50 },
            ],
          ],
        ],
      },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import type { JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { Account } from './account.js';
import { ACCOUNT_ID, CATALOGUE, SECOND, T0 } from './test-helpers.js';
import { markMarginStale } from './margin-watch.js';
import { valueAccount } from './valuation.js';
import { balanceOf, isTradeableAt } from './state.js';
import { accountSummaryView } from './views.js';

/** Instruments, their starting prices in points and their decimals: EUR_GBP needs GBP_USD (or EUR_USD) to convert. */
const INSTRUMENTS = [
  { name: 'EUR_USD', start: 110_000, decimals: 5 },
  { name: 'USD_JPY', start: 150_000, decimals: 3 },
  { name: 'EUR_GBP', start: 85_000, decimals: 5 },
  { name: 'GBP_USD', start: 127_000, decimals: 5 },
] as const;
const HOUR = 3600 * SECOND;

type Step =
  | { k: 'quote'; inst: number; move: number; spread: number }
  | { k: 'market'; inst: number; units: number }
  | { k: 'transfer'; amount: number }
  | { k: 'advance'; hours: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      k: fc.constant('quote' as const),
      inst: fc.integer({ min: 0, max: 3 }),
      move: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: -150, max: 150 }) },
        { weight: 2, arbitrary: fc.integer({ min: -1500, max: 1500 }) },
        { weight: 1, arbitrary: fc.integer({ min: -6000, max: 6000 }) },
      ),
      spread: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('market' as const),
      inst: fc.integer({ min: 0, max: 3 }),
      units: fc
        .oneof(fc.integer({ min: 5_000, max: 28_000 }), fc.integer({ min: 500, max: 8_000 }))
        .chain((u) => fc.boolean().map((buy) => (buy ? u : -u))),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('transfer' as const), amount: fc.integer({ min: -300, max: 500 }).filter((a) => a !== 0) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 30 }) }) },
);

interface Run {
  account: Account;
  entries: JournalEntry[];
  /** After each quote in trading hours: whether the account showed a closeout percent >= 1 with trades open. */
  pastCloseoutAfterQuote: boolean[];
}

function price(points: number, decimals: number): number {
  return Number((points / 10 ** decimals).toFixed(decimals));
}

/**
 * Plays the steps on a fresh 1,000 USD account. `everyQuote` marks the margin levels stale before
 * every quote, so each quote is checked exactly: the reference the price bands must agree with.
 */
function play(steps: readonly Step[], options: { marginCloseout: boolean; everyQuote: boolean }): Run {
  const entries: JournalEntry[] = [];
  const account = Account.open(
    { id: ACCOUNT_ID, currency: 'USD', balance: '1000', marginCloseout: options.marginCloseout },
    CATALOGUE,
    T0,
    (e) => entries.push(...e),
  );
  const points: number[] = INSTRUMENTS.map((i) => i.start);
  let now = T0;
  const quote = (inst: number, spread: number): void => {
    const spec = INSTRUMENTS[inst] as (typeof INSTRUMENTS)[number];
    if (options.everyQuote) markMarginStale(account.state);
    now += SECOND;
    const bid = points[inst] as number;
    account.onQuote({ instrument: spec.name, time: now, bid: price(bid, spec.decimals), ask: price(bid + spread, spec.decimals) });
  };
  for (let i = 0; i < INSTRUMENTS.length; i += 1) quote(i, 2);
  const pastCloseoutAfterQuote: boolean[] = [];
  for (const s of steps) {
    if (s.k === 'quote') {
      points[s.inst] = Math.max(1000, (points[s.inst] as number) + s.move);
      quote(s.inst, s.spread);
      // A quote in closed hours triggers nothing, margin checks included (market-hours.ts): a
      // closeout waits for the first quote of the next session, as it could not fill before.
      const open = isTradeableAt(account.state.prices.get((INSTRUMENTS[s.inst] as (typeof INSTRUMENTS)[number]).name), now);
      pastCloseoutAfterQuote.push(
        open && account.state.openTradeCount > 0 && valueAccount(account.state).marginCloseoutPercent.greaterThanOrEqualTo(1),
      );
    } else if (s.k === 'market') {
      now += SECOND;
      const spec = INSTRUMENTS[s.inst] as (typeof INSTRUMENTS)[number];
      account.execute({ type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: spec.name, units: String(s.units) } }, now);
    } else if (s.k === 'transfer') {
      now += SECOND;
      account.execute({ type: 'TRANSFER_FUNDS', amount: String(s.amount) }, now);
    } else {
      now += s.hours * HOUR;
      account.advance(now);
    }
  }
  return { account, entries, pastCloseoutAfterQuote };
}

/** Σ of what moves the balance, from the log alone. */
function balanceFromLog(log: readonly Transaction[]): Decimal {
  let sum = new Decimal(0);
  for (const tx of log) {
    if (tx.type === 'TRANSFER_FUNDS') sum = sum.plus(tx.amount);
    else if (tx.type === 'ORDER_FILL') sum = sum.plus(tx.pl).plus(tx.financing).minus(tx.commission);
    else if (tx.type === 'DAILY_FINANCING') sum = sum.plus(tx.financing);
  }
  return sum;
}

const steps = fc.array(step, { minLength: 5, maxLength: 60, size: 'max' });

describe('margin call and closeout (properties)', () => {
  it('with the closeout on, no quote leaves the account past closeout with trades open, unless a closeout could not fill', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const run = play(s, { marginCloseout: true, everyQuote: false });
        const blocked = run.account.log.some(
          (t) => t.type === 'ORDER_CANCEL' && run.account.state.orders.get(Number(t.orderID))?.create.reason === 'MARGIN_CLOSEOUT',
        );
        if (!blocked) expect(run.pastCloseoutAfterQuote.every((past) => !past)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('the balance is the sum of transfers, realized P/L and financing, closeouts included', () => {
    fc.assert(
      fc.property(steps, fc.boolean(), (s, closeout) => {
        const { account } = play(s, { marginCloseout: closeout, everyQuote: false });
        expect(balanceOf(account.state).toFixed(4)).toBe(balanceFromLog(account.log.slice()).toFixed(4));
      }),
      { numRuns: 100 },
    );
  });

  it('the price bands change nothing: the same journal as checking the levels at every quote', () => {
    fc.assert(
      fc.property(steps, fc.boolean(), (s, closeout) => {
        const banded = play(s, { marginCloseout: closeout, everyQuote: false });
        const exact = play(s, { marginCloseout: closeout, everyQuote: true });
        expect(banded.account.log).toEqual(exact.account.log);
      }),
      { numRuns: 150 },
    );
  });

  it('replaying the journal gives the live account: margin call, trades, balance and the summary at the same quotes', () => {
    fc.assert(
      fc.property(steps, fc.boolean(), (s, closeout) => {
        const { account, entries } = play(s, { marginCloseout: closeout, everyQuote: false });
        const config = { id: ACCOUNT_ID, currency: 'USD', marginCloseout: closeout };
        const replayed = Account.replay(config, CATALOGUE, entries);
        expect(replayed.state.marginCall).toEqual(account.state.marginCall);
        expect(replayed.state.marginCloseoutBlocked).toBe(account.state.marginCloseoutBlocked);
        expect(balanceOf(replayed.state).toFixed(4)).toBe(balanceOf(account.state).toFixed(4));
        // The journal holds no prices: give the replayed account the live one's latest quotes, at the live clock.
        for (const [name, slot] of account.state.prices) {
          if (!slot.known) continue;
          const target = replayed.state.prices.get(name);
          replayed.state.prices.set(name, {
            ...slot,
            ...(target === undefined ? {} : { marginLow: target.marginLow, marginHigh: target.marginHigh }),
          });
        }
        expect(accountSummaryView(replayed.state)).toEqual(accountSummaryView(account.state));
      }),
      { numRuns: 100 },
    );
  });

  it('with the closeout off, the percents never snap back to 1 when the closeout NAV is negative', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { account } = play(s, { marginCloseout: false, everyQuote: false });
        const v = valueAccount(account.state);
        if (!v.marginUsed.isZero() && !v.marginCloseoutNAV.greaterThan(0)) {
          expect(v.marginCloseoutPercent.greaterThan(1)).toBe(true);
          expect(v.marginCallPercent.greaterThan(v.marginCloseoutPercent)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });
});

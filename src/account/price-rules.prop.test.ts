import { balanceOf } from './state.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import { TRIGGER_CONDITION } from '../domain/order-types.js';
import { Sim } from './test-helpers.js';
import { valueAccount } from './valuation.js';

/**
 * A LIMIT or TAKE_PROFIT never fills at a worse price than its own, whatever its trigger condition
 * and whatever the quotes (LimitOrderRequest.price and TakeProfitOrderRequest.price in OANDA's
 * definitions; the rule lives in restingSource, src/matching/fill-rules.ts): a buy at or below its
 * price, a sell at or above it. Prices are EUR_USD grid points (5 decimals) around 1.10000.
 */
const PRICE = 110_000;
const toPrice = (grid: number): number => grid / 100_000;
const priceText = (grid: number): string => toPrice(grid).toFixed(5);

const quoteArb = fc.record({ bid: fc.integer({ min: PRICE - 40, max: PRICE + 40 }), spread: fc.integer({ min: 0, max: 30 }) });

interface Case {
  readonly type: 'LIMIT' | 'TAKE_PROFIT';
  readonly buy: boolean;
  readonly condition: (typeof TRIGGER_CONDITION)[number];
  readonly offset: number;
  readonly quotes: readonly { bid: number; spread: number }[];
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  type: fc.constantFrom('LIMIT' as const, 'TAKE_PROFIT' as const),
  buy: fc.boolean(),
  condition: fc.constantFrom(...TRIGGER_CONDITION),
  offset: fc.integer({ min: -20, max: 20 }),
  quotes: fc.array(quoteArb, { minLength: 1, maxLength: 30 }),
});

/** Places the order away from a wide market so it rests, then plays the quotes; returns its fills' prices. */
function fillsOf(c: Case): { price: number; orderPrice: number; buy: boolean }[] {
  const sim = new Sim();
  sim.quote('EUR_USD', toPrice(PRICE - 100), toPrice(PRICE + 100));
  const orderPrice = PRICE + c.offset;
  let orderId: string;
  if (c.type === 'LIMIT') {
    const units = c.buy ? '1000' : '-1000';
    // A buy starts from a market above its price, a sell from below, so neither fills at creation.
    sim.quote('EUR_USD', toPrice(c.buy ? PRICE + 60 : PRICE - 90), toPrice(c.buy ? PRICE + 90 : PRICE - 60));
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units, price: priceText(orderPrice), triggerCondition: c.condition });
    orderId = out.transactions[0]?.id as string;
  } else {
    // The TP closing a trade is a buy when the trade is short.
    const tradeId = sim.openTrade('EUR_USD', c.buy ? '-1000' : '1000');
    sim.quote('EUR_USD', toPrice(c.buy ? PRICE + 60 : PRICE - 90), toPrice(c.buy ? PRICE + 90 : PRICE - 60));
    const out = sim.order({ type: 'TAKE_PROFIT', tradeID: String(tradeId), price: priceText(orderPrice), triggerCondition: c.condition });
    orderId = out.transactions[0]?.id as string;
  }
  expect(sim.account.state.orders.get(Number(orderId))?.state).toBe('PENDING');
  const before = sim.lastId;
  for (const q of c.quotes) sim.quote('EUR_USD', toPrice(q.bid), toPrice(q.bid + q.spread));
  return sim
    .since(before)
    .filter((tx) => tx.type === 'ORDER_FILL' && (tx as unknown as { orderID: string }).orderID === orderId)
    .map((tx) => ({ price: Math.round(Number((tx as unknown as { price: string }).price) * 100_000), orderPrice, buy: c.buy }));
}

describe('LIMIT and TAKE_PROFIT price bound', () => {
  it('never fill worse than their price, for every trigger condition and quote', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        for (const f of fillsOf(c)) {
          if (f.buy) expect(f.price).toBeLessThanOrEqual(f.orderPrice);
          else expect(f.price).toBeGreaterThanOrEqual(f.orderPrice);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fill as soon as the default side reaches their price, whatever the condition', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const fills = fillsOf(c);
        const orderPrice = PRICE + c.offset;
        const reachable = c.quotes.findIndex((q) => (c.buy ? q.bid + q.spread <= orderPrice : q.bid >= orderPrice));
        expect(fills.length).toBe(reachable === -1 ? 0 : 1);
      }),
      { numRuns: 300 },
    );
  });
});

type Step =
  | { k: 'quote'; bid: number; spread: number }
  | { k: 'market'; units: number; openOnly: boolean }
  | { k: 'limit'; units: number; offset: number; openOnly: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    k: fc.constant('quote' as const),
    bid: fc.integer({ min: PRICE - 40, max: PRICE + 40 }),
    spread: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({
    k: fc.constant('market' as const),
    units: fc.integer({ min: -5000, max: 5000 }).filter((u) => u !== 0),
    openOnly: fc.boolean(),
  }),
  fc.record({
    k: fc.constant('limit' as const),
    units: fc.integer({ min: -5000, max: 5000 }).filter((u) => u !== 0),
    offset: fc.integer({ min: -30, max: 30 }),
    openOnly: fc.boolean(),
  }),
);

describe('OPEN_ONLY on a netting account', () => {
  it('never reduces a position: its fills open trades only', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const sim = new Sim();
        sim.quote('EUR_USD', toPrice(PRICE), toPrice(PRICE + 2));
        let bid = PRICE;
        for (const s of steps) {
          if (s.k === 'quote') {
            bid = s.bid;
            sim.quote('EUR_USD', toPrice(s.bid), toPrice(s.bid + s.spread));
          } else {
            const positionFill = s.openOnly ? 'OPEN_ONLY' : 'DEFAULT';
            const order: Record<string, unknown> = { instrument: 'EUR_USD', units: String(s.units), positionFill };
            if (s.k === 'market') sim.order({ type: 'MARKET', ...order });
            else sim.order({ type: 'LIMIT', ...order, price: priceText(bid + s.offset) });
          }
        }
        const openOnly = new Set(
          sim.account.log.filter((tx) => (tx as unknown as { positionFill?: string }).positionFill === 'OPEN_ONLY').map((tx) => tx.id),
        );
        for (const tx of sim.account.log) {
          const fill = tx as unknown as { type: string; orderID?: string; tradesClosed?: unknown; tradeReduced?: unknown };
          if (fill.type !== 'ORDER_FILL' || !openOnly.has(fill.orderID as string)) continue;
          expect(fill.tradesClosed).toBeUndefined();
          expect(fill.tradeReduced).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('withdrawalLimit', () => {
  it('lies between zero and the balance, and withdrawing it never leaves the balance negative', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: -50_000, max: 50_000 }).filter((u) => u !== 0),
        fc.integer({ min: PRICE - 20_000, max: PRICE + 20_000 }),
        (deposit, units, bid) => {
          const sim = new Sim({ balance: `${deposit}.0000` });
          sim.quote('EUR_USD', toPrice(PRICE), toPrice(PRICE + 2));
          sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: String(units) });
          sim.quote('EUR_USD', toPrice(bid), toPrice(bid + 2));
          const state = sim.account.state;
          const limit = valueAccount(state).withdrawalLimit;
          expect(limit.isNegative()).toBe(false);
          expect(limit.lessThanOrEqualTo(Decimal.max(balanceOf(state), 0))).toBe(true);
          // Amounts carry 4 decimals: the most that may go is the limit rounded down to them.
          const most = limit.toDecimalPlaces(4, Decimal.ROUND_DOWN);
          if (most.greaterThan(0)) {
            const out = sim.exec({ type: 'TRANSFER_FUNDS', amount: most.negated().toFixed(4) });
            expect(out.reject).toBeUndefined();
            expect(balanceOf(state).isNegative()).toBe(false);
          }
          const over = sim.exec({
            type: 'TRANSFER_FUNDS',
            amount: valueAccount(state).withdrawalLimit.plus('0.0001').toDecimalPlaces(4, Decimal.ROUND_UP).negated().toFixed(4),
          });
          expect(over.reject?.errorCode).toBe('INSUFFICIENT_FUNDS');
        },
      ),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import { Account, type RecordPaging } from './account.js';
import type { AccountCommand } from './commands.js';
import type { RecordStore } from './id-table.js';
import { orderView, tradeView } from './views.js';

/**
 * An account that pages its ended orders and closed trades out to disk (id-table.ts) must be the
 * account that keeps them all: the same outcomes, the same views of every order and trade, the
 * same lists, on random sessions of entries with take profits, stop losses and trailing stops,
 * resting orders, cancels, replacements, partial and whole closes, client extensions and expiries,
 * with a window of one record (everything that can page out does), and again when replayed.
 */
const CATALOGUE = buildCatalogue();
const T0: Micros = Date.UTC(2024, 4, 6, 12, 0, 0) * 1000;
const SECOND = 1_000_000;
const ACCOUNT = { id: '101-004-1234567-001', currency: 'USD', balance: '100000' };

/** Records go out as text and come back from it (journal/record-file.ts keeps the texts on disk). */
const textStore = (): RecordStore => {
  const texts = new Map<number, string>();
  return { put: (id, text) => void texts.set(id, text), get: (id) => texts.get(id) };
};
const paging = (window: number): RecordPaging => ({ window, orders: textStore(), trades: textStore() });

type Step =
  | { k: 'quote'; move: number; dt: number }
  | {
      k: 'order';
      type: 'MARKET' | 'LIMIT' | 'STOP';
      sell: boolean;
      units: number;
      offset: number;
      tp: number | null;
      sl: number | null;
      tsl: number | null;
      gtd: boolean;
      ext: boolean;
    }
  | { k: 'cancel'; pick: number; byClient: boolean }
  | { k: 'replace'; pick: number; offset: number }
  | { k: 'closeTrade'; pick: number; half: boolean }
  | { k: 'closePosition'; long: boolean }
  | { k: 'extensions'; pick: number; trade: boolean; tag: string }
  | { k: 'setOrders'; pick: number; tp: number | null };

const pips = fc.integer({ min: 1, max: 40 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ k: fc.constant('quote' as const), move: fc.integer({ min: -30, max: 30 }), dt: fc.constantFrom(1, 60, 7200) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('order' as const),
      type: fc.constantFrom('MARKET' as const, 'LIMIT' as const, 'STOP' as const),
      sell: fc.boolean(),
      units: fc.integer({ min: 1, max: 3000 }),
      offset: fc.integer({ min: -20, max: 20 }),
      tp: fc.option(pips, { nil: null }),
      sl: fc.option(pips, { nil: null }),
      tsl: fc.option(pips, { nil: null, freq: 3 }),
      gtd: fc.boolean(),
      ext: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancel' as const), pick: fc.nat(), byClient: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('replace' as const), pick: fc.nat(), offset: fc.integer({ min: -20, max: 20 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('closeTrade' as const), pick: fc.nat(), half: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closePosition' as const), long: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('extensions' as const),
      pick: fc.nat(),
      trade: fc.boolean(),
      tag: fc.constantFrom('a', 'é', '"x"'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('setOrders' as const), pick: fc.nat(), tp: fc.option(pips, { nil: null }) }) },
);

/** A command for the step, chosen from what `account` (either one: they agree) holds. */
function commandOf(s: Step, account: Account, bid: number, now: Micros, n: number): AccountCommand | undefined {
  const px = (v: number): string => (v / 1e5).toFixed(5);
  const state = account.state;
  const pending = [...state.orders.values()].filter((o) => o.state === 'PENDING');
  const open = [...state.trades.values()].filter((t) => t.state === 'OPEN');
  switch (s.k) {
    case 'order': {
      const dir = s.sell ? -1 : 1;
      const base = bid + s.offset;
      const order: Record<string, unknown> = { type: s.type, instrument: 'EUR_USD', units: String(dir * s.units) };
      if (s.type !== 'MARKET') order['price'] = px(base);
      if (s.type !== 'MARKET' && s.gtd) Object.assign(order, { timeInForce: 'GTD', gtdTime: formatRfc3339(now + 3600 * SECOND) });
      if (s.ext) Object.assign(order, { clientExtensions: { id: `o${n}`, tag: 't' }, tradeClientExtensions: { id: `t${n}` } });
      if (s.tp !== null) order['takeProfitOnFill'] = { price: px(base + dir * (s.tp + 5)) };
      if (s.sl !== null) order['stopLossOnFill'] = { distance: px(s.sl + 5) };
      if (s.tsl !== null) order['trailingStopLossOnFill'] = { distance: px(s.tsl + 5) };
      return { type: 'CREATE_ORDER', order };
    }
    case 'cancel': {
      const order = pending[s.pick % (pending.length + 1)];
      const id = order?.clientExtensions?.id;
      // A pick past the pending ones names an order that may have ended: paged out, in one account.
      return { type: 'CANCEL_ORDER', orderSpecifier: s.byClient && id !== undefined ? `@${id}` : String(order?.id ?? 1 + (s.pick % n)) };
    }
    case 'replace': {
      const order = pending.filter((o) => o.type === 'LIMIT')[s.pick % (pending.length + 1)];
      if (order === undefined) return undefined;
      return {
        type: 'REPLACE_ORDER',
        orderSpecifier: String(order.id),
        order: { type: 'LIMIT', instrument: 'EUR_USD', units: order.create.units, price: px(bid + s.offset) },
      };
    }
    case 'closeTrade': {
      const trade = open[s.pick % (open.length + 1)];
      return { type: 'CLOSE_TRADE', tradeSpecifier: String(trade?.id ?? 1 + (s.pick % n)), ...(s.half ? { units: '1' } : {}) };
    }
    case 'closePosition':
      return { type: 'CLOSE_POSITION', instrument: 'EUR_USD', ...(s.long ? { longUnits: 'ALL' } : { shortUnits: 'ALL' }) };
    case 'extensions':
      if (s.trade) {
        const trade = open[s.pick % (open.length + 1)];
        return {
          type: 'MODIFY_TRADE_CLIENT_EXTENSIONS',
          tradeSpecifier: String(trade?.id ?? 1 + (s.pick % n)),
          clientExtensions: { tag: s.tag },
        };
      }
      return {
        type: 'MODIFY_ORDER_CLIENT_EXTENSIONS',
        orderSpecifier: String(pending[s.pick % (pending.length + 1)]?.id ?? 1 + (s.pick % n)),
        clientExtensions: { comment: s.tag },
      };
    case 'setOrders': {
      const trade = open[s.pick % (open.length + 1)];
      return {
        type: 'SET_TRADE_ORDERS',
        tradeSpecifier: String(trade?.id ?? 1 + (s.pick % n)),
        takeProfit: s.tp === null ? null : { price: px(bid + (trade?.currentUnits.isNegative() === true ? -1 : 1) * (s.tp + 5)) },
      };
    }
    case 'quote':
      return undefined;
  }
}

/** What either account shows of its orders and trades: every view, and the lists v20 serves. */
function shown(account: Account): unknown {
  const state = account.state;
  const ids = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
  const last = state.lastTransactionID;
  // A page as GET …/orders?state=…&count=3&beforeID=… takes it (v3/lists.ts): the newest first.
  const list = <T extends { id: number; state: string }>(items: () => Iterable<T>, st: string, beforeID = Infinity): number[] => {
    const page: number[] = [];
    for (const r of items()) {
      if (r.id < beforeID && (st === 'ALL' || r.state === st)) page.push(r.id);
      if (page.length === 3) break;
    }
    return page;
  };
  return {
    orders: ids(last).map((id) => {
      const o = state.orders.get(id);
      return o === undefined ? null : orderView(state, o);
    }),
    trades: ids(last).map((id) => {
      const t = state.trades.get(id);
      return t === undefined ? null : tradeView(state, t);
    }),
    sizes: [state.orders.size, state.trades.size, state.pendingCount, state.openTradeCount],
    lists: ['ALL', 'FILLED', 'CANCELLED'].map((st) => [
      list(() => state.orders.newestFirst(), st),
      list(() => state.orders.newestFirst(), st, last >> 1),
    ]),
    tradeLists: ['ALL', 'CLOSED'].map((st) => list(() => state.trades.newestFirst(), st)),
  };
}

function play(steps: readonly Step[]): void {
  let now = T0;
  let bid = 110_000;
  const kept = Account.open(ACCOUNT, CATALOGUE, now);
  const paged = Account.open(ACCOUNT, CATALOGUE, now, undefined, undefined, paging(1));
  const quote = (): void => {
    for (const a of [kept, paged]) a.onQuote({ instrument: 'EUR_USD', time: now, bid: bid / 1e5, ask: (bid + 2) / 1e5 });
  };
  quote();
  steps.forEach((s, n) => {
    now += (s.k === 'quote' ? s.dt : 1) * SECOND;
    if (s.k === 'quote') {
      bid += s.move;
      quote();
      return;
    }
    const command = commandOf(s, kept, bid, now, n + 1);
    if (command === undefined) return;
    const a = kept.execute(command, now);
    const b = paged.execute(command, now);
    expect(JSON.stringify(b.response)).toBe(JSON.stringify(a.response));
  });
  expect(paged.log.slice()).toEqual(kept.log.slice());
  expect(shown(paged)).toEqual(shown(kept));
  // Replayed from the journal (no quotes: the price-dependent figures differ from the live
  // account's), with paging and without, the two are the same again.
  const replayedPaged = Account.replay(ACCOUNT, CATALOGUE, kept.log.slice(), undefined, paging(1));
  const replayedKept = Account.replay(ACCOUNT, CATALOGUE, kept.log.slice());
  expect(shown(replayedPaged)).toEqual(shown(replayedKept));
}

describe('an account paging its ended orders and closed trades out', () => {
  it('answers every command and every read as the account that keeps them all', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => play(steps)),
      { numRuns: 150 },
    );
  });
});

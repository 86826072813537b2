import fc from 'fast-check';
import { getNextSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { Decimal, formatAccountUnits, formatUnits } from '../domain/decimal.js';
import { buildCatalogue } from '../domain/instruments.js';
import { formatPriceInt } from '../domain/price.js';
import type { Tick } from '../domain/tick.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import type { OrderFillTransaction, OrderTransaction, Transaction } from '../domain/transactions.js';
import {
  ORDER_EVENT_TYPES,
  ORDER_STATES,
  isTerminal,
  nextOrderState,
  orderMachine,
  type OrderEvent,
  type OrderState,
} from '../orders/lifecycle.js';
import { ORDER_TYPE_RULES, ORDER_TYPES } from '../domain/order-types.js';
import { Account } from './account.js';
import type { AccountCommand } from './commands.js';
import { openTradeRecords, pendingOrderRecords } from './live-records.js';
import { balanceOf, type AccountConfig } from './state.js';
import { plOf, plText } from './realized-pl.js';
import { sideUnits } from './side-sums.js';
import { accountChangesStateView, accountView, orderView, pendingOrders, positionView, tradeView } from './views.js';
import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { TriggerEntry } from '../matching/trigger-heap.js';
import { ReferenceAccount, type RefView } from '../../test/reference-account.js';
import { createEngine } from '../engine/engine.js';
import { MemoryJournal } from '../journal/journal.js';

/**
 * Property tests of the account core. Part 1 runs random quotes and commands against the Account
 * and the naive reference model in test/reference-account.ts (netting, USD, EUR_USD) and compares
 * the book after every step. Part 2 checks invariants over richer random sessions (hedging,
 * USD_JPY, trailing stops, GTD/GFD, replace, position close, transfers): balance and units
 * conservation, fill sizes, absorbing terminal states, ID rules, replay = live, and a
 * byte-identical journal for the same inputs through the engine.
 */
const CATALOGUE = buildCatalogue();
const ACCOUNT_ID = '101-004-7654321-001';
/** Monday 2024-05-06 12:00:00Z. */
const T0: Micros = Date.UTC(2024, 4, 6, 12, 0, 0) * 1000;
const SECOND = 1_000_000;
const HOUR = 3600 * SECOND;
const DEPOSIT = '100000';

// =============================================================================================
// Part 1: model-based test against the naive reference account (netting, USD, EUR_USD only)
// =============================================================================================

type ModelStep =
  | { k: 'quote'; move: number; spread: number; dt: number }
  | { k: 'market'; buy: boolean; units: number; tp: number | null; sl: number | null }
  | { k: 'pending'; type: 'LIMIT' | 'STOP'; buy: boolean; units: number; offset: number; tp: number | null; sl: number | null }
  | { k: 'cancel'; pick: number }
  | { k: 'close'; pick: number; units: number | null };

/** TP/SL offsets in points from the reference price: mostly valid, a few on the wrong side. */
const onFillOffset = fc.option(fc.integer({ min: -5, max: 60 }), { nil: null, freq: 2 });
const units = fc.integer({ min: 1, max: 10_000 });

const modelStep: fc.Arbitrary<ModelStep> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      k: fc.constant('quote' as const),
      move: fc.integer({ min: -25, max: 25 }),
      spread: fc.integer({ min: 1, max: 5 }),
      dt: fc.integer({ min: 0, max: 3 * SECOND }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('market' as const), buy: fc.boolean(), units, tp: onFillOffset, sl: onFillOffset }) },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('pending' as const),
      type: fc.constantFrom('LIMIT' as const, 'STOP' as const),
      buy: fc.boolean(),
      units,
      offset: fc.integer({ min: -40, max: 40 }),
      tp: onFillOffset,
      sl: onFillOffset,
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancel' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('close' as const),
      pick: fc.nat(),
      units: fc.option(fc.integer({ min: 1, max: 12_000 }), { nil: null }),
    }),
  },
);

const p5 = (n: number): string => formatPriceInt(n, 5);

/** The account's book in the reference's terms (what GET account shows, without the valuations). */
function engineView(account: Account): RefView {
  const state = account.state;
  return {
    balance: formatAccountUnits(balanceOf(state)),
    pl: plText(state),
    lastTransactionID: state.lastTransactionID,
    trades: [...state.trades.values()]
      .filter((t) => t.state === 'OPEN')
      .map((t) => ({ id: String(t.id), units: formatUnits(t.currentUnits), price: t.price })),
    pendingOrderIds: pendingOrders(state).map((o) => String(o.id)),
  };
}

/** Runs the steps against both, comparing after each; returns nothing, throws on divergence. */
function runModel(steps: readonly ModelStep[]): Account {
  const account = Account.open({ id: ACCOUNT_ID, currency: 'USD', balance: DEPOSIT }, CATALOGUE, T0);
  const ref = new ReferenceAccount(DEPOSIT);
  let now = T0;
  let bid = 110_000;
  let ask = 110_002;
  const pickId = (ids: readonly number[], pick: number): number => ids[pick % (ids.length + 1)] ?? 999_999;
  expect(engineView(account)).toEqual(ref.view());
  for (const [i, step] of steps.entries()) {
    switch (step.k) {
      case 'quote': {
        now += step.dt;
        bid = Math.max(100_000, bid + step.move);
        ask = bid + step.spread;
        account.onQuote({ instrument: 'EUR_USD', time: now, bid: bid / 100_000, ask: ask / 100_000 });
        ref.quote(p5(bid), p5(ask));
        break;
      }
      case 'market': {
        const base = step.buy ? ask : bid;
        const dir = step.buy ? 1 : -1;
        const req = {
          units: String(dir * step.units),
          ...(step.tp === null ? {} : { takeProfit: p5(base + dir * step.tp) }),
          ...(step.sl === null ? {} : { stopLoss: p5(base - dir * step.sl) }),
        };
        account.execute(
          {
            type: 'CREATE_ORDER',
            order: {
              type: 'MARKET',
              instrument: 'EUR_USD',
              units: req.units,
              ...(req.takeProfit === undefined ? {} : { takeProfitOnFill: { price: req.takeProfit } }),
              ...(req.stopLoss === undefined ? {} : { stopLossOnFill: { price: req.stopLoss } }),
            },
          },
          now,
        );
        ref.marketOrder(req);
        break;
      }
      case 'pending': {
        const price = Math.round((bid + ask) / 2) + step.offset;
        const dir = step.buy ? 1 : -1;
        const req = {
          units: String(dir * step.units),
          price: p5(price),
          ...(step.tp === null ? {} : { takeProfit: p5(price + dir * step.tp) }),
          ...(step.sl === null ? {} : { stopLoss: p5(price - dir * step.sl) }),
        };
        account.execute(
          {
            type: 'CREATE_ORDER',
            order: {
              type: step.type,
              instrument: 'EUR_USD',
              units: req.units,
              price: req.price,
              ...(req.takeProfit === undefined ? {} : { takeProfitOnFill: { price: req.takeProfit } }),
              ...(req.stopLoss === undefined ? {} : { stopLossOnFill: { price: req.stopLoss } }),
            },
          },
          now,
        );
        ref.pendingOrder(step.type, req);
        break;
      }
      case 'cancel': {
        const id = pickId(ref.orderIds, step.pick);
        account.execute({ type: 'CANCEL_ORDER', orderSpecifier: String(id) }, now);
        ref.cancelOrder(id);
        break;
      }
      case 'close': {
        const id = pickId(ref.tradeIds, step.pick);
        const closeUnits = step.units === null ? undefined : String(step.units);
        account.execute(
          { type: 'CLOSE_TRADE', tradeSpecifier: String(id), ...(closeUnits === undefined ? {} : { units: closeUnits }) },
          now,
        );
        ref.closeTrade(id, closeUnits);
        break;
      }
    }
    const actual = engineView(account);
    const expected = ref.view();
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      expect({ step: i, ...actual }).toEqual({ step: i, ...expected });
    }
  }
  return account;
}

describe('Account against the naive reference account (model-based)', () => {
  it('balance, realized P/L, open trades, pending orders and transaction IDs agree after every step', () => {
    fc.assert(
      fc.property(fc.array(modelStep, { minLength: 1, maxLength: 60, size: 'max' }), (steps) => void runModel(steps)),
      { numRuns: 150 },
    );
  });

  it('agrees on a crafted path: marketable limit, TP and SL on fill, FIFO reduction, LINKED_TRADE_CLOSED', () => {
    runModel([
      { k: 'quote', move: 0, spread: 2, dt: SECOND },
      { k: 'pending', type: 'LIMIT', buy: true, units: 100, offset: 5, tp: 20, sl: 20 }, // marketable: fills at the ask
      { k: 'market', buy: true, units: 50, tp: 30, sl: null },
      { k: 'market', buy: false, units: 120, tp: null, sl: null }, // closes 100 (FIFO), reduces the 50 to 30
      { k: 'quote', move: 40, spread: 1, dt: SECOND }, // TP of the remaining trade
      { k: 'pending', type: 'STOP', buy: false, units: 10, offset: -10, tp: -3, sl: 10 }, // TP on the wrong side when it fills
      { k: 'quote', move: -30, spread: 1, dt: SECOND },
    ]);
  });
});

// =============================================================================================
// Part 2: invariants over richer random sessions (hedging, USD_JPY, TSL, GTD/GFD, replace, ...)
// =============================================================================================

interface Market {
  readonly name: 'EUR_USD' | 'USD_JPY';
  readonly precision: number;
  bid: number;
  spread: number;
}

type Inst = 0 | 1;
type UnitsArg = 'ALL' | 'NONE' | number | undefined;

type RichStep =
  | { k: 'quote'; inst: Inst; move: number; spread: number; dt: number }
  | { k: 'advance'; dt: number }
  | {
      k: 'market';
      inst: Inst;
      units: number;
      tif: string | undefined;
      pf: string | undefined;
      tp: number | null;
      sl: number | null;
      slDistance: boolean;
      tsl: number | null;
      bound: number | null;
    }
  | {
      k: 'pending';
      inst: Inst;
      type: 'LIMIT' | 'STOP' | 'MARKET_IF_TOUCHED';
      units: number;
      offset: number;
      tif: string | undefined;
      gtdHours: number;
      trigger: string | undefined;
      pf: string | undefined;
      tp: number | null;
      sl: number | null;
      tsl: number | null;
    }
  | {
      k: 'dependent';
      type: 'TAKE_PROFIT' | 'STOP_LOSS' | 'TRAILING_STOP_LOSS';
      pick: number;
      offset: number;
      tif: string | undefined;
      gtdHours: number;
      distance: boolean;
      trigger: string | undefined;
    }
  | { k: 'cancel'; pick: number }
  | { k: 'replace'; pick: number; offset: number; units: number | null }
  | { k: 'closeTrade'; pick: number; units: number | null }
  | { k: 'closePosition'; inst: Inst; long: UnitsArg; short: UnitsArg }
  | { k: 'transfer'; amount: number }
  | { k: 'setTradeOrders'; pick: number; tp: number | null | undefined; sl: number | null | undefined; tsl: number | null | undefined };

const inst = fc.constantFrom<Inst>(0, 1);
/** Mostly small, sometimes large enough to run into INSUFFICIENT_MARGIN. */
const richUnits = fc
  .oneof(
    { weight: 9, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000_000, max: 5_000_000 }) },
  )
  .chain((u) => fc.boolean().map((buy) => (buy ? u : -u)));
const offsetOrNull = fc.option(fc.integer({ min: -10, max: 80 }), { nil: null, freq: 2 });
const tslDistance = fc.option(fc.integer({ min: 40, max: 200 }), { nil: null, freq: 3 });
const pf = fc.constantFrom(undefined, 'DEFAULT', 'OPEN_ONLY', 'REDUCE_FIRST', 'REDUCE_ONLY');
const tif = (values: readonly (string | undefined)[]): fc.Arbitrary<string | undefined> => fc.constantFrom(...values);
const unitsArg: fc.Arbitrary<UnitsArg> = fc.oneof(
  fc.constantFrom<UnitsArg>('ALL', 'ALL', 'NONE', undefined),
  fc.integer({ min: 1, max: 30_000 }),
);
const setArg = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer({ min: -10, max: 80 }));

const richStep: fc.Arbitrary<RichStep> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      k: fc.constant('quote' as const),
      inst: fc.oneof({ weight: 3, arbitrary: fc.constant<Inst>(0) }, { weight: 2, arbitrary: fc.constant<Inst>(1) }),
      move: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: -30, max: 30 }) },
        { weight: 1, arbitrary: fc.integer({ min: -120, max: 120 }) },
      ),
      spread: fc.integer({ min: 1, max: 6 }),
      dt: fc.integer({ min: 0, max: 5 * SECOND }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('advance' as const), dt: fc.integer({ min: 1, max: 30 * HOUR }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('market' as const),
      inst,
      units: richUnits,
      tif: tif([undefined, 'FOK', 'IOC']),
      pf,
      tp: offsetOrNull,
      sl: offsetOrNull,
      slDistance: fc.boolean(),
      tsl: tslDistance,
      bound: fc.option(fc.integer({ min: -5, max: 20 }), { nil: null, freq: 4 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('pending' as const),
      inst,
      type: fc.constantFrom('LIMIT' as const, 'STOP' as const, 'MARKET_IF_TOUCHED' as const),
      units: richUnits,
      offset: fc.integer({ min: -50, max: 50 }),
      tif: tif([undefined, 'GTC', 'GTD', 'GFD', 'FOK', 'IOC']),
      gtdHours: fc.integer({ min: 0, max: 40 }),
      trigger: fc.constantFrom(undefined, 'DEFAULT', 'INVERSE', 'BID', 'ASK', 'MID'),
      pf,
      tp: offsetOrNull,
      sl: offsetOrNull,
      tsl: tslDistance,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('dependent' as const),
      type: fc.constantFrom('TAKE_PROFIT' as const, 'STOP_LOSS' as const, 'TRAILING_STOP_LOSS' as const),
      pick: fc.nat(),
      offset: fc.integer({ min: -10, max: 150 }),
      tif: tif([undefined, 'GTC', 'GTD', 'GFD']),
      gtdHours: fc.integer({ min: 0, max: 40 }),
      distance: fc.boolean(),
      // MID-watched trailing stops sit half way between grid prices on odd spreads.
      trigger: fc.constantFrom(undefined, undefined, 'MID', 'INVERSE'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancel' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('replace' as const),
      pick: fc.nat(),
      offset: fc.integer({ min: -50, max: 50 }),
      units: fc.option(
        fc.integer({ min: -20_000, max: 20_000 }).filter((u) => u !== 0),
        { nil: null },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('closeTrade' as const),
      pick: fc.nat(),
      units: fc.option(fc.integer({ min: 1, max: 25_000 }), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closePosition' as const), inst, long: unitsArg, short: unitsArg }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('transfer' as const), amount: fc.integer({ min: -50_000, max: 50_000 }).filter((a) => a !== 0) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('setTradeOrders' as const),
      pick: fc.nat(),
      tp: setArg,
      sl: setArg,
      // Under 50 points a trailing stop is refused (minimumTrailingStopDistance): beside a take
      // profit or stop loss in the same request, it tests that a refused request makes no part.
      tsl: fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer({ min: 20, max: 200 })),
    }),
  },
);

interface Session {
  readonly hedging: boolean;
  readonly steps: readonly RichStep[];
}

/** Most sessions quote both instruments first; the rest start with no market (MARKET_HALTED paths). */
const warmUp: readonly RichStep[] = [
  { k: 'quote', inst: 0, move: 0, spread: 2, dt: 0 },
  { k: 'quote', inst: 1, move: 0, spread: 2, dt: 0 },
];

const session: fc.Arbitrary<Session> = fc
  .record({
    hedging: fc.boolean(),
    warm: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    steps: fc.array(richStep, { minLength: 1, maxLength: 60, size: 'max' }),
  })
  .map(({ hedging, warm, steps }) => ({ hedging, steps: warm ? [...warmUp, ...steps] : steps }));

/** Where a session's messages go: an Account directly, or an account of an engine. */
interface Target {
  execute(command: AccountCommand, now: Micros): void;
  quote(tick: Tick): void;
  advance(now: Micros): void;
  /** The account's transactions so far, read before each step: commands pick their order and trade IDs from it. */
  readonly log: readonly Transaction[];
}

function configOf(hedging: boolean, id = ACCOUNT_ID): AccountConfig {
  return { id, currency: 'USD', balance: DEPOSIT, hedgingEnabled: hedging };
}

/** Order IDs (creation transactions) and trade IDs (opening fills) found in a log so far. */
function knownIds(log: readonly Transaction[]): { orders: number[]; trades: number[] } {
  const orders: number[] = [];
  const trades: number[] = [];
  for (const tx of log) {
    if (tx.type.endsWith('_ORDER')) orders.push(Number(tx.id));
    else if (tx.type === 'ORDER_FILL' && tx.tradeOpened !== undefined) trades.push(Number(tx.tradeOpened.tradeID));
  }
  return { orders, trades };
}

function orderTx(log: readonly Transaction[], id: number): OrderTransaction | undefined {
  const tx = log[id - 1];
  return tx !== undefined && tx.type.endsWith('_ORDER') ? (tx as OrderTransaction) : undefined;
}

/**
 * Plays a session. Prices follow a random walk per instrument on the instrument's grid; commands
 * derive their prices from the current quote, and order/trade picks from the log so far.
 * `afterStep` runs after every step.
 */
function play(
  target: Target,
  steps: readonly RichStep[],
  afterStep: (i: number) => void = () => undefined,
): { now: Micros; lastTicks: Tick[] } {
  const markets: Market[] = [
    { name: 'EUR_USD', precision: 5, bid: 110_000, spread: 2 },
    { name: 'USD_JPY', precision: 3, bid: 150_000, spread: 2 },
  ];
  const lastTicks = new Map<string, Tick>();
  let now = T0;
  const price = (m: Market, points: number): string => formatPriceInt(points, m.precision);
  const mid = (m: Market): number => m.bid + Math.floor(m.spread / 2);
  const gtd = (hours: number): string => formatRfc3339(now + hours * HOUR);
  const pick = (ids: readonly number[], n: number): string => String(ids[n % (ids.length + 1)] ?? 999_999);
  for (const [i, step] of steps.entries()) {
    const ids = knownIds(target.log);
    switch (step.k) {
      case 'quote': {
        const m = markets[step.inst] as Market;
        now += step.dt;
        m.bid = Math.max(50_000, m.bid + step.move);
        m.spread = step.spread;
        const tick: Tick = { instrument: m.name, time: now, bid: m.bid / 10 ** m.precision, ask: (m.bid + m.spread) / 10 ** m.precision };
        lastTicks.set(m.name, tick);
        target.quote(tick);
        break;
      }
      case 'advance':
        now += step.dt;
        target.advance(now);
        break;
      case 'market': {
        const m = markets[step.inst] as Market;
        const dir = Math.sign(step.units);
        const ref = dir > 0 ? m.bid + m.spread : m.bid;
        const order: Record<string, unknown> = { type: 'MARKET', instrument: m.name, units: String(step.units) };
        if (step.tif !== undefined) order['timeInForce'] = step.tif;
        if (step.pf !== undefined) order['positionFill'] = step.pf;
        if (step.bound !== null) order['priceBound'] = price(m, ref + dir * step.bound);
        if (step.tp !== null) order['takeProfitOnFill'] = { price: price(m, ref + dir * step.tp) };
        if (step.sl !== null) {
          order['stopLossOnFill'] =
            step.slDistance && step.sl > 0 ? { distance: price(m, step.sl) } : { price: price(m, ref - dir * step.sl) };
        }
        if (step.tsl !== null) order['trailingStopLossOnFill'] = { distance: price(m, step.tsl) };
        target.execute({ type: 'CREATE_ORDER', order }, now);
        break;
      }
      case 'pending': {
        const m = markets[step.inst] as Market;
        const dir = Math.sign(step.units);
        const at = mid(m) + step.offset;
        const order: Record<string, unknown> = { type: step.type, instrument: m.name, units: String(step.units), price: price(m, at) };
        if (step.tif !== undefined) order['timeInForce'] = step.tif;
        if (step.tif === 'GTD') order['gtdTime'] = gtd(step.gtdHours);
        if (step.trigger !== undefined) order['triggerCondition'] = step.trigger;
        if (step.pf !== undefined) order['positionFill'] = step.pf;
        if (step.tp !== null) order['takeProfitOnFill'] = { price: price(m, at + dir * step.tp) };
        if (step.sl !== null)
          order['stopLossOnFill'] = { price: price(m, at - dir * step.sl), timeInForce: 'GTD', gtdTime: gtd(step.gtdHours + 1) };
        if (step.tsl !== null) order['trailingStopLossOnFill'] = { distance: price(m, step.tsl) };
        target.execute({ type: 'CREATE_ORDER', order }, now);
        break;
      }
      case 'dependent': {
        const tradeID = pick(ids.trades, step.pick);
        const opening = target.log[Number(tradeID) - 1] as OrderFillTransaction | undefined;
        const m = markets.find((x) => x.name === opening?.instrument) ?? (markets[0] as Market);
        const long = opening?.tradeOpened !== undefined && !opening.tradeOpened.units.startsWith('-');
        // TP on the winning side, SL on the losing side of the current quote (negative offsets cross at once).
        const closeAt = long ? m.bid : m.bid + m.spread;
        const winning = long ? 1 : -1;
        const order: Record<string, unknown> = { type: step.type, tradeID };
        if (step.type === 'TRAILING_STOP_LOSS' || (step.type === 'STOP_LOSS' && step.distance && step.offset > 0))
          order['distance'] = price(m, step.offset);
        else order['price'] = price(m, closeAt + (step.type === 'TAKE_PROFIT' ? winning : -winning) * step.offset);
        if (step.tif !== undefined) order['timeInForce'] = step.tif;
        if (step.tif === 'GTD') order['gtdTime'] = gtd(step.gtdHours);
        if (step.trigger !== undefined) order['triggerCondition'] = step.trigger;
        target.execute({ type: 'CREATE_ORDER', order }, now);
        break;
      }
      case 'cancel':
        target.execute({ type: 'CANCEL_ORDER', orderSpecifier: pick(ids.orders, step.pick) }, now);
        break;
      case 'replace': {
        const id = pick(ids.orders, step.pick);
        const old = orderTx(target.log, Number(id));
        const type = old === undefined ? 'LIMIT' : old.type.slice(0, -'_ORDER'.length);
        const m =
          markets.find((x) => x.name === old?.instrument) ??
          markets.find((x) => x.name === orderInstrument(target.log, old)) ??
          (markets[0] as Market);
        const order: Record<string, unknown> = { type };
        if (old?.tradeID !== undefined) order['tradeID'] = old.tradeID;
        else {
          order['instrument'] = m.name;
          order['units'] = step.units === null ? (old?.units ?? '100') : String(step.units);
        }
        if (type === 'TRAILING_STOP_LOSS') order['distance'] = price(m, 40 + Math.abs(step.offset));
        else order['price'] = price(m, mid(m) + step.offset);
        target.execute({ type: 'REPLACE_ORDER', orderSpecifier: id, order }, now);
        break;
      }
      case 'closeTrade':
        target.execute(
          {
            type: 'CLOSE_TRADE',
            tradeSpecifier: pick(ids.trades, step.pick),
            ...(step.units === null ? {} : { units: String(step.units) }),
          },
          now,
        );
        break;
      case 'closePosition': {
        const m = markets[step.inst] as Market;
        const arg = (u: UnitsArg): unknown => (typeof u === 'number' ? String(u) : u);
        const command: AccountCommand = { type: 'CLOSE_POSITION', instrument: m.name };
        if (step.long !== undefined) command.longUnits = arg(step.long);
        if (step.short !== undefined) command.shortUnits = arg(step.short);
        target.execute(command, now);
        break;
      }
      case 'transfer':
        target.execute({ type: 'TRANSFER_FUNDS', amount: String(step.amount) }, now);
        break;
      case 'setTradeOrders': {
        const tradeID = pick(ids.trades, step.pick);
        const opening = target.log[Number(tradeID) - 1] as OrderFillTransaction | undefined;
        const m = markets.find((x) => x.name === opening?.instrument) ?? (markets[0] as Market);
        const long = opening?.tradeOpened !== undefined && !opening.tradeOpened.units.startsWith('-');
        const closeAt = long ? m.bid : m.bid + m.spread;
        const winning = long ? 1 : -1;
        const command: AccountCommand = { type: 'SET_TRADE_ORDERS', tradeSpecifier: tradeID };
        if (step.tp !== undefined) command.takeProfit = step.tp === null ? null : { price: price(m, closeAt + winning * step.tp) };
        if (step.sl !== undefined) command.stopLoss = step.sl === null ? null : { price: price(m, closeAt - winning * step.sl) };
        if (step.tsl !== undefined) command.trailingStopLoss = step.tsl === null ? null : { distance: price(m, step.tsl) };
        target.execute(command, now);
        break;
      }
    }
    afterStep(i);
  }
  return { now, lastTicks: [...lastTicks.values()].sort((a, b) => a.time - b.time) };
}

function orderInstrument(log: readonly Transaction[], order: OrderTransaction | undefined): string | undefined {
  if (order?.tradeID === undefined) return order?.instrument;
  const opening = log[Number(order.tradeID) - 1];
  return opening?.type === 'ORDER_FILL' ? opening.instrument : undefined;
}

interface SessionRun {
  readonly account: Account;
  /** Every batch of transactions the account wrote. */
  readonly batches: Transaction[][];
  /** Everything the account wrote to its journal, in order: transactions and records. */
  readonly journal: JournalEntry[];
  readonly now: Micros;
  readonly lastTicks: Tick[];
}

/** A session's target: a bare Account, each command through `execute` (the account's own unless given). */
function accountTarget(account: Account, execute: Target['execute'] = (command, now) => void account.execute(command, now)): Target {
  return {
    execute,
    quote: (tick) => account.onQuote(tick),
    advance: (now) => account.advance(now),
    get log() {
      return account.log.slice();
    },
  };
}

/** A session against a bare Account; every batch and journal entry the account writes is captured. */
function runSession(s: Session, afterStep?: (account: Account, i: number) => void): SessionRun {
  const batches: Transaction[][] = [];
  const journal: JournalEntry[] = [];
  const account = Account.open(configOf(s.hedging), CATALOGUE, T0, (entries) => {
    journal.push(...entries);
    const transactions = entries.filter(isTransaction);
    if (transactions.length > 0) batches.push(transactions);
  });
  const { now, lastTicks } = play(accountTarget(account), s.steps, afterStep === undefined ? undefined : (i) => afterStep(account, i));
  return { account, batches, journal, now, lastTicks };
}

const RUNS = { numRuns: 150 };

/** Everything a client or the engine can see of an account, plus the trigger index, as plain JSON. */
function fullView(account: Account): unknown {
  const state = account.state;
  return JSON.parse(
    JSON.stringify({
      account: accountView(state),
      changes: accountChangesStateView(state),
      orders: [...state.orders.values()].map((o) => orderView(state, o)),
      trades: [...state.trades.values()].map((t) => tradeView(state, t)),
      positions: [...state.positions.values()].map((p) => positionView(state, p)),
      clientOrderIds: [...state.clientOrderIds],
      clientTradeIds: [...state.clientTradeIds],
      pendingCount: state.pendingCount,
      openTradeCount: state.openTradeCount,
      triggers: [...state.prices.keys(), ...state.positions.keys()]
        .filter((x, i, all) => all.indexOf(x) === i)
        .map((instrument) => triggerContents(account, instrument)),
      deadlines: pendingDeadlines(account),
    }),
  );
}

/** The live entries of an instrument's trigger book, in a canonical order. */
function triggerContents(account: Account, instrument: string): unknown {
  const book = account.state.index.peekBook(instrument);
  if (book === undefined) return { instrument, heaps: [], trailing: [] };
  const byKey = (a: TriggerEntry, b: TriggerEntry): number => a.sortKey - b.sortKey || a.seq - b.seq;
  return {
    instrument,
    heaps: book.heaps.map((heap) =>
      heap
        .liveEntries()
        .sort(byKey)
        .map((e) => [e.sortKey, e.seq, e.orderId]),
    ),
    trailing: book.trailing.filter((t) => t.live).map((t) => [t.orderId, t.seq, t.source, t.direction, t.distance2, t.value2]),
    live: book.liveCount(),
  };
}

/** The GTD/GFD deadlines still ahead for pending orders. */
function pendingDeadlines(account: Account): [number, number][] {
  const state = account.state;
  return [...state.orders.values()].filter((o) => o.state === 'PENDING' && o.gtd !== undefined).map((o) => [o.id, o.gtd as number]);
}

function fills(log: readonly Transaction[]): OrderFillTransaction[] {
  return log.filter((tx): tx is OrderFillTransaction => tx.type === 'ORDER_FILL');
}

function dec(s: string | undefined): Decimal {
  return new Decimal(s ?? '0');
}

describe('Account invariants over random sessions', () => {
  it('balance conservation: balance = deposits + Σ fill P/L - commission + financing; each fill moves the balance by its P/L', () => {
    fc.assert(
      fc.property(session, (s) => {
        const { account } = runSession(s);
        let balance = new Decimal(0);
        let transfers = new Decimal(0);
        let fillPL = new Decimal(0);
        let commission = new Decimal(0);
        let financing = new Decimal(0);
        for (const tx of account.log) {
          if (tx.type === 'TRANSFER_FUNDS') {
            transfers = transfers.plus(tx.amount);
            balance = balance.plus(tx.amount);
            expect(tx.accountBalance, `transfer ${tx.id}`).toBe(formatAccountUnits(balance));
          } else if (tx.type === 'ORDER_FILL') {
            const next = balance.plus(tx.pl).minus(tx.commission).plus(tx.financing);
            expect(tx.accountBalance, `fill ${tx.id}`).toBe(formatAccountUnits(next));
            // pl is the sum of the per-trade realized P/L.
            const realized = [...(tx.tradesClosed ?? []), ...(tx.tradeReduced === undefined ? [] : [tx.tradeReduced])].reduce(
              (sum, r) => sum.plus(r.realizedPL),
              new Decimal(0),
            );
            expect(formatAccountUnits(realized), `fill ${tx.id}`).toBe(tx.pl);
            fillPL = fillPL.plus(tx.pl);
            commission = commission.plus(tx.commission);
            financing = financing.plus(tx.financing);
            balance = next;
          } else if (tx.type === 'DAILY_FINANCING') {
            const next = balance.plus(tx.financing);
            expect(tx.accountBalance, `financing ${tx.id}`).toBe(formatAccountUnits(next));
            financing = financing.plus(tx.financing);
            balance = next;
          }
        }
        const first = account.log.find((tx) => tx.type === 'TRANSFER_FUNDS');
        expect(first?.type === 'TRANSFER_FUNDS' ? first.amount : undefined).toBe('100000.0000');
        expect(balanceOf(account.state).toString()).toBe(transfers.plus(fillPL).minus(commission).plus(financing).toString());
        expect(balanceOf(account.state).toString()).toBe(balance.toString());
        expect(plOf(account.state).toString()).toBe(fillPL.toString());
        expect(account.state.commission.toString()).toBe(commission.toString());
        expect(account.state.financing.toString()).toBe(financing.toString());
      }),
      RUNS,
    );
  });

  it('units conservation: positions = Σ open trades per side = Σ fill units; currentUnits = initialUnits - Σ reductions', () => {
    fc.assert(
      fc.property(session, (s) => {
        // Folded incrementally: after every step, only the new transactions are read.
        const filled = new Map<string, Decimal>();
        const reduced = new Map<string, Decimal>();
        let read = 0;
        runSession(s, (account) => {
          const state = account.state;
          const fresh = account.log.slice(read);
          read = account.log.length;
          for (const f of fills(fresh)) {
            filled.set(f.instrument, (filled.get(f.instrument) ?? new Decimal(0)).plus(f.units));
            let sum = f.tradeOpened === undefined ? new Decimal(0) : new Decimal(f.tradeOpened.units);
            for (const r of [...(f.tradesClosed ?? []), ...(f.tradeReduced === undefined ? [] : [f.tradeReduced])]) {
              reduced.set(r.tradeID, (reduced.get(r.tradeID) ?? new Decimal(0)).plus(r.units));
              sum = sum.plus(r.units);
            }
            if (!sum.equals(f.units)) expect.fail(`fill ${f.id}: opened + reduced = ${sum.toString()}, units ${f.units}`);
          }
          for (const trade of state.trades.values()) {
            const expected = trade.initialUnits.plus(reduced.get(String(trade.id)) ?? 0);
            const ok =
              trade.currentUnits.equals(expected) &&
              (trade.state === 'OPEN'
                ? !trade.currentUnits.isZero() && trade.currentUnits.isPositive() === trade.initialUnits.isPositive()
                : trade.currentUnits.isZero());
            if (!ok)
              expect.fail(
                `trade ${trade.id} (${trade.state}): currentUnits ${trade.currentUnits.toString()}, initial - reductions ${expected.toString()}`,
              );
          }
          for (const [instrument, position] of state.positions) {
            let long = new Decimal(0);
            let short = new Decimal(0);
            const longIds: number[] = [];
            const shortIds: number[] = [];
            for (const trade of state.trades.values()) {
              if (trade.instrument !== instrument || trade.state !== 'OPEN') continue;
              if (trade.currentUnits.isPositive()) {
                long = long.plus(trade.currentUnits);
                longIds.push(trade.id);
              } else {
                short = short.plus(trade.currentUnits);
                shortIds.push(trade.id);
              }
            }
            expect(sideUnits(position.long).toString()).toBe(long.toString());
            expect(sideUnits(position.short).toString()).toBe(short.toString());
            expect(position.long.tradeIds).toEqual(longIds);
            expect(position.short.tradeIds).toEqual(shortIds);
            expect(long.plus(short).toString()).toBe((filled.get(instrument) ?? new Decimal(0)).toString());
            if (!state.hedgingEnabled) expect(long.isZero() || short.isZero()).toBe(true);
          }
          for (const [instrument, units] of filled) {
            if (!units.isZero()) expect(state.positions.has(instrument)).toBe(true);
          }
        });
      }),
      RUNS,
    );
  });

  it("fills never exceed the order units (or the trade for TP/SL/TSL), go the order's way, and happen at most once", () => {
    fc.assert(
      fc.property(session, (s) => {
        const { account } = runSession(s);
        const log = account.log.slice();
        const filledOrders = new Set<string>();
        for (const f of fills(log)) {
          expect(filledOrders.has(f.orderID), `order ${f.orderID} filled twice`).toBe(false);
          filledOrders.add(f.orderID);
          const order = orderTx(log, Number(f.orderID));
          if (order === undefined) throw new Error(`fill ${f.id} of unknown order ${f.orderID}`);
          const fillUnits = new Decimal(f.units);
          expect(fillUnits.isZero()).toBe(false);
          if (order.units !== undefined) {
            expect(fillUnits.abs().lessThanOrEqualTo(dec(order.units).abs()), `fill ${f.id}`).toBe(true);
            expect(fillUnits.isPositive()).toBe(dec(order.units).isPositive());
            expect(f.requestedUnits).toBe(order.units);
          } else {
            const opening = log[Number(order.tradeID) - 1] as OrderFillTransaction;
            const tradeUnits = new Decimal(opening.tradeOpened?.units ?? '0');
            expect(fillUnits.abs().lessThanOrEqualTo(tradeUnits.abs())).toBe(true);
            expect(fillUnits.isPositive()).toBe(tradeUnits.isNegative());
            expect(f.tradeOpened).toBeUndefined();
            expect([...(f.tradesClosed ?? [])].map((r) => r.tradeID)).toEqual([order.tradeID]);
          }
          // Fill price: buys at the ask, sells at the bid of the quote recorded with the fill.
          const side = fillUnits.isPositive() ? f.fullPrice.asks[0]?.price : f.fullPrice.bids[0]?.price;
          expect(f.price).toBe(side);
        }
      }),
      RUNS,
    );
  });

  it('terminal states are absorbing: FILLED and CANCELLED orders never change and are never filled or cancelled again', () => {
    fc.assert(
      fc.property(session, (s) => {
        const seen = new Map<number, OrderState>();
        const { account } = runSession(s, (acc) => {
          for (const order of acc.state.orders.values()) {
            const before = seen.get(order.id);
            if (before !== undefined && isTerminal(before) && order.state !== before)
              expect.fail(`order ${order.id} left ${before} for ${order.state}`);
            seen.set(order.id, order.state);
          }
        });
        const states = new Map<string, OrderState>();
        for (const tx of account.log) {
          if (tx.type.endsWith('_ORDER')) states.set(tx.id, 'PENDING');
          else if (tx.type === 'ORDER_FILL' || tx.type === 'ORDER_CANCEL') {
            const state = states.get(tx.orderID);
            expect(state, `${tx.type} ${tx.id} of order ${tx.orderID}`).toBe('PENDING');
            states.set(tx.orderID, tx.type === 'ORDER_FILL' ? 'FILLED' : 'CANCELLED');
          }
        }
        for (const [id, state] of states) {
          const order = account.state.orders.get(Number(id));
          expect(order?.state, `order ${id}`).toBe(state);
        }
      }),
      RUNS,
    );
  });

  it('the compiled lifecycle table equals the xstate machine for every (type, state, event)', () => {
    for (const orderType of ORDER_TYPES) {
      for (const state of ORDER_STATES) {
        const snapshot = orderMachine.resolveState({ value: state, context: { orderType } });
        for (const eventType of ORDER_EVENT_TYPES) {
          const event = { type: eventType } as OrderEvent;
          const next = getNextSnapshot(orderMachine, snapshot, event);
          const expected = snapshot.can(event) ? (next.value as OrderState) : undefined;
          expect(nextOrderState(orderType, state, eventType), `${orderType} ${state} ${eventType}`).toBe(expected);
          if (isTerminal(state)) {
            expect(expected).toBeUndefined();
            expect(next.value).toBe(state);
          }
        }
      }
    }
  });

  it('IDs: consecutive from 1, batchID = first ID of its batch, OrderID = creating transaction, TradeID = opening fill', () => {
    fc.assert(
      fc.property(session, (s) => {
        const { account, batches } = runSession(s);
        const log = account.log.slice();
        expect(batches.flat()).toEqual(log);
        log.forEach((tx, i) => expect(tx.id).toBe(String(i + 1)));
        for (const batch of batches) {
          const first = batch[0] as Transaction;
          for (const tx of batch) expect(tx.batchID).toBe(first.id);
          expect(new Set(batch.map((tx) => tx.time)).size).toBe(1);
        }
        const opened = new Set<string>();
        for (const tx of log) {
          if (tx.type === 'ORDER_FILL' || tx.type === 'ORDER_CANCEL') {
            const order = orderTx(log, Number(tx.orderID));
            expect(order?.id, `${tx.type} ${tx.id}`).toBe(tx.orderID);
            expect(Number(tx.orderID)).toBeLessThan(Number(tx.id));
          }
          if (tx.type === 'ORDER_CANCEL' && tx.replacedByOrderID !== undefined) {
            expect(orderTx(log, Number(tx.replacedByOrderID))?.replacesOrderID).toBe(tx.orderID);
          }
          if (tx.type === 'ORDER_FILL') {
            for (const r of [...(tx.tradesClosed ?? []), ...(tx.tradeReduced === undefined ? [] : [tx.tradeReduced])]) {
              expect(opened.has(r.tradeID), `fill ${tx.id} reduces unknown trade ${r.tradeID}`).toBe(true);
            }
            if (tx.tradeOpened !== undefined) {
              expect(tx.tradeOpened.tradeID).toBe(tx.id);
              opened.add(tx.id);
            }
          }
          if (tx.type.endsWith('_ORDER') && (tx as OrderTransaction).tradeID !== undefined) {
            const tradeID = (tx as OrderTransaction).tradeID as string;
            expect(opened.has(tradeID), `order ${tx.id} for unknown trade ${tradeID}`).toBe(true);
            const orderFill = (tx as OrderTransaction).orderFillTransactionID;
            if (orderFill !== undefined) expect(orderFill).toBe(tradeID);
          }
        }
        expect([...account.state.trades.keys()].map(String)).toEqual([...opened]);
        expect([...account.state.orders.keys()]).toEqual(knownIds(log).orders);
      }),
      RUNS,
    );
  });

  it('the pending-order and open-trade lists equal a scan of every order and trade, oldest first, after every step', () => {
    fc.assert(
      fc.property(session, (s) => {
        runSession(s, (account) => {
          const state = account.state;
          const pending = [...state.orders.values()].filter((o) => o.state === 'PENDING' && ORDER_TYPE_RULES[o.type].trigger !== null);
          expect(pendingOrderRecords(state)).toEqual(pending);
          expect(openTradeRecords(state)).toEqual([...state.trades.values()].filter((t) => t.state === 'OPEN'));
        });
      }),
      RUNS,
    );
  });

  it('a refused command changes nothing: its transactions are rejects, and every order, trade and position is as before', () => {
    // What a reject leaves different: the transaction ID it took (shown in the account and its changes state).
    const withoutLastID = (view: unknown): unknown => {
      const v = view as { account: Record<string, unknown>; changes: Record<string, unknown> };
      return { ...v, account: { ...v.account, lastTransactionID: undefined }, changes: undefined };
    };
    let refused = 0;
    fc.assert(
      fc.property(session, (s) => {
        const account = Account.open(configOf(s.hedging), CATALOGUE, T0, () => undefined);
        const target = accountTarget(account, (command, now) => {
          account.advance(now);
          const before = withoutLastID(fullView(account));
          const outcome = account.execute(command, now);
          if (outcome.reject === undefined) return;
          refused += 1;
          expect(outcome.transactions.map((tx) => tx.type).filter((type) => !type.endsWith('_REJECT'))).toEqual([]);
          expect(withoutLastID(fullView(account)), `${command.type} refused ${outcome.reject.errorCode}`).toEqual(before);
        });
        play(target, s.steps);
      }),
      { numRuns: 60 },
    );
    expect(refused).toBeGreaterThan(0);
  });

  it('replay: folding the JSON round-tripped journal gives the live account, trailing stops and trigger index included', () => {
    fc.assert(
      fc.property(session, (s) => {
        const { account, journal } = runSession(s);
        const lines = journal.map((entry) => JSON.parse(JSON.stringify(entry)) as JournalEntry);
        const replayed = Account.replay(configOf(s.hedging), CATALOGUE, lines);
        // The quotes are the market, not the account: the journal holds none, so the replayed
        // account is shown the live one's latest quotes before the views are compared.
        for (const [instrument, slot] of account.state.prices) replayed.state.prices.set(instrument, { ...slot });
        expect(replayed.log).toEqual(account.log);
        expect(replayed.state.lastTransactionID).toBe(account.state.lastTransactionID);
        expect(fullView(replayed)).toEqual(fullView(account));
      }),
      RUNS,
    );
  });

  it("the journal holds a record only where a trailing stop got a new level, never between a batch's transactions of another order", () => {
    fc.assert(
      fc.property(session, (s) => {
        const { account, journal } = runSession(s);
        expect(journal.filter(isTransaction)).toEqual(account.log.slice());
        const levels = new Map<string, string>();
        for (const entry of journal) {
          if (isTransaction(entry) || entry.type !== 'TRAILING_STOP_VALUE') continue;
          const order = account.state.orders.get(Number(entry.orderID));
          expect(order?.type).toBe('TRAILING_STOP_LOSS');
          expect(levels.get(entry.orderID)).not.toBe(entry.trailingStopValue);
          levels.set(entry.orderID, entry.trailingStopValue);
        }
      }),
      RUNS,
    );
  });
});

describe('determinism through the engine', () => {
  it("the same ticks and commands give a byte-identical journal, equal to the accounts' logs", () => {
    const NETTING = '101-004-1000001-001';
    const HEDGING = '101-004-1000002-001';
    const runEngine = (steps: readonly RichStep[]): { texts: string[]; transactions: string[]; logs: string[] } => {
      const journal = new MemoryJournal();
      const engine = createEngine({ accounts: [configOf(false, NETTING), configOf(true, HEDGING)], start: T0, journal, seed: 7 });
      let request = 0;
      for (const id of [NETTING, HEDGING]) {
        const account = engine.account(id);
        if (account === undefined) throw new Error(`no account ${id}`);
        const target: Target = {
          execute: (command, now) => {
            request += 1;
            engine.execute(id, command, { now: Math.max(now, engine.now), requestID: `r-${request}` });
          },
          quote: (tick) => engine.pushTick({ ...tick, time: Math.max(tick.time, engine.now) }),
          advance: (now) => engine.advanceTo(Math.max(now, engine.now)),
          get log() {
            return account.log.slice();
          },
        };
        play(target, steps);
      }
      const ids = [NETTING, HEDGING];
      const transactionLines = (text: string): string =>
        text
          .split('\n')
          .filter((line) => line !== '' && !line.startsWith('{"type":"TRAILING_STOP_VALUE"'))
          .map((line) => `${line}\n`)
          .join('');
      return {
        texts: ids.map((id) => journal.text(id)),
        // The journal is the log plus the trailing stops' levels.
        transactions: ids.map((id) => transactionLines(journal.text(id))),
        logs: ids.map((id) => (engine.account(id)?.log ?? []).map((tx) => `${JSON.stringify(tx)}\n`).join('')),
      };
    };
    fc.assert(
      fc.property(fc.array(richStep, { minLength: 1, maxLength: 40, size: 'max' }), (steps) => {
        const a = runEngine(steps);
        const b = runEngine(steps);
        expect(b.texts).toEqual(a.texts);
        expect(a.logs).toEqual(a.transactions);
      }),
      { numRuns: 60 },
    );
  });
});

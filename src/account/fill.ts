import { Decimal } from '../domain/decimal.js';
import { consume } from '../domain/liquidity.js';
import { baseCurrency, quoteCurrency, type InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { priceTextToInt } from '../domain/price.js';
import type { OrderCancelTransaction, OrderFillTransaction, OrderTransaction, TradeReduce } from '../domain/transactions.js';
import { fillPriceAt, violatesBound } from '../matching/fill-rules.js';
import type { Batch } from './batch.js';
import { fillAmounts, type FillAmounts, type MarginRate } from './fill/amounts.js';
import { cancelOrder, emitFill, tradeOpen, tradeReduce, type TradeChanges } from './fill/bodies.js';
import { hasMarginFor } from './fill/margin.js';
import { cancelDependents, createOnFillOrders, onFillCancelReason } from './fill/on-fill.js';
import { takeLiquidity, type Liquidity } from './fill/liquidity.js';
import { opensNothing, planFill, reducesNothing, type FillPlan, type FillRequest } from './fill/plan.js';
import { isReissued, reissue, type Reissue } from './fill/reissue.js';
import { instrumentSpec, isTradeableAt, type AccountState, type OrderRecord, type PriceSlot, type TradeRecord } from './state.js';
import { currencyToHome, effectiveMarginRate, effectiveMarginRateText } from './valuation.js';
import { factorTexts } from './home-currency.js';

export { cancelOrder } from './fill/bodies.js';
export type { FillRequest } from './fill/plan.js';
export type { Reissue } from './fill/reissue.js';

export type FillResult =
  | {
      kind: 'filled';
      fill: OrderFillTransaction;
      created: OrderTransaction[];
      cancelled: OrderCancelTransaction[];
      /** Set when the fill took part of a resting order and the rest was reissued (or refused). */
      reissue: Reissue | undefined;
    }
  | { kind: 'cancelled'; cancel: OrderCancelTransaction };

/** The conversion factor of the home currency to itself. */
const HOME = new Decimal(1);

function cancelled(b: Batch, order: OrderRecord, reason: string): FillResult {
  return { kind: 'cancelled', cancel: cancelOrder(b, order, reason) };
}

function marginRateOf(state: AccountState, spec: InstrumentSpec): MarginRate {
  const text = effectiveMarginRateText(state, spec);
  return { text, decimal: effectiveMarginRate(state, spec) };
}

/** Why the plan cannot fill (a v20 ORDER_CANCEL reason), or null when it may. */
function refusal(
  b: Batch,
  req: FillRequest,
  plan: FillPlan,
  fillInt: number,
  spec: InstrumentSpec,
  rate: MarginRate,
  quoteFactor: Decimal,
): string | null {
  // Nothing to reduce and nothing it may open (REDUCE_ONLY, or a close of a side already flat).
  if (reducesNothing(plan) && opensNothing(plan)) return 'POSITION_CLOSEOUT_FAILED';
  if (opensNothing(plan)) return null;
  const state = b.state;
  const order = req.order;
  if (state.openTradeCount >= LIMITS.openTradesPerAccount) return 'OPEN_TRADES_ALLOWED_EXCEEDED';
  const slot = state.prices.get(order.instrument) as NonNullable<ReturnType<typeof state.prices.get>>;
  if (!hasMarginFor(state, plan, slot, order.instrument, spec.displayPrecision, rate, quoteFactor)) return 'INSUFFICIENT_MARGIN';
  return onFillCancelReason(b, order, plan.isBuy, fillInt, slot, spec.displayPrecision);
}

/** The trade parts of the fill: the reductions of the plan with their amounts, and the opening. */
function tradeChanges(b: Batch, order: OrderRecord, plan: FillPlan, a: FillAmounts): TradeChanges & { closed: TradeRecord[] | undefined } {
  let tradesClosed: TradeReduce[] | undefined;
  let tradeReduced: TradeReduce | undefined;
  let closed: TradeRecord[] | undefined;
  for (let i = 0; i < plan.reductions.length; i += 1) {
    const r = plan.reductions[i] as FillPlan['reductions'][number];
    const reduce = tradeReduce(r.trade, a.reductions[i] as FillAmounts['reductions'][number], a.price);
    if (r.closes) {
      (tradesClosed ??= []).push(reduce);
      (closed ??= []).push(r.trade);
    } else {
      tradeReduced = reduce;
    }
  }
  const tradeOpened = a.opening === undefined ? undefined : tradeOpen(order, String(b.nextId), a.opening, a.price);
  return { tradeOpened, tradesClosed, tradeReduced, closed };
}

/** The fill's price and units from the quote's levels, or the cancel reason; null when the side has no levels. */
function liquidityOf(req: FillRequest, plan: FillPlan, slot: PriceSlot, precision: number): Liquidity | string | null {
  const book = slot.book;
  if (book === undefined) return null;
  const side = plan.isBuy ? book.asks : book.bids;
  return side === undefined ? null : takeLiquidity(req, plan, slot, side, precision);
}

/**
 * FOK is all or nothing (facts sheet §3.2): a REDUCE_ONLY order that finds fewer units to reduce
 * than it asks for is cancelled rather than filled in part, as a reduction with nothing to reduce
 * already is (POSITION_CLOSEOUT_FAILED). Closes of a trade or position ask for what is there.
 */
function reducesShort(req: FillRequest, plan: FillPlan): boolean {
  return (
    opensNothing(plan) &&
    req.closeTradeId === undefined &&
    req.closeSide === undefined &&
    req.order.create.timeInForce === 'FOK' &&
    !plan.reduced.equals(req.units.abs())
  );
}

/**
 * Fills an order at the current quote or cancels it with the v20 reason that stops it. Buys take
 * the ask and sells the bid; reductions close the oldest trades first; any remainder opens a trade
 * (margin permitting) with its on-fill TP/SL/TSL orders; trades closed in full take their
 * dependent orders with them (LINKED_TRADE_CLOSED), all in the same batch. A quote with liquidity
 * levels limits the units and sets the price (fill/liquidity.ts); a resting order filled in part
 * is reissued for the rest (fill/reissue.ts).
 *
 * One path: plan (which trades, how many units), checks, amounts (fill/amounts.ts), transactions.
 */
export function fillOrCancel(b: Batch, req: FillRequest): FillResult {
  const state = b.state;
  const order = req.order;
  const spec = instrumentSpec(state, order.instrument);
  const slot = state.prices.get(order.instrument);
  // No live price: none yet, or the market closed since the last one (market-hours.ts).
  if (slot === undefined || !isTradeableAt(slot, b.now)) return cancelled(b, order, 'MARKET_HALTED');
  const quoteIsHome = quoteCurrency(order.instrument) === state.currency;
  const quoteFactor = quoteIsHome ? null : currencyToHome(state, quoteCurrency(order.instrument));
  // The base converts whenever the quote does (through the instrument's own price): checked all the same.
  if ((!quoteIsHome && quoteFactor === null) || factorTexts(state, baseCurrency(order.instrument)) === null)
    return cancelled(b, order, 'MARKET_HALTED');
  const isBuy = req.units.isPositive();
  let fillInt = fillPriceAt(isBuy, slot.bid, slot.ask);
  const precision = spec.displayPrecision;
  const bound = order.create.priceBound;
  if (bound !== undefined && violatesBound(isBuy, fillInt, priceTextToInt(bound, precision)))
    return cancelled(b, order, 'BOUNDS_VIOLATION');

  let plan = planFill(state, req);
  if (reducesShort(req, plan)) return cancelled(b, order, 'POSITION_CLOSEOUT_FAILED');
  const liquidity = liquidityOf(req, plan, slot, precision);
  if (typeof liquidity === 'string') return cancelled(b, order, liquidity);
  if (liquidity !== null) {
    fillInt = liquidity.priceInt;
    if (!liquidity.units.equals(plan.reduced.plus(plan.opening))) plan = planFill(state, req, liquidity.units);
  }
  const rate = marginRateOf(state, spec);
  const reason = refusal(b, req, plan, fillInt, spec, rate, quoteFactor ?? HOME);
  if (reason !== null) return cancelled(b, order, reason);

  const amounts = fillAmounts(state, plan, { fillInt, bid: slot.bid, ask: slot.ask, precision }, quoteFactor, rate, req.units);
  const changes = tradeChanges(b, order, plan, amounts);
  const fill = emitFill(b, req, slot, precision, amounts, changes);
  if (liquidity !== null) consume(liquidity.side, liquidity.walk);
  const cancels: OrderCancelTransaction[] = [];
  if (changes.closed !== undefined) cancelDependents(b, changes.closed, cancels);
  const created: OrderTransaction[] = [];
  if (changes.tradeOpened !== undefined) createOnFillOrders(b, order, state.trades.get(Number(fill.id)) as TradeRecord, precision, created);
  const reissued = liquidity === null ? undefined : reissueRest(b, req, liquidity.units);
  return { kind: 'filled', fill, created, cancelled: cancels, reissue: reissued };
}

/** The reissue of what a partial fill left of a resting order, if it left anything. */
function reissueRest(b: Batch, req: FillRequest, filled: Decimal): Reissue | undefined {
  const asked = req.units.abs();
  if (filled.equals(asked) || !isReissued(req.order)) return undefined;
  const rest = asked.minus(filled);
  return reissue(b, req.order, req.units.isNegative() ? rest.negated() : rest);
}

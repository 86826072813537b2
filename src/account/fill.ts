import { Decimal, ZERO, formatAccountUnits, formatFixed, formatUnits } from '../domain/decimal.js';
import { baseCurrency, quoteCurrency } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { formatPriceInt } from '../domain/price.js';
import { formatRfc3339, parseDateTime } from '../domain/time.js';
import type {
  FillPrice, OrderCancelTransaction, OrderFillTransaction, OrderTransaction, TradeOpen, TradeReduce,
} from '../domain/transactions.js';
import { violatesBound } from '../matching/fill-rules.js';
import type { Batch } from './batch.js';
import { stopLossPriceFromDistance } from './placement.js';
import { instrumentSpec, type AccountState, type OrderRecord, type PriceSlot, type TradeRecord } from './state.js';
import { approxMarginAvailable, currencyToHomeFloat, effectiveMarginRate, factorText, intToDecimal, midDecimal, quoteHomeFactor, valueAccount } from './valuation.js';

/** Unlimited top-of-book liquidity is shown as one bucket of this size. */
const SHOWN_LIQUIDITY = 10_000_000;

export interface FillRequest {
  readonly order: OrderRecord;
  /** Signed units asked for: positive buys. */
  readonly units: Decimal;
  readonly reason: string;
  /** Close exactly this trade (TP/SL/TSL, trade close). */
  readonly closeTradeId?: number;
  /** Close this side of the position, oldest trade first (position closeout). */
  readonly closeSide?: 'long' | 'short';
  readonly positionFill: string;
  readonly clientOrderID?: string;
}

export type FillResult =
  | { kind: 'filled'; fill: OrderFillTransaction; created: OrderTransaction[]; cancelled: OrderCancelTransaction[] }
  | { kind: 'cancelled'; cancel: OrderCancelTransaction };

export function cancelOrder(b: Batch, order: OrderRecord, reason: string, extra: { clientOrderID?: string; replacedByOrderID?: string } = {}): OrderCancelTransaction {
  const body: Record<string, unknown> = { type: 'ORDER_CANCEL', orderID: String(order.id) };
  if (extra.clientOrderID !== undefined) body['clientOrderID'] = extra.clientOrderID;
  body['reason'] = reason;
  if (extra.replacedByOrderID !== undefined) body['replacedByOrderID'] = extra.replacedByOrderID;
  return b.emit<OrderCancelTransaction>(body as never);
}

function formatFactor(d: Decimal): string {
  return d.equals(1) ? '1' : d.toFixed(8);
}

interface Reduction {
  readonly trade: TradeRecord;
  /** Absolute units taken off the trade. */
  readonly units: Decimal;
}

/** DEFAULT means REDUCE_FIRST on netting accounts and OPEN_ONLY on hedging ones. */
function resolvePositionFill(positionFill: string, hedging: boolean): string {
  if (positionFill === 'DEFAULT') return hedging ? 'OPEN_ONLY' : 'REDUCE_FIRST';
  // A netting account cannot hold both sides, so OPEN_ONLY reduces first there.
  if (positionFill === 'OPEN_ONLY' && !hedging) return 'REDUCE_FIRST';
  return positionFill;
}

function planReductions(b: Batch, req: FillRequest, isBuy: boolean): { reductions: Reduction[]; opening: Decimal } {
  const state = b.state;
  let remaining = req.units.abs();
  const reductions: Reduction[] = [];
  const take = (trade: TradeRecord): void => {
    if (remaining.isZero() || trade.state !== 'OPEN') return;
    const available = trade.currentUnits.abs();
    const units = Decimal.min(available, remaining);
    reductions.push({ trade, units });
    remaining = remaining.minus(units);
  };
  if (req.closeTradeId !== undefined) {
    const trade = state.trades.get(req.closeTradeId);
    if (trade !== undefined) take(trade);
    return { reductions, opening: ZERO };
  }
  // Look up, never create: deciding must not touch state (a cancelled fill would leave a position replay lacks).
  const position = state.positions.get(req.order.instrument);
  if (req.closeSide !== undefined) {
    const side = req.closeSide === 'long' ? position?.long : position?.short;
    for (const id of side?.tradeIds ?? []) take(state.trades.get(id) as TradeRecord);
    return { reductions, opening: ZERO };
  }
  const mode = resolvePositionFill(req.positionFill, state.hedgingEnabled);
  if (mode !== 'OPEN_ONLY') {
    const opposite = isBuy ? position?.short : position?.long;
    for (const id of opposite?.tradeIds ?? []) take(state.trades.get(id) as TradeRecord);
  }
  return { reductions, opening: mode === 'REDUCE_ONLY' ? ZERO : remaining };
}

function wouldCrossNow(isLongTrade: boolean, kind: 'TP' | 'SL', priceInt: number, slot: PriceSlot): boolean {
  // The dependent order closes the trade: a long trade's TP/SL sell at the bid, a short's buy at the ask.
  if (isLongTrade) return kind === 'TP' ? slot.bid >= priceInt : slot.bid <= priceInt;
  return kind === 'TP' ? slot.ask <= priceInt : slot.ask >= priceInt;
}

/** Checks the on-fill orders an opening fill would create; a failing one cancels the whole entry. */
function onFillCancelReason(b: Batch, order: OrderRecord, isBuy: boolean, fillInt: number, slot: PriceSlot, precision: number): string | null {
  const tx = order.create;
  const state = b.state;
  const scale = 10 ** precision;
  const gtdPassed = (details: { timeInForce?: string; gtdTime?: string }): boolean => {
    if (details.timeInForce !== 'GTD' || details.gtdTime === undefined) return false;
    const t = parseDateTime(details.gtdTime);
    return t !== null && t <= b.now;
  };
  const clientIdTaken = (details: { clientExtensions?: { id?: string } }): boolean => {
    const id = details.clientExtensions?.id;
    return id !== undefined && state.clientOrderIds.has(id);
  };
  if (tx.takeProfitOnFill !== undefined) {
    const d = tx.takeProfitOnFill;
    if (gtdPassed(d)) return 'TAKE_PROFIT_ON_FILL_GTD_TIMESTAMP_IN_PAST';
    if (clientIdTaken(d)) return 'TAKE_PROFIT_ON_FILL_CLIENT_ORDER_ID_ALREADY_EXISTS';
    if (wouldCrossNow(isBuy, 'TP', Math.round(Number(d.price) * scale), slot)) return 'TAKE_PROFIT_ON_FILL_LOSS';
  }
  if (tx.stopLossOnFill !== undefined) {
    const d = tx.stopLossOnFill;
    if (gtdPassed(d)) return 'STOP_LOSS_ON_FILL_GTD_TIMESTAMP_IN_PAST';
    if (clientIdTaken(d)) return 'STOP_LOSS_ON_FILL_CLIENT_ORDER_ID_ALREADY_EXISTS';
    const priceInt = d.price !== undefined
      ? Math.round(Number(d.price) * scale)
      : isBuy ? fillInt - Math.round(Number(d.distance) * scale) : fillInt + Math.round(Number(d.distance) * scale);
    if (wouldCrossNow(isBuy, 'SL', priceInt, slot)) return 'STOP_LOSS_ON_FILL_LOSS';
  }
  if (tx.trailingStopLossOnFill !== undefined) {
    const d = tx.trailingStopLossOnFill;
    if (gtdPassed(d)) return 'TRAILING_STOP_LOSS_ON_FILL_GTD_TIMESTAMP_IN_PAST';
    if (clientIdTaken(d)) return 'TRAILING_STOP_LOSS_ON_FILL_CLIENT_ORDER_ID_ALREADY_EXISTS';
  }
  const tradeId = order.tradeClientExtensions?.id;
  if (tradeId !== undefined && state.clientTradeIds.has(tradeId)) return 'CLIENT_TRADE_ID_ALREADY_EXISTS';
  return null;
}

/**
 * Whether the account can carry the opening units: margin available (after the units this fill
 * releases) covers their initial margin. The exact Decimal valuation costs a pass over every
 * position, so a float estimate answers first and only a near-boundary case is computed exactly.
 */
function hasMarginFor(state: AccountState, opening: Decimal, reduced: Decimal, perUnitFloat: number, mid: Decimal, factor: Decimal, rate: Decimal, initialMargin: Decimal): boolean {
  const approx = approxMarginAvailable(state);
  if (!Number.isNaN(approx) && !Number.isNaN(perUnitFloat)) {
    const openingFloat = opening.toNumber();
    const slack = approx + reduced.toNumber() * perUnitFloat - openingFloat * perUnitFloat;
    const tolerance = 1e-6 * (Math.abs(state.balanceFloat) + Math.abs(approx) + openingFloat * perUnitFloat) + 0.01;
    if (slack > tolerance) return true;
    if (slack < -tolerance) return false;
  }
  const released = reduced.times(mid).times(factor).times(rate);
  return !valueAccount(state).marginAvailable.plus(released).lessThan(initialMargin);
}

/**
 * Fills an order at the current quote or cancels it with the v20 reason that stops it. Buys take
 * the ask and sells the bid; reductions close the oldest trades first; any remainder opens a trade
 * (margin permitting) with its on-fill TP/SL/TSL orders; trades closed in full take their
 * dependent orders with them (LINKED_TRADE_CLOSED), all in the same batch.
 */
export function fillOrCancel(b: Batch, req: FillRequest): FillResult {
  const state = b.state;
  const order = req.order;
  const spec = instrumentSpec(state, order.instrument);
  const precision = spec.displayPrecision;
  const slot = state.prices.get(order.instrument);
  const cancelled = (reason: string): FillResult => ({ kind: 'cancelled', cancel: cancelOrder(b, order, reason) });
  if (slot === undefined || !slot.known) return cancelled('MARKET_HALTED');
  const quoteFactor = quoteHomeFactor(state, order.instrument);
  const baseFactorText = factorText(state, baseCurrency(order.instrument));
  if (quoteFactor === null || baseFactorText === null) return cancelled('MARKET_HALTED');
  const isBuy = req.units.isPositive();
  const fillInt = isBuy ? slot.ask : slot.bid;
  const bound = order.create.priceBound;
  if (bound !== undefined && violatesBound(isBuy, fillInt, Math.round(Number(bound) * 10 ** precision))) return cancelled('BOUNDS_VIOLATION');

  const { reductions, opening } = planReductions(b, req, isBuy);
  const reducedUnits = reductions.reduce((sum, r) => sum.plus(r.units), ZERO);
  if (reducedUnits.isZero() && opening.isZero()) {
    // Nothing to reduce and nothing it may open (REDUCE_ONLY, or a close of a side already flat).
    return cancelled('POSITION_CLOSEOUT_FAILED');
  }
  const price = intToDecimal(fillInt, precision);
  const mid = midDecimal(slot, precision);
  const rate = effectiveMarginRate(state, spec);
  let initialMargin = ZERO;
  if (!opening.isZero()) {
    if (state.openTradeCount >= LIMITS.openTradesPerAccount) return cancelled('OPEN_TRADES_ALLOWED_EXCEEDED');
    initialMargin = opening.times(mid).times(quoteFactor).times(rate);
    const perUnitFloat = ((slot.bid + slot.ask) / (2 * slot.scale)) * currencyToHomeFloat(state, quoteCurrency(order.instrument)) * rate.toNumber();
    if (!hasMarginFor(state, opening, reducedUnits, perUnitFloat, mid, quoteFactor, rate, initialMargin)) return cancelled('INSUFFICIENT_MARGIN');
    const onFill = onFillCancelReason(b, order, isBuy, fillInt, slot, precision);
    if (onFill !== null) return cancelled(onFill);
  }

  const sign = isBuy ? 1 : -1;
  const priceStr = formatPriceInt(fillInt, precision);
  // |fill − mid| from the integer quote: |2·fill − (bid + ask)| / (2·scale)
  const spreadPerUnit = new Decimal(Math.abs(2 * fillInt - (slot.bid + slot.ask))).dividedBy(2 * slot.scale).times(quoteFactor);
  let pl = ZERO;
  let quotePL = ZERO;
  const closedTrades: TradeReduce[] = [];
  let reducedTrade: TradeReduce | undefined;
  const closedRecords: TradeRecord[] = [];
  for (const r of reductions) {
    const longTrade = r.trade.currentUnits.isPositive();
    const perUnit = longTrade ? price.minus(r.trade.priceDecimal) : r.trade.priceDecimal.minus(price);
    const tradeQuotePL = perUnit.times(r.units);
    const realized = new Decimal(formatAccountUnits(tradeQuotePL.times(quoteFactor)));
    pl = pl.plus(realized);
    quotePL = quotePL.plus(tradeQuotePL);
    const reduce: TradeReduce = {
      tradeID: String(r.trade.id),
      ...(r.trade.clientExtensions?.id !== undefined ? { clientTradeID: r.trade.clientExtensions.id } : {}),
      units: formatUnits(r.units.times(sign)),
      price: priceStr,
      realizedPL: formatAccountUnits(realized),
      financing: '0.0000',
      baseFinancing: '0.00000000000000',
      guaranteedExecutionFee: '0.0000',
      quoteGuaranteedExecutionFee: '0',
      halfSpreadCost: formatAccountUnits(spreadPerUnit.times(r.units)),
    };
    if (r.units.equals(r.trade.currentUnits.abs())) {
      closedTrades.push(reduce);
      closedRecords.push(r.trade);
    } else {
      reducedTrade = reduce;
    }
  }
  const filledUnits = reducedUnits.plus(opening).times(sign);
  const fillId = String(b.nextId);
  let tradeOpened: TradeOpen | undefined;
  if (!opening.isZero()) {
    tradeOpened = {
      tradeID: fillId,
      units: formatUnits(opening.times(sign)),
      price: priceStr,
      guaranteedExecutionFee: '0.0000',
      quoteGuaranteedExecutionFee: '0',
      halfSpreadCost: formatAccountUnits(spreadPerUnit.times(opening)),
      initialMarginRequired: formatAccountUnits(initialMargin),
    };
    if (order.tradeClientExtensions !== undefined) tradeOpened.clientExtensions = order.tradeClientExtensions;
  }
  const fullPrice: FillPrice = {
    closeoutBid: formatPriceInt(slot.closeoutBid, precision),
    closeoutAsk: formatPriceInt(slot.closeoutAsk, precision),
    timestamp: formatRfc3339(slot.time),
    bids: [{ price: formatPriceInt(slot.bid, precision), liquidity: SHOWN_LIQUIDITY }],
    asks: [{ price: formatPriceInt(slot.ask, precision), liquidity: SHOWN_LIQUIDITY }],
  };
  const quoteFactorStr = formatFactor(quoteFactor);
  const body: Record<string, unknown> = { type: 'ORDER_FILL', orderID: String(order.id) };
  const clientOrderID = req.clientOrderID ?? order.clientExtensions?.id;
  if (clientOrderID !== undefined) body['clientOrderID'] = clientOrderID;
  Object.assign(body, {
    instrument: order.instrument,
    units: formatUnits(filledUnits),
    requestedUnits: formatUnits(req.units),
    price: priceStr,
    fullVWAP: priceStr,
    fullPrice,
    reason: req.reason,
    pl: reductions.length === 0 ? '0.0000' : formatAccountUnits(pl),
    quotePL: formatFixed(quotePL, precision),
    financing: '0.0000',
    baseFinancing: '0.00000000000000',
    commission: '0.0000',
    guaranteedExecutionFee: '0.0000',
    quoteGuaranteedExecutionFee: '0',
    accountBalance: pl.isZero() ? state.balanceText : formatAccountUnits(state.balance.plus(pl)),
    gainQuoteHomeConversionFactor: quoteFactorStr,
    lossQuoteHomeConversionFactor: quoteFactorStr,
    homeConversionFactors: {
      gainQuoteHome: { factor: quoteFactorStr },
      lossQuoteHome: { factor: quoteFactorStr },
      gainBaseHome: { factor: baseFactorText },
      lossBaseHome: { factor: baseFactorText },
    },
  });
  if (tradeOpened !== undefined) body['tradeOpened'] = tradeOpened;
  if (closedTrades.length > 0) body['tradesClosed'] = closedTrades;
  if (reducedTrade !== undefined) body['tradeReduced'] = reducedTrade;
  body['halfSpreadCost'] = formatAccountUnits(spreadPerUnit.times(filledUnits.abs()));
  const fill = b.emit<OrderFillTransaction>(body as never);

  const cancels: OrderCancelTransaction[] = [];
  for (const trade of closedRecords) {
    for (const dependentId of [trade.takeProfitOrderID, trade.stopLossOrderID, trade.trailingStopLossOrderID]) {
      if (dependentId === undefined) continue;
      const dependent = state.orders.get(dependentId);
      if (dependent !== undefined && dependent.state === 'PENDING') cancels.push(cancelOrder(b, dependent, 'LINKED_TRADE_CLOSED'));
    }
  }
  const created: OrderTransaction[] = [];
  if (tradeOpened !== undefined) {
    const trade = state.trades.get(Number(fillId)) as TradeRecord;
    created.push(...createOnFillOrders(b, order, trade, precision));
  }
  return { kind: 'filled', fill, created, cancelled: cancels };
}

function createOnFillOrders(b: Batch, entry: OrderRecord, trade: TradeRecord, precision: number): OrderTransaction[] {
  const tx = entry.create;
  const out: OrderTransaction[] = [];
  const tradeID = String(trade.id);
  const common = (details: { timeInForce?: string; gtdTime?: string; clientExtensions?: object }): Record<string, unknown> => {
    const c: Record<string, unknown> = { timeInForce: details.timeInForce ?? 'GTC' };
    if (details.gtdTime !== undefined) c['gtdTime'] = details.gtdTime;
    c['triggerCondition'] = 'DEFAULT';
    c['reason'] = 'ON_FILL';
    if (details.clientExtensions !== undefined) c['clientExtensions'] = details.clientExtensions;
    c['orderFillTransactionID'] = tradeID;
    return c;
  };
  if (tx.takeProfitOnFill !== undefined) {
    const d = tx.takeProfitOnFill;
    out.push(b.emit<OrderTransaction>({ type: 'TAKE_PROFIT_ORDER', tradeID, price: d.price, ...common(d) } as never));
  }
  if (tx.stopLossOnFill !== undefined) {
    const d = tx.stopLossOnFill;
    const price = d.price ?? stopLossPriceFromDistance(trade, d.distance as string, precision);
    const sl: Record<string, unknown> = { type: 'STOP_LOSS_ORDER', tradeID, price };
    if (d.distance !== undefined) sl['distance'] = d.distance;
    out.push(b.emit<OrderTransaction>({ ...sl, ...common(d) } as never));
  }
  if (tx.trailingStopLossOnFill !== undefined) {
    const d = tx.trailingStopLossOnFill;
    out.push(b.emit<OrderTransaction>({ type: 'TRAILING_STOP_LOSS_ORDER', tradeID, distance: d.distance, ...common(d) } as never));
  }
  return out;
}

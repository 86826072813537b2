import { Decimal, ZERO, formatAccountUnits, formatFixed, formatUnits } from '../domain/decimal.js';
import { baseCurrency, quoteCurrency, type InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { formatPriceInt, parsePriceInt, priceTextToInt } from '../domain/price.js';
import { divRoundHalfUp, formatScaled, fractionDigits, parseScaled, pow10 } from '../domain/scaled-int.js';
import { formatRfc3339, parseDateTime } from '../domain/time.js';
import { jsonMember, jsonString } from '../domain/transaction-json.js';
import type {
  ClientExtensions, FillPrice, HomeConversionFactors, OrderCancelTransaction, PriceBucket, OrderFillTransaction, OrderTransaction, TradeOpen, TradeReduce,
} from '../domain/transactions.js';
import { fillPriceAt, orderCrossedAt, violatesBound } from '../matching/fill-rules.js';
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
  /**
   * `units` as a safe whole number, when the caller has it at hand (NaN: not whole or too large).
   * Absent, the fill derives it from `units` when it needs it.
   */
  readonly unitsInt?: number;
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

let integerFills = true;

/**
 * Whether fills may take the integer route (on by default). Tests turn it off to check that both
 * routes write the same transactions; the output never depends on it.
 */
export function useIntegerFills(enabled: boolean): void {
  integerFills = enabled;
}

const NO_EXTRA: { clientOrderID?: string; replacedByOrderID?: string } = {};

function cancelJson(body: Record<string, unknown>, orderID: string): string {
  return `{"type":"ORDER_CANCEL","orderID":"${orderID}"${jsonMember('clientOrderID', body['clientOrderID'])}${jsonMember('reason', body['reason'])}${jsonMember('replacedByOrderID', body['replacedByOrderID'])}`;
}

export function cancelOrder(b: Batch, order: OrderRecord, reason: string, extra: { clientOrderID?: string; replacedByOrderID?: string } = NO_EXTRA): OrderCancelTransaction {
  const orderID = String(order.id);
  const body: Record<string, unknown> = { type: 'ORDER_CANCEL', orderID };
  if (extra.clientOrderID !== undefined) body['clientOrderID'] = extra.clientOrderID;
  body['reason'] = reason;
  if (extra.replacedByOrderID !== undefined) body['replacedByOrderID'] = extra.replacedByOrderID;
  return b.emit<OrderCancelTransaction>(body as never, lineOf(cancelJson, body, orderID));
}

function cancelled(b: Batch, order: OrderRecord, reason: string): FillResult {
  return { kind: 'cancelled', cancel: cancelOrder(b, order, reason) };
}

function formatFactor(d: Decimal): string {
  return d.equals(1) ? '1' : d.toFixed(8);
}

/** DEFAULT means REDUCE_FIRST on netting accounts and OPEN_ONLY on hedging ones. */
function resolvePositionFill(positionFill: string, hedging: boolean): string {
  if (positionFill === 'DEFAULT') return hedging ? 'OPEN_ONLY' : 'REDUCE_FIRST';
  // A netting account cannot hold both sides, so OPEN_ONLY reduces first there.
  if (positionFill === 'OPEN_ONLY' && !hedging) return 'REDUCE_FIRST';
  return positionFill;
}

/** Where a fill looks for trades to reduce; one scratch object, refilled by reducibleTrades. */
interface ReductionPlan {
  /** Open trade IDs of the side to reduce, oldest first (unless `single`). */
  trades: readonly number[];
  /** Exactly this trade (a trade close, TP/SL/TSL). */
  single: TradeRecord | undefined;
  /** Whether units left over may open a trade. */
  opens: boolean;
}

const PLAN: ReductionPlan = { trades: [], single: undefined, opens: false };

/**
 * The open trades a fill may reduce, oldest first, before taking `remaining` units off them.
 * Looks up, never creates: deciding must not touch state (a cancelled fill would leave a position
 * replay lacks). Returns the shared scratch plan: read it before the next fill decides.
 */
function reducibleTrades(state: AccountState, req: FillRequest, isBuy: boolean): ReductionPlan {
  const plan = PLAN;
  plan.trades = NO_TRADES;
  plan.single = undefined;
  plan.opens = false;
  if (req.closeTradeId !== undefined) {
    plan.single = state.trades.get(req.closeTradeId);
    return plan;
  }
  const position = state.positions.get(req.order.instrument);
  if (req.closeSide !== undefined) {
    const side = req.closeSide === 'long' ? position?.long : position?.short;
    plan.trades = side?.tradeIds ?? NO_TRADES;
    return plan;
  }
  const mode = resolvePositionFill(req.positionFill, state.hedgingEnabled);
  const opposite = mode === 'OPEN_ONLY' ? undefined : isBuy ? position?.short : position?.long;
  plan.trades = opposite?.tradeIds ?? NO_TRADES;
  plan.opens = mode !== 'REDUCE_ONLY';
  return plan;
}

const NO_TRADES: readonly number[] = [];

/** Whether a trade's dependent order would fire at once: it closes the trade, so it sells a long. */
function wouldCrossNow(isLongTrade: boolean, type: 'TAKE_PROFIT' | 'STOP_LOSS', priceInt: number, slot: PriceSlot): boolean {
  return orderCrossedAt(type, !isLongTrade, priceInt, slot.bid, slot.ask);
}

function gtdPassed(b: Batch, details: { timeInForce?: string; gtdTime?: string }): boolean {
  if (details.timeInForce !== 'GTD' || details.gtdTime === undefined) return false;
  const t = parseDateTime(details.gtdTime);
  return t !== null && t <= b.now;
}

function clientIdTaken(state: AccountState, details: { clientExtensions?: ClientExtensions }): boolean {
  const id = details.clientExtensions?.id;
  return id !== undefined && state.clientOrderIds.has(id);
}

/** Checks the on-fill orders an opening fill would create; a failing one cancels the whole entry. */
function onFillCancelReason(b: Batch, order: OrderRecord, isBuy: boolean, fillInt: number, slot: PriceSlot, precision: number): string | null {
  const tx = order.create;
  const state = b.state;
  if (tx.takeProfitOnFill !== undefined) {
    const d = tx.takeProfitOnFill;
    if (gtdPassed(b, d)) return 'TAKE_PROFIT_ON_FILL_GTD_TIMESTAMP_IN_PAST';
    if (clientIdTaken(state, d)) return 'TAKE_PROFIT_ON_FILL_CLIENT_ORDER_ID_ALREADY_EXISTS';
    if (wouldCrossNow(isBuy, 'TAKE_PROFIT', priceTextToInt(d.price, precision), slot)) return 'TAKE_PROFIT_ON_FILL_LOSS';
  }
  if (tx.stopLossOnFill !== undefined) {
    const d = tx.stopLossOnFill;
    if (gtdPassed(b, d)) return 'STOP_LOSS_ON_FILL_GTD_TIMESTAMP_IN_PAST';
    if (clientIdTaken(state, d)) return 'STOP_LOSS_ON_FILL_CLIENT_ORDER_ID_ALREADY_EXISTS';
    const priceInt = d.price !== undefined
      ? priceTextToInt(d.price, precision)
      : isBuy ? fillInt - priceTextToInt(d.distance as string, precision) : fillInt + priceTextToInt(d.distance as string, precision);
    if (wouldCrossNow(isBuy, 'STOP_LOSS', priceInt, slot)) return 'STOP_LOSS_ON_FILL_LOSS';
  }
  if (tx.trailingStopLossOnFill !== undefined) {
    const d = tx.trailingStopLossOnFill;
    if (gtdPassed(b, d)) return 'TRAILING_STOP_LOSS_ON_FILL_GTD_TIMESTAMP_IN_PAST';
    if (clientIdTaken(state, d)) return 'TRAILING_STOP_LOSS_ON_FILL_CLIENT_ORDER_ID_ALREADY_EXISTS';
  }
  const tradeId = order.tradeClientExtensions?.id;
  if (tradeId !== undefined && state.clientTradeIds.has(tradeId)) return 'CLIENT_TRADE_ID_ALREADY_EXISTS';
  return null;
}

/**
 * The quick half of the margin check: whether margin available (after the units this fill
 * releases) covers the opening units' initial margin, from float shadows of the book. 1 or -1
 * when the answer is clear, 0 when the case is near the boundary and must be computed exactly.
 */
function marginPrecheck(state: AccountState, openingFloat: number, reducedFloat: number, perUnitFloat: number): number {
  const approx = approxMarginAvailable(state);
  if (Number.isNaN(approx) || Number.isNaN(perUnitFloat)) return 0;
  const slack = approx + reducedFloat * perUnitFloat - openingFloat * perUnitFloat;
  const tolerance = 1e-6 * (Math.abs(state.balanceFloat) + Math.abs(approx) + openingFloat * perUnitFloat) + 0.01;
  if (slack > tolerance) return 1;
  if (slack < -tolerance) return -1;
  return 0;
}

/** The exact half: the Decimal valuation of the whole account (a pass over every position). */
function hasMarginExactly(state: AccountState, reduced: Decimal, mid: Decimal, factor: Decimal, rate: Decimal, initialMargin: Decimal): boolean {
  const released = reduced.times(mid).times(factor).times(rate);
  return !valueAccount(state).marginAvailable.plus(released).lessThan(initialMargin);
}

function perUnitMarginFloat(state: AccountState, slot: PriceSlot, instrument: string, rateFloat: number): number {
  return ((slot.bid + slot.ask) / (2 * slot.scale)) * currencyToHomeFloat(state, quoteCurrency(instrument)) * rateFloat;
}

/**
 * Fills an order at the current quote or cancels it with the v20 reason that stops it. Buys take
 * the ask and sells the bid; reductions close the oldest trades first; any remainder opens a trade
 * (margin permitting) with its on-fill TP/SL/TSL orders; trades closed in full take their
 * dependent orders with them (LINKED_TRADE_CLOSED), all in the same batch.
 *
 * Two routes give the same transactions: whole units in an instrument quoted in the account
 * currency are computed on safe integers (fillWhole); anything else, or any product that would
 * leave the safe integers, goes through decimal.js (fillDecimal).
 */
export function fillOrCancel(b: Batch, req: FillRequest): FillResult {
  const state = b.state;
  const order = req.order;
  const spec = instrumentSpec(state, order.instrument);
  const slot = state.prices.get(order.instrument);
  if (slot === undefined || !slot.known) return cancelled(b, order, 'MARKET_HALTED');
  const quoteIsHome = quoteCurrency(order.instrument) === state.currency;
  const quoteFactor = quoteIsHome ? null : quoteHomeFactor(state, order.instrument);
  const baseFactorText = factorText(state, baseCurrency(order.instrument));
  if ((!quoteIsHome && quoteFactor === null) || baseFactorText === null) return cancelled(b, order, 'MARKET_HALTED');
  const isBuy = req.units.isPositive();
  const fillInt = fillPriceAt(isBuy, slot.bid, slot.ask);
  const bound = order.create.priceBound;
  if (bound !== undefined && violatesBound(isBuy, fillInt, priceTextToInt(bound, spec.displayPrecision))) return cancelled(b, order, 'BOUNDS_VIOLATION');
  if (quoteIsHome && integerFills) {
    const result = fillWhole(b, req, spec, slot, isBuy, fillInt, baseFactorText);
    if (result !== null) return result;
  }
  return fillDecimal(b, req, spec, slot, isBuy, fillInt, quoteFactor ?? (quoteHomeFactor(state, order.instrument) as Decimal), baseFactorText);
}

// ---------------------------------------------------------------------------------------------
// The integer route

/** A safe whole number of a Decimal, or NaN. */
function wholeOf(d: Decimal): number {
  if (!d.isInteger()) return Number.NaN;
  const n = d.toNumber();
  return Number.isSafeInteger(n) ? n : Number.NaN;
}

interface RateParts {
  /** The rate as numerator / 10^decimals. */
  readonly numerator: number;
  readonly decimals: number;
}

const RATE_PARTS = new Map<string, RateParts | null>();
/** Distinct margin-rate strings kept parsed (instrument and configured rates: a handful). */
const RATE_PARTS_MAX = 1024;

function rateParts(text: string): RateParts | null {
  let parts = RATE_PARTS.get(text);
  if (parts === undefined) {
    const decimals = fractionDigits(text);
    const numerator = decimals <= 15 ? parseScaled(text, decimals) : null;
    parts = numerator === null || numerator <= 0 ? null : { numerator, decimals };
    if (RATE_PARTS.size >= RATE_PARTS_MAX) RATE_PARTS.clear();
    RATE_PARTS.set(text, parts);
  }
  return parts;
}

/** The text of the stricter of the instrument's and the account's margin rate (effectiveMarginRate). */
function effectiveRateText(state: AccountState, spec: InstrumentSpec): string {
  if (state.marginRate === undefined) return spec.marginRate;
  const rate = effectiveMarginRate(state, spec);
  return rate.equals(spec.marginRate) ? spec.marginRate : state.marginRate;
}

/** round(n × 10^(4 − decimals)) when n counts 10^-decimals: an amount at account precision (4). */
function toAccountUnits(n: number, decimals: number): number {
  return decimals >= 4 ? divRoundHalfUp(n, pow10(decimals - 4)) : n * pow10(4 - decimals);
}

/** u × num / den rounded to 4 decimals, where the value is u × num / (den × 10^decimals); NaN if unsafe. */
function scaledRound4(product: number, decimals: number, den: number): number {
  if (!Number.isSafeInteger(product)) return Number.NaN;
  if (decimals >= 4) return divRoundHalfUp(product, den * pow10(decimals - 4));
  const up = product * pow10(4 - decimals);
  return Number.isSafeInteger(up) ? divRoundHalfUp(up, den) : Number.NaN;
}

function fillWhole(b: Batch, req: FillRequest, spec: InstrumentSpec, slot: PriceSlot, isBuy: boolean, fillInt: number, baseFactorText: string): FillResult | null {
  const state = b.state;
  const order = req.order;
  const precision = spec.displayPrecision;
  const requested = req.unitsInt !== undefined && !Number.isNaN(req.unitsInt) ? req.unitsInt : wholeOf(req.units);
  if (!Number.isSafeInteger(requested) || requested === 0) return null;

  // Reductions, oldest trade first, on whole units.
  const plan = reducibleTrades(state, req, isBuy);
  let remaining = Math.abs(requested);
  let reducedTrades: TradeRecord[] | undefined;
  let reducedUnits: number[] | undefined;
  let reducedTotal = 0;
  const ids = plan.single !== undefined ? undefined : plan.trades;
  const count = plan.single !== undefined ? 1 : plan.trades.length;
  for (let i = 0; i < count && remaining !== 0; i += 1) {
    const trade = plan.single ?? (state.trades.get((ids as readonly number[])[i] as number) as TradeRecord);
    if (trade.state !== 'OPEN') continue;
    const available = Math.abs(trade.unitsInt);
    if (!Number.isSafeInteger(available)) return null;
    const units = available < remaining ? available : remaining;
    (reducedTrades ??= []).push(trade);
    (reducedUnits ??= []).push(units);
    reducedTotal += units;
    remaining -= units;
  }
  const opening = plan.opens ? remaining : 0;
  if (reducedTotal === 0 && opening === 0) return cancelled(b, order, 'POSITION_CLOSEOUT_FAILED');

  // Everything the transaction prints, on integers; any unsafe step hands over to decimal.js
  // before anything is emitted.
  const sum2 = slot.bid + slot.ask;
  const spread2 = Math.abs(2 * fillInt - sum2); // |fill − mid| × 2 × 10^precision
  const filledAbs = reducedTotal + opening;
  const halfSpreadTotal = scaledRound4(filledAbs * spread2, precision, 2);
  if (Number.isNaN(halfSpreadTotal)) return null;
  const rateText = effectiveRateText(state, spec);
  let margin4 = 0;
  if (opening !== 0) {
    const rate = rateParts(rateText);
    if (rate === null) return null;
    // opening × mid × rate = opening × sum2 × numerator / (2 × 10^(precision + rate decimals))
    margin4 = scaledRound4(opening * sum2 * rate.numerator, precision + rate.decimals, 2);
    if (Number.isNaN(margin4)) return null;
  }
  let quotePLPoints = 0;
  let pl4 = 0;
  let realized: number[] | undefined;
  if (reducedTrades !== undefined) {
    realized = [];
    for (let i = 0; i < reducedTrades.length; i += 1) {
      const trade = reducedTrades[i] as TradeRecord;
      const open = parsePriceInt(trade.price, precision);
      if (open === null) return null;
      const perUnit = trade.unitsInt > 0 ? fillInt - open : open - fillInt;
      const points = perUnit * ((reducedUnits as number[])[i] as number);
      if (!Number.isSafeInteger(points)) return null;
      const r = toAccountUnits(points, precision);
      if (!Number.isSafeInteger(r)) return null;
      realized.push(r);
      quotePLPoints += points;
      pl4 += r;
    }
    if (!Number.isSafeInteger(quotePLPoints) || !Number.isSafeInteger(pl4)) return null;
  }
  let balanceText = state.balanceText;
  if (pl4 !== 0) {
    const balance4 = parseScaled(state.balanceText, 4);
    if (balance4 === null || !Number.isSafeInteger(balance4 + pl4)) return null;
    balanceText = formatScaled(balance4 + pl4, 4);
  }

  if (opening !== 0) {
    if (state.openTradeCount >= LIMITS.openTradesPerAccount) return cancelled(b, order, 'OPEN_TRADES_ALLOWED_EXCEEDED');
    const perUnitFloat = perUnitMarginFloat(state, slot, order.instrument, Number(rateText));
    const quick = marginPrecheck(state, opening, reducedTotal, perUnitFloat);
    if (quick < 0 || (quick === 0 && !hasMarginExactly(state, new Decimal(reducedTotal), midDecimal(slot, precision), ONE, effectiveMarginRate(state, spec),
      new Decimal(opening).times(midDecimal(slot, precision)).times(effectiveMarginRate(state, spec))))) {
      return cancelled(b, order, 'INSUFFICIENT_MARGIN');
    }
    const onFill = onFillCancelReason(b, order, isBuy, fillInt, slot, precision);
    if (onFill !== null) return cancelled(b, order, onFill);
  }

  const sign = isBuy ? 1 : -1;
  const priceStr = formatPriceInt(fillInt, precision);
  let closedTrades: TradeReduce[] | undefined;
  let reducedTrade: TradeReduce | undefined;
  let closedRecords: TradeRecord[] | undefined;
  if (reducedTrades !== undefined) {
    for (let i = 0; i < reducedTrades.length; i += 1) {
      const trade = reducedTrades[i] as TradeRecord;
      const units = (reducedUnits as number[])[i] as number;
      const reduce = tradeReduce(trade, String(units * sign), priceStr, formatScaled((realized as number[])[i] as number, 4),
        formatScaled(scaledRound4(units * spread2, precision, 2), 4));
      if (units === Math.abs(trade.unitsInt)) {
        (closedTrades ??= []).push(reduce);
        (closedRecords ??= []).push(trade);
      } else {
        reducedTrade = reduce;
      }
    }
  }
  let tradeOpened: TradeOpen | undefined;
  if (opening !== 0) {
    tradeOpened = tradeOpen(order, String(b.nextId), String(opening * sign), priceStr,
      formatScaled(scaledRound4(opening * spread2, precision, 2), 4), formatScaled(margin4, 4));
  }
  const fill = emitFill(b, order, req, String(filledAbs * sign), String(requested), priceStr, fillPrice(slot, precision),
    reducedTrades === undefined ? '0.0000' : formatScaled(pl4, 4), formatScaled(quotePLPoints, precision), balanceText, '1', baseFactorText,
    tradeOpened, closedTrades, reducedTrade, formatScaled(halfSpreadTotal, 4));
  return afterFill(b, order, fill, closedRecords, tradeOpened !== undefined, precision);
}

const ONE = new Decimal(1);

// ---------------------------------------------------------------------------------------------
// The decimal.js route

interface Reduction {
  readonly trade: TradeRecord;
  /** Absolute units taken off the trade. */
  readonly units: Decimal;
}

function planReductions(b: Batch, req: FillRequest, isBuy: boolean): { reductions: Reduction[]; opening: Decimal } {
  const state = b.state;
  const plan = reducibleTrades(state, req, isBuy);
  let remaining = req.units.abs();
  const reductions: Reduction[] = [];
  const count = plan.single !== undefined ? 1 : plan.trades.length;
  for (let i = 0; i < count && !remaining.isZero(); i += 1) {
    const trade = plan.single ?? (state.trades.get(plan.trades[i] as number) as TradeRecord);
    if (trade.state !== 'OPEN') continue;
    const units = Decimal.min(trade.currentUnits.abs(), remaining);
    reductions.push({ trade, units });
    remaining = remaining.minus(units);
  }
  return { reductions, opening: plan.opens ? remaining : ZERO };
}

function fillDecimal(b: Batch, req: FillRequest, spec: InstrumentSpec, slot: PriceSlot, isBuy: boolean, fillInt: number, quoteFactor: Decimal, baseFactorText: string): FillResult {
  const state = b.state;
  const order = req.order;
  const precision = spec.displayPrecision;
  const { reductions, opening } = planReductions(b, req, isBuy);
  let reducedUnits = ZERO;
  for (const r of reductions) reducedUnits = reducedUnits.plus(r.units);
  if (reducedUnits.isZero() && opening.isZero()) {
    // Nothing to reduce and nothing it may open (REDUCE_ONLY, or a close of a side already flat).
    return cancelled(b, order, 'POSITION_CLOSEOUT_FAILED');
  }
  const price = intToDecimal(fillInt, precision);
  const mid = midDecimal(slot, precision);
  const rate = effectiveMarginRate(state, spec);
  let initialMargin = ZERO;
  if (!opening.isZero()) {
    if (state.openTradeCount >= LIMITS.openTradesPerAccount) return cancelled(b, order, 'OPEN_TRADES_ALLOWED_EXCEEDED');
    initialMargin = opening.times(mid).times(quoteFactor).times(rate);
    const perUnitFloat = perUnitMarginFloat(state, slot, order.instrument, rate.toNumber());
    const quick = marginPrecheck(state, opening.toNumber(), reducedUnits.toNumber(), perUnitFloat);
    if (quick < 0 || (quick === 0 && !hasMarginExactly(state, reducedUnits, mid, quoteFactor, rate, initialMargin))) return cancelled(b, order, 'INSUFFICIENT_MARGIN');
    const onFill = onFillCancelReason(b, order, isBuy, fillInt, slot, precision);
    if (onFill !== null) return cancelled(b, order, onFill);
  }

  const sign = isBuy ? 1 : -1;
  const priceStr = formatPriceInt(fillInt, precision);
  // |fill − mid| from the integer quote: |2·fill − (bid + ask)| / (2·scale)
  const spreadPerUnit = new Decimal(Math.abs(2 * fillInt - (slot.bid + slot.ask))).dividedBy(2 * slot.scale).times(quoteFactor);
  let pl = ZERO;
  let quotePL = ZERO;
  let closedTrades: TradeReduce[] | undefined;
  let reducedTrade: TradeReduce | undefined;
  let closedRecords: TradeRecord[] | undefined;
  for (const r of reductions) {
    const longTrade = r.trade.currentUnits.isPositive();
    const perUnit = longTrade ? price.minus(r.trade.priceDecimal) : r.trade.priceDecimal.minus(price);
    const tradeQuotePL = perUnit.times(r.units);
    const realized = new Decimal(formatAccountUnits(tradeQuotePL.times(quoteFactor)));
    pl = pl.plus(realized);
    quotePL = quotePL.plus(tradeQuotePL);
    const reduce = tradeReduce(r.trade, formatUnits(r.units.times(sign)), priceStr, formatAccountUnits(realized), formatAccountUnits(spreadPerUnit.times(r.units)));
    if (r.units.equals(r.trade.currentUnits.abs())) {
      (closedTrades ??= []).push(reduce);
      (closedRecords ??= []).push(r.trade);
    } else {
      reducedTrade = reduce;
    }
  }
  const filledUnits = reducedUnits.plus(opening).times(sign);
  let tradeOpened: TradeOpen | undefined;
  if (!opening.isZero()) {
    tradeOpened = tradeOpen(order, String(b.nextId), formatUnits(opening.times(sign)), priceStr,
      formatAccountUnits(spreadPerUnit.times(opening)), formatAccountUnits(initialMargin));
  }
  const quoteFactorStr = formatFactor(quoteFactor);
  const fill = emitFill(b, order, req, formatUnits(filledUnits), formatUnits(req.units), priceStr, fillPrice(slot, precision),
    reductions.length === 0 ? '0.0000' : formatAccountUnits(pl), formatFixed(quotePL, precision),
    pl.isZero() ? state.balanceText : formatAccountUnits(state.balance.plus(pl)), quoteFactorStr, baseFactorText,
    tradeOpened, closedTrades, reducedTrade, formatAccountUnits(spreadPerUnit.times(filledUnits.abs())));
  return afterFill(b, order, fill, closedRecords, tradeOpened !== undefined, precision);
}

// ---------------------------------------------------------------------------------------------
// The transactions, built the same way by both routes. Each is one object literal (plus the
// optional fields in v20 order), so every fill of a shape shares one hidden class and stays in
// fast mode: a body grown field by field through Object.assign ends up a dictionary, which costs
// on every later read and in JSON.stringify. Beside each object the same fields are written as
// its JSON line (domain/transaction-json.ts): strings this file formatted from numbers are
// quoted as they are; anything that came from a client or a transaction goes through
// jsonString/jsonValue, which escape exactly as JSON.stringify does.

/**
 * Runs a line template. A client object JSON cannot print (cyclic, too deep, a BigInt) makes it
 * throw: then no line is kept, and the journal's own JSON.stringify meets the same error where it
 * always did, after the batch.
 */
function lineOf<A, B>(template: (a: A, b: B) => string, a: A, b: B): string | undefined {
  try {
    return template(a, b);
  } catch {
    return undefined;
  }
}


function tradeReduce(trade: TradeRecord, units: string, price: string, realizedPL: string, halfSpreadCost: string): TradeReduce {
  const clientTradeID = trade.clientExtensions?.id;
  if (clientTradeID === undefined) {
    return {
      tradeID: String(trade.id), units, price, realizedPL, financing: '0.0000', baseFinancing: '0.00000000000000',
      guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', halfSpreadCost,
    };
  }
  return {
    tradeID: String(trade.id), clientTradeID, units, price, realizedPL, financing: '0.0000', baseFinancing: '0.00000000000000',
    guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', halfSpreadCost,
  };
}

function tradeReduceJson(r: TradeReduce): string {
  return `{"tradeID":"${r.tradeID}"${jsonMember('clientTradeID', r.clientTradeID)},"units":"${r.units}","price":"${r.price}","realizedPL":"${r.realizedPL}","financing":"0.0000","baseFinancing":"0.00000000000000","guaranteedExecutionFee":"0.0000","quoteGuaranteedExecutionFee":"0","halfSpreadCost":"${r.halfSpreadCost}"}`;
}

function tradeOpen(order: OrderRecord, tradeID: string, units: string, price: string, halfSpreadCost: string, initialMarginRequired: string): TradeOpen {
  const opened: TradeOpen = {
    tradeID, units, price, guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', halfSpreadCost, initialMarginRequired,
  };
  if (order.tradeClientExtensions !== undefined) opened.clientExtensions = order.tradeClientExtensions;
  return opened;
}

function tradeOpenJson(t: TradeOpen): string {
  return `{"tradeID":"${t.tradeID}","units":"${t.units}","price":"${t.price}","guaranteedExecutionFee":"0.0000","quoteGuaranteedExecutionFee":"0","halfSpreadCost":"${t.halfSpreadCost}","initialMarginRequired":"${t.initialMarginRequired}"${jsonMember('clientExtensions', t.clientExtensions)}}`;
}

/**
 * The quote a fill took, as v20 prints it. Every fill of one quote prints the same object, so
 * consecutive fills at an unchanged quote share it (transactions are never changed once written).
 */
let lastQuote: {
  slot: PriceSlot; time: number; bid: number; ask: number; closeoutBid: number; closeoutAsk: number; precision: number; price: FillPrice; json: string;
} | undefined;

function fillPrice(slot: PriceSlot, precision: number): { price: FillPrice; json: string } {
  const last = lastQuote;
  if (last !== undefined && last.slot === slot && last.time === slot.time && last.bid === slot.bid && last.ask === slot.ask
    && last.closeoutBid === slot.closeoutBid && last.closeoutAsk === slot.closeoutAsk && last.precision === precision) {
    return last;
  }
  const price: FillPrice = {
    closeoutBid: formatPriceInt(slot.closeoutBid, precision),
    closeoutAsk: formatPriceInt(slot.closeoutAsk, precision),
    timestamp: formatRfc3339(slot.time),
    bids: [{ price: formatPriceInt(slot.bid, precision), liquidity: SHOWN_LIQUIDITY }],
    asks: [{ price: formatPriceInt(slot.ask, precision), liquidity: SHOWN_LIQUIDITY }],
  };
  const json = `{"closeoutBid":"${price.closeoutBid}","closeoutAsk":"${price.closeoutAsk}","timestamp":"${price.timestamp}","bids":[{"price":"${(price.bids[0] as PriceBucket).price}","liquidity":${SHOWN_LIQUIDITY}}],"asks":[{"price":"${(price.asks[0] as PriceBucket).price}","liquidity":${SHOWN_LIQUIDITY}}]}`;
  lastQuote = { slot, time: slot.time, bid: slot.bid, ask: slot.ask, closeoutBid: slot.closeoutBid, closeoutAsk: slot.closeoutAsk, precision, price, json };
  return lastQuote;
}

let lastFactors: { quote: string; base: string; factors: HomeConversionFactors; json: string } | undefined;

/** The four conversion factors of a fill; shared by consecutive fills with the same factors. */
function conversionFactors(quote: string, base: string): { factors: HomeConversionFactors; json: string } {
  const last = lastFactors;
  if (last !== undefined && last.quote === quote && last.base === base) return last;
  const factors: HomeConversionFactors = {
    gainQuoteHome: { factor: quote },
    lossQuoteHome: { factor: quote },
    gainBaseHome: { factor: base },
    lossBaseHome: { factor: base },
  };
  const json = `{"gainQuoteHome":{"factor":"${quote}"},"lossQuoteHome":{"factor":"${quote}"},"gainBaseHome":{"factor":"${base}"},"lossBaseHome":{"factor":"${base}"}}`;
  lastFactors = { quote, base, factors, json };
  return lastFactors;
}

function emitFill(
  b: Batch, order: OrderRecord, req: FillRequest, units: string, requestedUnits: string, price: string, quote: { price: FillPrice; json: string },
  pl: string, quotePL: string, accountBalance: string, quoteFactor: string, baseFactor: string,
  tradeOpened: TradeOpen | undefined, tradesClosed: TradeReduce[] | undefined, tradeReduced: TradeReduce | undefined, halfSpreadCost: string,
): OrderFillTransaction {
  const orderID = String(order.id);
  const clientOrderID = req.clientOrderID ?? order.clientExtensions?.id;
  const factors = conversionFactors(quoteFactor, baseFactor);
  const homeConversionFactors = factors.factors;
  const fullPrice = quote.price;
  const body: Record<string, unknown> = clientOrderID === undefined
    ? {
      type: 'ORDER_FILL', orderID, instrument: order.instrument, units, requestedUnits, price, fullVWAP: price, fullPrice,
      reason: req.reason, pl, quotePL, financing: '0.0000', baseFinancing: '0.00000000000000', commission: '0.0000',
      guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', accountBalance,
      gainQuoteHomeConversionFactor: quoteFactor, lossQuoteHomeConversionFactor: quoteFactor, homeConversionFactors,
    }
    : {
      type: 'ORDER_FILL', orderID, clientOrderID, instrument: order.instrument, units, requestedUnits, price, fullVWAP: price, fullPrice,
      reason: req.reason, pl, quotePL, financing: '0.0000', baseFinancing: '0.00000000000000', commission: '0.0000',
      guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', accountBalance,
      gainQuoteHomeConversionFactor: quoteFactor, lossQuoteHomeConversionFactor: quoteFactor, homeConversionFactors,
    };
  if (tradeOpened !== undefined) body['tradeOpened'] = tradeOpened;
  if (tradesClosed !== undefined) body['tradesClosed'] = tradesClosed;
  if (tradeReduced !== undefined) body['tradeReduced'] = tradeReduced;
  body['halfSpreadCost'] = halfSpreadCost;
  const json = lineOf(fillJson, body as unknown as OrderFillTransaction, { quote: quote.json, factors: factors.json });
  return b.emit<OrderFillTransaction>(body as never, json);
}

/** The fill's JSON line without the header (emitFill's object, member by member). */
function fillJson(tx: OrderFillTransaction, nested: { quote: string; factors: string }): string {
  let json = `{"type":"ORDER_FILL","orderID":"${tx.orderID}"${jsonMember('clientOrderID', tx.clientOrderID)},"instrument":${jsonString(tx.instrument)},"units":"${tx.units}","requestedUnits":"${tx.requestedUnits}","price":"${tx.price}","fullVWAP":"${tx.fullVWAP}","fullPrice":${nested.quote},"reason":${jsonString(tx.reason)},"pl":"${tx.pl}","quotePL":"${tx.quotePL}","financing":"0.0000","baseFinancing":"0.00000000000000","commission":"0.0000","guaranteedExecutionFee":"0.0000","quoteGuaranteedExecutionFee":"0","accountBalance":${jsonString(tx.accountBalance)},"gainQuoteHomeConversionFactor":"${tx.gainQuoteHomeConversionFactor}","lossQuoteHomeConversionFactor":"${tx.lossQuoteHomeConversionFactor}","homeConversionFactors":${nested.factors}`;
  if (tx.tradeOpened !== undefined) json += `,"tradeOpened":${tradeOpenJson(tx.tradeOpened)}`;
  const closed = tx.tradesClosed;
  if (closed !== undefined) {
    let list = '';
    for (let i = 0; i < closed.length; i += 1) list += i === 0 ? tradeReduceJson(closed[i] as TradeReduce) : `,${tradeReduceJson(closed[i] as TradeReduce)}`;
    json += `,"tradesClosed":[${list}]`;
  }
  if (tx.tradeReduced !== undefined) json += `,"tradeReduced":${tradeReduceJson(tx.tradeReduced)}`;
  return `${json},"halfSpreadCost":"${tx.halfSpreadCost}"`;
}

/** The rest of a fill's batch: dependents of closed trades cancelled, on-fill orders created. */
function afterFill(b: Batch, order: OrderRecord, fill: OrderFillTransaction, closedRecords: readonly TradeRecord[] | undefined, opened: boolean, precision: number): FillResult {
  const state = b.state;
  const cancels: OrderCancelTransaction[] = [];
  if (closedRecords !== undefined) {
    for (const trade of closedRecords) {
      cancelDependent(b, state, trade.takeProfitOrderID, cancels);
      cancelDependent(b, state, trade.stopLossOrderID, cancels);
      cancelDependent(b, state, trade.trailingStopLossOrderID, cancels);
    }
  }
  const created: OrderTransaction[] = [];
  if (opened) {
    const trade = state.trades.get(Number(fill.id)) as TradeRecord;
    createOnFillOrders(b, order, trade, precision, created);
  }
  return { kind: 'filled', fill, created, cancelled: cancels };
}

function cancelDependent(b: Batch, state: AccountState, dependentId: number | undefined, out: OrderCancelTransaction[]): void {
  if (dependentId === undefined) return;
  const dependent = state.orders.get(dependentId);
  if (dependent !== undefined && dependent.state === 'PENDING') out.push(cancelOrder(b, dependent, 'LINKED_TRADE_CLOSED'));
}

type OnFillDetails = { timeInForce?: string; gtdTime?: string; clientExtensions?: object };

/** timeInForce .. orderFillTransactionID of an on-fill order, in v20 order, onto `o`. */
function onFillCommon(o: Record<string, unknown>, details: OnFillDetails, tradeID: string): Record<string, unknown> {
  o['timeInForce'] = details.timeInForce ?? 'GTC';
  if (details.gtdTime !== undefined) o['gtdTime'] = details.gtdTime;
  o['triggerCondition'] = 'DEFAULT';
  o['reason'] = 'ON_FILL';
  if (details.clientExtensions !== undefined) o['clientExtensions'] = details.clientExtensions;
  o['orderFillTransactionID'] = tradeID;
  return o;
}

/** An on-fill order's JSON line without the header: createOnFillOrders' object, member by member. */
function onFillJson(o: Record<string, unknown>, tradeID: string): string {
  return `{"type":"${o['type'] as string}","tradeID":"${tradeID}"${jsonMember('price', o['price'])}${jsonMember('distance', o['distance'])}${jsonMember('timeInForce', o['timeInForce'])}${jsonMember('gtdTime', o['gtdTime'])},"triggerCondition":"DEFAULT","reason":"ON_FILL"${jsonMember('clientExtensions', o['clientExtensions'])},"orderFillTransactionID":"${tradeID}"`;
}

function createOnFillOrders(b: Batch, entry: OrderRecord, trade: TradeRecord, precision: number, out: OrderTransaction[]): void {
  const tx = entry.create;
  const tradeID = String(trade.id);
  if (tx.takeProfitOnFill !== undefined) {
    const d = tx.takeProfitOnFill;
    const tp = onFillCommon({ type: 'TAKE_PROFIT_ORDER', tradeID, price: d.price }, d, tradeID);
    out.push(b.emit<OrderTransaction>(tp as never, lineOf(onFillJson, tp, tradeID)));
  }
  if (tx.stopLossOnFill !== undefined) {
    const d = tx.stopLossOnFill;
    const price = d.price ?? stopLossPriceFromDistance(trade, d.distance as string, precision);
    const sl: Record<string, unknown> = { type: 'STOP_LOSS_ORDER', tradeID, price };
    if (d.distance !== undefined) sl['distance'] = d.distance;
    onFillCommon(sl, d, tradeID);
    out.push(b.emit<OrderTransaction>(sl as never, lineOf(onFillJson, sl, tradeID)));
  }
  if (tx.trailingStopLossOnFill !== undefined) {
    const d = tx.trailingStopLossOnFill;
    const tsl = onFillCommon({ type: 'TRAILING_STOP_LOSS_ORDER', tradeID, distance: d.distance }, d, tradeID);
    out.push(b.emit<OrderTransaction>(tsl as never, lineOf(onFillJson, tsl, tradeID)));
  }
}

/**
 * Where a pending order rests in the trigger index: derived only from its creation transaction, the
 * trade it is attached to and (trailing stops) the levels the journal recorded, so replaying the
 * journal rebuilds the same index.
 */
import { Decimal } from '../domain/decimal.js';
import { formatPriceInt, parsePriceInt, priceTextToInt } from '../domain/price.js';
import { parseScaled } from '../domain/scaled-int.js';
import { ORDER_TYPE_RULES, type DependentOrderType, type TriggerCondition } from '../domain/order-types.js';
import { Direction, distanceBasePrice, quoteCrosses, restingSource, triggerDirection } from '../matching/fill-rules.js';
import { threshold2Of } from '../matching/trigger-index.js';
import type { AccountState, OrderRecord, PriceSlot, TradeRecord } from './state.js';
import { instrumentSpec, tradePriceDecimal } from './state.js';

/** The trade's slot holding its dependent order of each type (one of each per trade). */
export const TRADE_SLOT = {
  TAKE_PROFIT: 'takeProfitOrderID',
  STOP_LOSS: 'stopLossOrderID',
  TRAILING_STOP_LOSS: 'trailingStopLossOrderID',
} as const satisfies Record<DependentOrderType, keyof TradeRecord>;

/** A price of an order (checked when the order was created) on the instrument's integer grid. */
function priceToInt(state: AccountState, instrument: string, price: string): number {
  return priceTextToInt(price, instrumentSpec(state, instrument).displayPrecision);
}

/** A stop loss on fill given by distance sits that far from the trade's open price, on the losing side (StopLossDetails.distance). */
export function stopLossPriceFromDistance(trade: TradeRecord, distance: string, precision: number): string {
  // On the integer grid when the open price and the distance both are on it (the common case);
  // decimal.js rounds a finer distance (stop-distance.prop.test.ts compares the two).
  const priceInt = parsePriceInt(trade.price, precision);
  const distanceInt = priceInt === null ? null : parseScaled(distance, precision);
  if (priceInt !== null && distanceInt !== null) {
    const n = trade.currentUnits.isPositive() ? priceInt - distanceInt : priceInt + distanceInt;
    if (Number.isSafeInteger(n)) return formatPriceInt(n, precision);
  }
  const d = new Decimal(distance);
  const open = tradePriceDecimal(trade);
  const price = trade.currentUnits.isPositive() ? open.minus(d) : open.plus(d);
  return price.toFixed(precision);
}

/**
 * A stop loss given by distance on an existing trade (POST orders with tradeID, PUT trades/{id}/orders,
 * a replacement): that far from the current price (distanceBasePrice), on the losing side. Integer
 * grid arithmetic; the distance was checked against the instrument's precision.
 */
export function stopLossPriceFromQuote(trade: TradeRecord, distance: string, slot: PriceSlot, precision: number): string {
  return formatPriceInt(stopLossPriceIntFromQuote(trade, priceTextToInt(distance, precision), slot), precision);
}

/** stopLossPriceFromQuote on the integer grid (zero or below: the distance is too large). */
export function stopLossPriceIntFromQuote(trade: TradeRecord, distanceInt: number, slot: PriceSlot): number {
  const isLong = trade.currentUnits.isPositive();
  const base = distanceBasePrice(isLong, slot.bid, slot.ask);
  return isLong ? base - distanceInt : base + distanceInt;
}

/**
 * Puts a new pending order into the trigger index. A trailing stop created on fill starts the
 * distance away from the trade's open price; any other trailing stop has no level until the
 * market gives it one (a TRAILING_STOP_VALUE record, see trailing-stops.ts), so the index is a
 * function of the journal alone.
 */
export function placeInIndex(state: AccountState, order: OrderRecord): void {
  const tx = order.create;
  const book = state.index.book(order.instrument);
  const condition = (tx.triggerCondition ?? 'DEFAULT') as TriggerCondition;
  const source = restingSource(order.type, order.isBuy, condition);
  if (ORDER_TYPE_RULES[order.type].trigger === 'TRAILING') {
    const distance2 = 2 * priceToInt(state, order.instrument, tx.distance as string);
    const direction = triggerDirection(order.type, order.isBuy, false);
    const trade = order.tradeId === undefined || tx.reason !== 'ON_FILL' ? undefined : state.trades.get(order.tradeId);
    let value2 = Number.NaN;
    if (trade !== undefined) {
      const open2 = 2 * priceToInt(state, order.instrument, trade.price);
      value2 = direction === Direction.LE ? open2 - distance2 : open2 + distance2;
    }
    order.trailing = { orderId: order.id, seq: order.id, source, direction, distance2, value2, live: true };
    book.addTrailing(order.trailing);
    return;
  }
  const priceInt = priceToInt(state, order.instrument, tx.price as string);
  let mitBelow = false;
  if (order.type === 'MARKET_IF_TOUCHED') {
    const market = order.initialMarketPrice;
    mitBelow = market !== undefined && priceInt < priceToInt(state, order.instrument, market);
  }
  const direction = triggerDirection(order.type, order.isBuy, mitBelow);
  const entry = book.add(source, direction, 2 * priceInt, order.id, order.id);
  order.trigger = { source, direction, entry };
}

/**
 * A trailing stop level (doubled grid units) as the journal writes it: at the display precision,
 * with a trailing 5 when it lies half way (only a stop watching the mid price gets there).
 */
export function trailingValueText(value2: number, precision: number): string {
  return value2 % 2 === 0 ? formatPriceInt(value2 / 2, precision) : formatPriceInt(value2 * 5, precision + 1);
}

/** The inverse of trailingValueText. */
export function trailingValue2(state: AccountState, instrument: string, text: string): number {
  const value = priceTextToInt(text, instrumentSpec(state, instrument).displayPrecision + 1);
  if (value % 5 !== 0) throw new Error(`trailing stop value ${text} is off the ${instrument} half grid`);
  return value / 5;
}

export function removeFromIndex(state: AccountState, order: OrderRecord): void {
  const book = state.index.peekBook(order.instrument);
  if (book === undefined) return;
  if (order.trigger !== undefined) {
    book.remove(order.trigger.source, order.trigger.direction, order.trigger.entry);
    order.trigger = undefined;
  }
  if (order.trailing !== undefined) {
    book.removeTrailing(order.trailing);
  }
}

/** Whether the order, resting where placeInIndex put it, is crossed by the latest quote. */
export function isCrossedNow(state: AccountState, order: OrderRecord): boolean {
  const slot = state.prices.get(order.instrument);
  if (slot === undefined || !slot.known) return false;
  if (order.trigger !== undefined) {
    const { source, direction, entry } = order.trigger;
    return quoteCrosses(source, direction, threshold2Of(direction, entry), slot.bid, slot.ask);
  }
  if (order.trailing !== undefined) {
    const t = order.trailing;
    return quoteCrosses(t.source, t.direction, t.value2, slot.bid, slot.ask);
  }
  return false;
}

import { priceTextToInt } from '../../domain/price.js';
import { parseDateTime } from '../../domain/time.js';
import { shaped } from '../../domain/transaction-json.js';
import { ON_FILL_ORDER_JSON } from '../../domain/transaction-shapes.js';
import type { ClientExtensions, OrderCancelTransaction, OrderTransaction } from '../../domain/transactions.js';
import { orderCrossedAt } from '../../matching/fill-rules.js';
import type { Batch } from '../batch.js';
import { stopLossPriceFromDistance, TRADE_SLOT } from '../placement.js';
import type { AccountState, OrderRecord, PriceSlot, TradeRecord } from '../state.js';
import { cancelOrder } from './bodies.js';

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
export function onFillCancelReason(
  b: Batch,
  order: OrderRecord,
  isBuy: boolean,
  fillInt: number,
  slot: PriceSlot,
  precision: number,
): string | null {
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
    const priceInt =
      d.price !== undefined
        ? priceTextToInt(d.price, precision)
        : isBuy
          ? fillInt - priceTextToInt(d.distance as string, precision)
          : fillInt + priceTextToInt(d.distance as string, precision);
    // OrderCancelReason STOP_LOSS_ON_FILL_PRICE_DISTANCE_MAXIMUM_EXCEEDED: "a Stop Loss Order whose
    // price would be zero or negative due to the specified distance" (v20 definitions).
    if (priceInt <= 0) return 'STOP_LOSS_ON_FILL_PRICE_DISTANCE_MAXIMUM_EXCEEDED';
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

/** The trade slots in the order-type table's order (TP, SL, TSL): the order their cancels are written in. */
const DEPENDENT_SLOTS = Object.values(TRADE_SLOT);

/** Dependent orders of trades a fill closed in full go with them (LINKED_TRADE_CLOSED). */
export function cancelDependents(b: Batch, closed: readonly TradeRecord[], out: OrderCancelTransaction[]): void {
  for (const trade of closed) {
    for (const slot of DEPENDENT_SLOTS) cancelDependent(b, trade[slot], out);
  }
}

function cancelDependent(b: Batch, dependentId: number | undefined, out: OrderCancelTransaction[]): void {
  if (dependentId === undefined) return;
  const dependent = b.state.orders.get(dependentId);
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

/** The TP/SL/TSL orders the entry asked for, attached to the trade its fill opened. */
export function createOnFillOrders(b: Batch, entry: OrderRecord, trade: TradeRecord, precision: number, out: OrderTransaction[]): void {
  const tx = entry.create;
  const tradeID = String(trade.id);
  if (tx.takeProfitOnFill !== undefined) {
    const d = tx.takeProfitOnFill;
    const tp = onFillCommon({ type: 'TAKE_PROFIT_ORDER', tradeID, price: d.price }, d, tradeID);
    out.push(b.emit<OrderTransaction>(shaped(tp, ON_FILL_ORDER_JSON) as never));
  }
  if (tx.stopLossOnFill !== undefined) {
    const d = tx.stopLossOnFill;
    const price = d.price ?? stopLossPriceFromDistance(trade, d.distance as string, precision);
    const sl: Record<string, unknown> = { type: 'STOP_LOSS_ORDER', tradeID, price };
    if (d.distance !== undefined) sl['distance'] = d.distance;
    onFillCommon(sl, d, tradeID);
    out.push(b.emit<OrderTransaction>(shaped(sl, ON_FILL_ORDER_JSON) as never));
  }
  if (tx.trailingStopLossOnFill !== undefined) {
    const d = tx.trailingStopLossOnFill;
    const tsl = onFillCommon({ type: 'TRAILING_STOP_LOSS_ORDER', tradeID, distance: d.distance }, d, tradeID);
    out.push(b.emit<OrderTransaction>(shaped(tsl, ON_FILL_ORDER_JSON) as never));
  }
}

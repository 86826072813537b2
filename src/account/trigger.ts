import { ZERO, decimalOf } from '../domain/decimal.js';
import { parseScaled } from '../domain/scaled-int.js';
import type { OrderType } from '../domain/transactions.js';
import type { Batch } from './batch.js';
import { fillOrCancel, type FillResult } from './fill.js';
import type { OrderRecord } from './state.js';

/** Fill reasons are the order type's (LIMIT_ORDER, STOP_LOSS_ORDER...). */
const FILL_REASON: Readonly<Record<OrderType, string>> = {
  MARKET: 'MARKET_ORDER',
  LIMIT: 'LIMIT_ORDER',
  STOP: 'STOP_ORDER',
  MARKET_IF_TOUCHED: 'MARKET_IF_TOUCHED_ORDER',
  TAKE_PROFIT: 'TAKE_PROFIT_ORDER',
  STOP_LOSS: 'STOP_LOSS_ORDER',
  TRAILING_STOP_LOSS: 'TRAILING_STOP_LOSS_ORDER',
};

/**
 * A resting order the market has reached: entry orders fill their units; TP/SL/TSL close the
 * remaining units of their trade.
 */
export function executeTriggered(b: Batch, order: OrderRecord): FillResult {
  const reason = FILL_REASON[order.type];
  if (order.tradeId !== undefined) {
    const trade = b.state.trades.get(order.tradeId);
    const units = trade === undefined ? ZERO : trade.currentUnits.negated();
    return fillOrCancel(b, { order, units, unitsInt: trade === undefined ? 0 : -trade.unitsInt, reason, closeTradeId: order.tradeId, positionFill: 'REDUCE_ONLY' });
  }
  const text = order.create.units as string;
  return fillOrCancel(b, {
    order,
    units: decimalOf(text),
    unitsInt: parseScaled(text, 0) ?? Number.NaN,
    reason,
    positionFill: order.create.positionFill ?? 'DEFAULT',
  });
}

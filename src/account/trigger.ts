import { Decimal } from '../domain/decimal.js';
import type { Batch } from './batch.js';
import { fillOrCancel, type FillResult } from './fill.js';
import type { OrderRecord } from './state.js';

/**
 * A resting order the market has reached: entry orders fill their units; TP/SL/TSL close the
 * remaining units of their trade. Fill reasons are the order type's (LIMIT_ORDER, STOP_LOSS_ORDER...).
 */
export function executeTriggered(b: Batch, order: OrderRecord): FillResult {
  const reason = `${order.type}_ORDER`;
  if (order.tradeId !== undefined) {
    const trade = b.state.trades.get(order.tradeId);
    const units = trade === undefined ? new Decimal(0) : trade.currentUnits.negated();
    return fillOrCancel(b, { order, units, reason, closeTradeId: order.tradeId, positionFill: 'REDUCE_ONLY' });
  }
  return fillOrCancel(b, {
    order,
    units: new Decimal(order.create.units as string),
    reason,
    positionFill: order.create.positionFill ?? 'DEFAULT',
  });
}

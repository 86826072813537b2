import { ZERO } from '../domain/decimal.js';
import { ORDER_TYPE_RULES } from '../domain/order-types.js';
import { parseScaled } from '../domain/scaled-int.js';
import type { Batch } from './batch.js';
import { fillOrCancel, type FillResult } from './fill.js';
import type { OrderRecord } from './state.js';

/**
 * A resting order the market has reached: entry orders fill their units; TP/SL/TSL close the
 * remaining units of their trade. The fill or cancel is the order's only lifecycle change: v20 has
 * no triggered phase to pass through first (orders/lifecycle.ts says why).
 */
export function executeTriggered(b: Batch, order: OrderRecord): FillResult {
  const reason = ORDER_TYPE_RULES[order.type].fillReason;
  if (order.tradeId !== undefined) {
    const trade = b.state.trades.get(order.tradeId);
    const units = trade === undefined ? ZERO : trade.currentUnits.negated();
    return fillOrCancel(b, {
      order,
      units,
      unitsInt: trade === undefined ? 0 : -trade.unitsInt,
      reason,
      closeTradeId: order.tradeId,
      positionFill: 'REDUCE_ONLY',
    });
  }
  const text = order.create.units as string;
  return fillOrCancel(b, {
    order,
    units: b.state.memo.decimals.of(text),
    unitsInt: parseScaled(text, 0) ?? Number.NaN,
    reason,
    positionFill: order.create.positionFill ?? 'DEFAULT',
  });
}

import { ZERO } from '../domain/decimal.js';
import { ORDER_TYPE_RULES } from '../domain/order-types.js';
import { parseScaled } from '../domain/scaled-int.js';
import { OPEN_ONLY_CANCEL_REASON, openOnlyAgainstPosition } from '../orders/position-fill.js';
import type { Batch } from './batch.js';
import { cancelOrder, fillOrCancel, type FillResult } from './fill.js';
import type { AccountState, OrderRecord } from './state.js';
import { sideIsOpen } from './side-sums.js';

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
  const positionFill = order.create.positionFill ?? 'DEFAULT';
  if (openOnlyAgainstPosition(positionFill, b.state.hedgingEnabled, holdsOpposite(b.state, order.instrument, order.isBuy)))
    return { kind: 'cancelled', cancel: cancelOrder(b, order, OPEN_ONLY_CANCEL_REASON) };
  return fillOrCancel(b, {
    order,
    units: b.state.memo.decimals.of(text),
    unitsInt: parseScaled(text, 0) ?? Number.NaN,
    reason,
    positionFill,
  });
}

/** Whether the account holds the side of `instrument` a buy (or sell) would reduce. */
export function holdsOpposite(state: AccountState, instrument: string, isBuy: boolean): boolean {
  const position = state.positions.get(instrument);
  const side = isBuy ? position?.short : position?.long;
  return side !== undefined && sideIsOpen(side);
}

/**
 * OrderPositionFill on a netting account (hedgingEnabled false). OANDA's definition: OPEN_ONLY
 * "When the Order is filled, only allow Positions to be opened or extended" (oandapyV20's copy of
 * the v20 definitions; oanda-v20-openapi.json lists the enum). A netting account holds one side
 * of an instrument at a time, so an OPEN_ONLY order against the side it holds could only reduce
 * it: it is never silently turned into a reduction (DEFAULT/REDUCE_FIRST do that).
 * - Created while the opposite side is held: rejected ORDER_FILL_POSITION_ACTION_INVALID
 *   ("The OrderFillPositionAction specified is invalid"), the TransactionRejectReason for a
 *   position action the account cannot honour.
 * - A resting one reached by the market while the opposite side is held: cancelled FIFO_VIOLATION,
 *   the OrderCancelReason of a fill a non-hedging account's rules forbid (facts sheet 5.9; no
 *   OrderCancelReason names the position action itself). [inf: OANDA documents neither case.]
 * On a hedging account OPEN_ONLY opens a trade on its own side, as DEFAULT does there.
 */
export function openOnlyAgainstPosition(positionFill: string | undefined, hedgingEnabled: boolean, heldOpposite: boolean): boolean {
  return positionFill === 'OPEN_ONLY' && !hedgingEnabled && heldOpposite;
}

export const OPEN_ONLY_REJECT_REASON = 'ORDER_FILL_POSITION_ACTION_INVALID';
export const OPEN_ONLY_CANCEL_REASON = 'FIFO_VIOLATION';

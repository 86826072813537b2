import type { Decimal } from '../../domain/decimal.js';
import { vwapInt, walkBook, type BookSide, type BookWalk } from '../../domain/liquidity.js';
import { priceTextToInt } from '../../domain/price.js';
import type { OrderRecord, PriceSlot } from '../state.js';
import type { FillPlan, FillRequest } from './plan.js';

/** What the quote's levels give a fill: how many units, at which price, from which levels. */
export interface Liquidity {
  /** Absolute units the fill takes (all the plan wants, or what the levels hold for IOC and pending orders). */
  readonly units: Decimal;
  /** fullVWAP on the grid. */
  readonly priceInt: number;
  readonly side: BookSide;
  readonly walk: BookWalk;
}

/**
 * The worst level an order may take: a LIMIT's own price and any priceBound (the tighter of the
 * two). Orders that close trades take every level.
 */
function worstLevel(order: OrderRecord, isBuy: boolean, precision: number): number | undefined {
  const create = order.create;
  const limit = order.type === 'LIMIT' && create.price !== undefined ? priceTextToInt(create.price, precision) : undefined;
  const bound = create.priceBound === undefined ? undefined : priceTextToInt(create.priceBound, precision);
  if (limit === undefined || bound === undefined) return limit ?? bound;
  return isBuy ? Math.min(limit, bound) : Math.max(limit, bound);
}

/**
 * The liquidity decision of a fill on a side with levels: the units the plan fills, walked over the
 * levels best first (a MARKET or IOC order larger than the top level takes the next ones). Short of
 * liquidity, an order that closes trades (TP/SL/TSL, trade and position closes) fills the rest at
 * the closeout price, which v20 uses "when a bid is required to closeout a Position ... yet there is
 * no bid liquidity" (definitions ClientPrice.closeoutBid/closeoutAsk); a FOK order is cancelled
 * INSUFFICIENT_LIQUIDITY (all or nothing, facts sheet §3.2/§5.1 and OrderCancelReason); an IOC order
 * and a resting order take what the levels hold (the caller reissues a resting order's remainder).
 * Returns the cancel reason when nothing can fill.
 */
export function takeLiquidity(req: FillRequest, plan: FillPlan, slot: PriceSlot, side: BookSide, precision: number): Liquidity | string {
  const isBuy = plan.isBuy;
  const wanted = plan.reduced.plus(plan.opening);
  const closing = req.closeTradeId !== undefined || req.closeSide !== undefined;
  const walk = walkBook(side, wanted, isBuy, closing ? undefined : worstLevel(req.order, isBuy, precision));
  if (walk.units.equals(wanted)) return { units: wanted, priceInt: vwapInt(walk.cost, wanted, isBuy), side, walk };
  if (closing) {
    const rest = wanted.minus(walk.units);
    const cost = walk.cost.plus(rest.times(isBuy ? slot.closeoutAsk : slot.closeoutBid));
    return { units: wanted, priceInt: vwapInt(cost, wanted, isBuy), side, walk };
  }
  if (walk.units.isZero() || req.order.create.timeInForce === 'FOK') return 'INSUFFICIENT_LIQUIDITY';
  return { units: walk.units, priceInt: vwapInt(walk.cost, walk.units, isBuy), side, walk };
}

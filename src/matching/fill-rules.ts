import { ORDER_TYPE_RULES, type OrderType, type TriggerCondition } from '../domain/order-types.js';

/**
 * Which quote a trigger watches. Values in the index are doubled integers so MID stays whole.
 * Plain numeric constants rather than enums: they inline on the quote path in every build.
 */
export type PriceSource = 0 | 1 | 2;
export const PriceSource = { BID: 0, ASK: 1, MID: 2 } as const;

/** LE: fires when the watched price falls to the threshold or below; GE: rises to it or above. */
export type Direction = 0 | 1;
export const Direction = { LE: 0, GE: 1 } as const;

export type { TriggerCondition } from '../domain/order-types.js';

/** v20 OrderTriggerCondition: DEFAULT watches the side the order fills on (ask for buys). */
export function watchedSource(isBuy: boolean, condition: TriggerCondition): PriceSource {
  switch (condition) {
    case 'DEFAULT':
      return isBuy ? PriceSource.ASK : PriceSource.BID;
    case 'INVERSE':
      return isBuy ? PriceSource.BID : PriceSource.ASK;
    case 'BID':
      return PriceSource.BID;
    case 'ASK':
      return PriceSource.ASK;
    case 'MID':
      return PriceSource.MID;
  }
}

/**
 * The quote a resting order waits on in the trigger index. Most orders wait on the side their
 * trigger condition names (watchedSource). A LIMIT or TAKE_PROFIT (trigger rule BETTER) waits on
 * its default side, whatever its condition, because it may only fill at its price or better
 * (LimitOrderRequest.price: "will only be filled by a market price that is equal to or better
 * than this price"; TakeProfitOrderRequest.price: "closed by a market price that is equal to or
 * better than this threshold") and fills always take the default side (OrderTriggerCondition:
 * "Orders are always filled using their default price component"; facts sheet sections 4 and 5).
 * Every condition's price for a buy (bid, mid, ask) is at or below the ask, and for a sell at or
 * above the bid, so the default side reaching the price implies the condition fired: an order
 * triggered while the default side is still worse than its price cannot fill there and stays
 * pending, with no transaction, until the default side reaches its price. Waiting on the default
 * side is that rule, decided once at placement instead of re-checked on every quote.
 */
export function restingSource(orderType: OrderType, isBuy: boolean, condition: TriggerCondition): PriceSource {
  return ORDER_TYPE_RULES[orderType].trigger === 'BETTER' ? watchedSource(isBuy, 'DEFAULT') : watchedSource(isBuy, condition);
}

/**
 * Limit-like orders (LIMIT, TAKE_PROFIT) want a better price: a buy fires at or below its price,
 * a sell at or above. Stop-like orders (STOP, STOP_LOSS, TRAILING_STOP_LOSS) fire on the way
 * against the position. A MARKET_IF_TOUCHED fires when the market reaches its price from the
 * side it stood on at creation.
 */
export function triggerDirection(orderType: OrderType, isBuy: boolean, mitPriceBelowMarket: boolean): Direction {
  switch (ORDER_TYPE_RULES[orderType].trigger) {
    case 'BETTER':
      return isBuy ? Direction.LE : Direction.GE;
    case 'WORSE':
    case 'TRAILING':
      return isBuy ? Direction.GE : Direction.LE;
    case 'TOUCHED':
      return mitPriceBelowMarket ? Direction.LE : Direction.GE;
    case null:
      throw new Error(`${orderType} orders never rest in the trigger index`);
  }
}

/** The watched value of a quote in doubled units. */
export function watchedValue2(source: PriceSource, bid: number, ask: number): number {
  return source === PriceSource.BID ? 2 * bid : source === PriceSource.ASK ? 2 * ask : bid + ask;
}

export function crosses(direction: Direction, watched2: number, threshold2: number): boolean {
  return direction === Direction.LE ? watched2 <= threshold2 : watched2 >= threshold2;
}

/**
 * Whether a quote crosses a trigger: the one crossing rule. `threshold2` is the trigger price in
 * doubled integer units (as the trigger index keeps it); bid and ask are on the integer grid.
 */
export function quoteCrosses(source: PriceSource, direction: Direction, threshold2: number, bid: number, ask: number): boolean {
  return crosses(direction, watchedValue2(source, bid, ask), threshold2);
}

/**
 * Whether an order of `orderType` at `priceInt` (integer grid) would fire at this quote, watching
 * the side it rests on (restingSource). Used before an order rests, e.g. for the on-fill TP/SL a
 * fill would create (a long trade's are sells, a short trade's buys).
 */
export function orderCrossedAt(
  orderType: OrderType,
  isBuy: boolean,
  priceInt: number,
  bid: number,
  ask: number,
  condition: TriggerCondition = 'DEFAULT',
  mitPriceBelowMarket = false,
): boolean {
  return quoteCrosses(
    restingSource(orderType, isBuy, condition),
    triggerDirection(orderType, isBuy, mitPriceBelowMarket),
    2 * priceInt,
    bid,
    ask,
  );
}

/**
 * Fills always take the default side: buys at the ask, sells at the bid, whatever the trigger. A
 * LIMIT or TAKE_PROFIT only reaches the fill when that side is at its price or better
 * (restingSource), so its fill is never worse than its price.
 */
export function fillPriceAt(isBuy: boolean, bid: number, ask: number): number {
  return isBuy ? ask : bid;
}

/** A price bound is the worst acceptable fill: above it for a buy, below it for a sell. */
export function violatesBound(isBuy: boolean, fill: number, bound: number): boolean {
  return isBuy ? fill > bound : fill < bound;
}

/**
 * The current price a dependent order's `distance` is measured from when it is created on an
 * existing trade: OANDA's StopLossOrderRequest.distance is "the distance (in price units) from the
 * Account's current price to use as the Stop Loss Order price. If the Trade is short the
 * Instrument's bid price is used, and for long Trades the ask is used" (oanda-v20-openapi.json;
 * the facts sheet, section 5.6, finds the sentence odd; it is the side the trade opened on, as an
 * on-fill distance is measured from the open price). Followed as written.
 */
export function distanceBasePrice(isLongTrade: boolean, bid: number, ask: number): number {
  return isLongTrade ? ask : bid;
}

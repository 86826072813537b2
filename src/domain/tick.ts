import type { Micros } from './time.js';

/**
 * One price bucket as a feed gives it: v20's PriceBucket (`{price, liquidity}`, definitions
 * PriceBucket; ClientPrice.bids/asks list them best first).
 */
export interface PriceLevel {
  readonly price: number;
  readonly liquidity: number;
}

/**
 * One quote. Prices are numbers as read from a feed; the engine moves them onto the instrument's
 * integer grid. Closeout prices default to bid/ask. Liquidity is unlimited unless levels are
 * given: `bids`/`asks` list the buckets best first (bids highest, asks lowest), the first at
 * bid/ask. A side without levels stays unlimited.
 */
export interface Tick {
  readonly instrument: string;
  readonly time: Micros;
  readonly bid: number;
  readonly ask: number;
  readonly closeoutBid?: number;
  readonly closeoutAsk?: number;
  readonly bids?: readonly PriceLevel[];
  readonly asks?: readonly PriceLevel[];
}

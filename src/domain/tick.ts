import type { Micros } from './time.js';

/**
 * One top-of-book quote. Prices are numbers as read from a feed; the engine moves them onto the
 * instrument's integer grid. Closeout prices default to bid/ask. Liquidity is unlimited unless
 * tiers are given.
 */
export interface Tick {
  readonly instrument: string;
  readonly time: Micros;
  readonly bid: number;
  readonly ask: number;
  readonly closeoutBid?: number;
  readonly closeoutAsk?: number;
}

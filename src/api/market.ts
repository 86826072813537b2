import type { Engine } from '../engine/engine.js';

/**
 * What the API knows of the market beyond the accounts: the latest quote of every instrument and
 * the candles built from the quotes seen. Fed from the engine's price Observable.
 */
export interface MarketData {
  /** Stops listening to the engine. */
  close(): void;
}

export function createMarketData(_engine: Engine): MarketData {
  return { close: () => undefined };
}

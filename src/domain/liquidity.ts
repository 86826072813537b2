/**
 * Liquidity v20sim shows on every price bucket: top-of-book liquidity is unlimited in the
 * simulator, shown as one tier of this size wherever v20 prints a price (pricing, streams, fills).
 */
export const SHOWN_LIQUIDITY = 10_000_000;

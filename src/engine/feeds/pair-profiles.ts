/**
 * Rough market levels for generated ticks: a plausible starting mid and a typical retail spread
 * in pips per pair (2024-ish). Synthetic data only needs to look like FX, not to match a day.
 */
export interface PairProfile {
  readonly mid: number;
  readonly spreadPips: number;
  /** Annualised volatility of the mid. */
  readonly volatility: number;
}

const PROFILES: Readonly<Record<string, readonly [mid: number, spreadPips: number, volatility: number]>> = {
  EUR_USD: [1.08, 1.0, 0.07],
  GBP_USD: [1.27, 1.3, 0.08],
  USD_JPY: [150.0, 1.2, 0.09],
  USD_CHF: [0.88, 1.5, 0.07],
  AUD_USD: [0.66, 1.2, 0.1],
  NZD_USD: [0.61, 1.6, 0.1],
  USD_CAD: [1.36, 1.8, 0.06],
  EUR_GBP: [0.855, 1.5, 0.05],
  EUR_JPY: [162.0, 1.8, 0.09],
  EUR_CHF: [0.95, 1.8, 0.05],
  EUR_AUD: [1.64, 2.5, 0.08],
  EUR_NZD: [1.78, 3.5, 0.08],
  EUR_CAD: [1.47, 2.5, 0.07],
  GBP_JPY: [190.0, 2.8, 0.1],
  GBP_CHF: [1.12, 2.8, 0.08],
  GBP_AUD: [1.92, 3.0, 0.09],
  GBP_NZD: [2.08, 4.5, 0.09],
  GBP_CAD: [1.72, 3.5, 0.08],
  AUD_JPY: [99.0, 2.0, 0.12],
  AUD_CHF: [0.58, 2.5, 0.1],
  AUD_NZD: [1.09, 2.8, 0.06],
  AUD_CAD: [0.9, 2.2, 0.08],
  NZD_JPY: [91.0, 2.5, 0.12],
  NZD_CHF: [0.535, 3.0, 0.1],
  NZD_CAD: [0.83, 3.0, 0.08],
  CAD_JPY: [110.0, 2.2, 0.1],
  CAD_CHF: [0.645, 2.5, 0.08],
  CHF_JPY: [170.0, 2.8, 0.09],
};

/** Unknown instruments start at 1.0 with a crosses-like spread. */
const FALLBACK: PairProfile = { mid: 1.0, spreadPips: 2.0, volatility: 0.08 };

export function pairProfile(instrument: string): PairProfile {
  const row = PROFILES[instrument];
  return row === undefined ? FALLBACK : { mid: row[0], spreadPips: row[1], volatility: row[2] };
}

import { Decimal, ZERO } from '../domain/decimal.js';
import { quoteCurrency, type InstrumentSpec } from '../domain/instruments.js';
import { scaleOf } from '../domain/price.js';
import type { AccountState, PositionRecord, PriceSlot, TradeRecord } from './state.js';

/**
 * Valuation of an account at the latest quotes: P/L conversion to the home currency, unrealized
 * P/L, margin and NAV by the formulas OANDA's own account snapshots reconcile to.
 */

/** 10^0 .. 10^15 as Decimals: a frozen table, built once. */
const SCALES: readonly Decimal[] = Object.freeze(Array.from({ length: 16 }, (_, i) => new Decimal(scaleOf(i))));

function scaleDecimal(precision: number): Decimal {
  return SCALES[precision] ?? new Decimal(scaleOf(precision));
}

export function intToDecimal(value: number, precision: number): Decimal {
  return new Decimal(value).dividedBy(scaleDecimal(precision));
}

export function midDecimal(slot: PriceSlot, precision: number): Decimal {
  return new Decimal(slot.bid + slot.ask).dividedBy(scaleDecimal(precision).times(2));
}

function knownSlot(state: AccountState, instrument: string): PriceSlot | undefined {
  const slot = state.prices.get(instrument);
  return slot !== undefined && slot.known ? slot : undefined;
}

/**
 * Factor that turns an amount in `currency` into the account currency, from the mid price of the
 * pair that links them (either way round). Null when no linking pair has a price yet.
 */
export function currencyToHome(state: AccountState, currency: string): Decimal | null {
  const home = state.currency;
  if (currency === home) return ONE;
  const direct = state.memo.pairName(currency, home);
  const directSpec = state.instruments.get(direct);
  if (directSpec !== undefined) {
    const slot = knownSlot(state, direct);
    if (slot !== undefined) return midDecimal(slot, directSpec.displayPrecision);
  }
  const inverse = state.memo.pairName(home, currency);
  const inverseSpec = state.instruments.get(inverse);
  if (inverseSpec !== undefined) {
    const slot = knownSlot(state, inverse);
    if (slot !== undefined) return ONE.dividedBy(midDecimal(slot, inverseSpec.displayPrecision));
  }
  return null;
}

const ONE = new Decimal(1);

export function quoteHomeFactor(state: AccountState, instrument: string): Decimal | null {
  return currencyToHome(state, quoteCurrency(instrument));
}

/** The text of the stricter of the instrument's rate and the account's configured rate. */
export function effectiveMarginRateText(state: AccountState, spec: InstrumentSpec): string {
  if (state.marginRate === undefined) return spec.marginRate;
  const memo = state.memo;
  const instrumentRate = memo.rateDecimalOf(spec.marginRate, decimalOfRate);
  return memo.rateDecimalOf(state.marginRate, decimalOfRate).greaterThan(instrumentRate) ? state.marginRate : spec.marginRate;
}

function decimalOfRate(text: string): Decimal {
  return new Decimal(text);
}

/** The stricter of the instrument's rate and the account's configured rate. */
export function effectiveMarginRate(state: AccountState, spec: InstrumentSpec): Decimal {
  return state.memo.rateDecimalOf(effectiveMarginRateText(state, spec), decimalOfRate);
}

export interface PositionValuation {
  longUnrealizedPL: Decimal;
  shortUnrealizedPL: Decimal;
  /** Unrealized P/L priced at mid, for the margin closeout figures. */
  closeoutUnrealizedPL: Decimal;
  positionValue: Decimal;
  marginUsed: Decimal;
}

const ZERO_VALUATION: PositionValuation = {
  longUnrealizedPL: ZERO,
  shortUnrealizedPL: ZERO,
  closeoutUnrealizedPL: ZERO,
  positionValue: ZERO,
  marginUsed: ZERO,
};

export function valuePosition(state: AccountState, position: PositionRecord): PositionValuation {
  const { long, short } = position;
  if (long.units.isZero() && short.units.isZero()) return ZERO_VALUATION;
  const spec = state.instruments.get(position.instrument);
  const slot = knownSlot(state, position.instrument);
  const factor = quoteHomeFactor(state, position.instrument);
  if (spec === undefined || slot === undefined || factor === null) return ZERO_VALUATION;
  const p = spec.displayPrecision;
  const bid = intToDecimal(slot.bid, p);
  const ask = intToDecimal(slot.ask, p);
  const mid = midDecimal(slot, p);
  // Longs close at the bid, shorts at the ask; short units and cost are negative.
  const longUPL = long.units.times(bid).minus(long.cost).times(factor);
  const shortUPL = short.units.times(ask).minus(short.cost).times(factor);
  const closeoutUPL = long.units.plus(short.units).times(mid).minus(long.cost.plus(short.cost)).times(factor);
  const longValue = long.units.abs().times(mid).times(factor);
  const shortValue = short.units.abs().times(mid).times(factor);
  const rate = effectiveMarginRate(state, spec);
  // Hedged sides are margined on the larger side only.
  const marginUsed = Decimal.max(longValue, shortValue).times(rate);
  return {
    longUnrealizedPL: longUPL,
    shortUnrealizedPL: shortUPL,
    closeoutUnrealizedPL: closeoutUPL,
    positionValue: longValue.plus(shortValue),
    marginUsed,
  };
}

export interface AccountValuation {
  unrealizedPL: Decimal;
  NAV: Decimal;
  marginUsed: Decimal;
  marginAvailable: Decimal;
  positionValue: Decimal;
  marginCloseoutUnrealizedPL: Decimal;
  marginCloseoutNAV: Decimal;
  marginCloseoutMarginUsed: Decimal;
  marginCloseoutPositionValue: Decimal;
  marginCloseoutPercent: Decimal;
  marginCallMarginUsed: Decimal;
  marginCallPercent: Decimal;
  withdrawalLimit: Decimal;
}

export function valueAccount(state: AccountState): AccountValuation {
  let unrealizedPL = ZERO;
  let closeoutUPL = ZERO;
  let marginUsed = ZERO;
  let positionValue = ZERO;
  for (const position of state.positions.values()) {
    const v = valuePosition(state, position);
    if (v === ZERO_VALUATION) continue;
    unrealizedPL = unrealizedPL.plus(v.longUnrealizedPL).plus(v.shortUnrealizedPL);
    closeoutUPL = closeoutUPL.plus(v.closeoutUnrealizedPL);
    marginUsed = marginUsed.plus(v.marginUsed);
    positionValue = positionValue.plus(v.positionValue);
  }
  const NAV = state.balance.plus(unrealizedPL);
  const closeoutNAV = state.balance.plus(closeoutUPL);
  const marginAvailable = NAV.minus(marginUsed);
  const percentBase = closeoutNAV.greaterThan(0) ? closeoutNAV : null;
  return {
    unrealizedPL,
    NAV,
    marginUsed,
    marginAvailable,
    positionValue,
    marginCloseoutUnrealizedPL: closeoutUPL,
    marginCloseoutNAV: closeoutNAV,
    marginCloseoutMarginUsed: marginUsed,
    marginCloseoutPositionValue: positionValue,
    marginCloseoutPercent: percentBase === null ? (marginUsed.isZero() ? ZERO : ONE) : marginUsed.times(0.5).dividedBy(percentBase),
    marginCallMarginUsed: marginUsed,
    marginCallPercent: percentBase === null ? (marginUsed.isZero() ? ZERO : ONE) : marginUsed.dividedBy(percentBase),
    withdrawalLimit: marginAvailable.greaterThan(0) ? marginAvailable : ZERO,
  };
}

export function tradeUnrealizedPL(state: AccountState, trade: TradeRecord): Decimal {
  if (trade.state !== 'OPEN') return ZERO;
  const spec = state.instruments.get(trade.instrument);
  const slot = knownSlot(state, trade.instrument);
  const factor = quoteHomeFactor(state, trade.instrument);
  if (spec === undefined || slot === undefined || factor === null) return ZERO;
  const close = intToDecimal(trade.currentUnits.isPositive() ? slot.bid : slot.ask, spec.displayPrecision);
  return close.minus(trade.priceDecimal).times(trade.currentUnits).times(factor);
}

export function tradeMarginUsed(state: AccountState, trade: TradeRecord): Decimal {
  if (trade.state !== 'OPEN') return ZERO;
  const spec = state.instruments.get(trade.instrument);
  const slot = knownSlot(state, trade.instrument);
  const factor = quoteHomeFactor(state, trade.instrument);
  if (spec === undefined || slot === undefined || factor === null) return ZERO;
  return trade.currentUnits.abs().times(midDecimal(slot, spec.displayPrecision)).times(factor).times(effectiveMarginRate(state, spec));
}

export function currencyToHomeFloat(state: AccountState, currency: string): number {
  const home = state.currency;
  if (currency === home) return 1;
  const direct = knownSlot(state, state.memo.pairName(currency, home));
  if (direct !== undefined) return (direct.bid + direct.ask) / (2 * direct.scale);
  const inverse = knownSlot(state, state.memo.pairName(home, currency));
  if (inverse !== undefined) return (2 * inverse.scale) / (inverse.bid + inverse.ask);
  return Number.NaN;
}

/**
 * marginAvailable in floating point, from float shadows of the book. Only good for deciding that
 * a margin check is far from its boundary; anything close is decided with valueAccount().
 * Returns NaN when a price is missing.
 */
export function approxMarginAvailable(state: AccountState): number {
  let unrealized = 0;
  let margin = 0;
  for (const position of state.positions.values()) {
    const { long, short } = position;
    if (long.unitsFloat === 0 && short.unitsFloat === 0) continue;
    const slot = knownSlot(state, position.instrument);
    const spec = state.instruments.get(position.instrument);
    if (slot === undefined || spec === undefined) return Number.NaN;
    const factor = currencyToHomeFloat(state, quoteCurrency(position.instrument));
    const bid = slot.bid / slot.scale;
    const ask = slot.ask / slot.scale;
    const mid = (slot.bid + slot.ask) / (2 * slot.scale);
    unrealized += (long.unitsFloat * bid - long.costFloat + (short.unitsFloat * ask - short.costFloat)) * factor;
    const rate = Math.max(
      state.memo.rateFloatOf(spec.marginRate),
      state.marginRate === undefined ? 0 : state.memo.rateFloatOf(state.marginRate),
    );
    margin += Math.max(Math.abs(long.unitsFloat), Math.abs(short.unitsFloat)) * mid * factor * rate;
  }
  return state.balanceFloat + unrealized - margin;
}

/**
 * The conversion factor as fills print it (8 decimals, "1" for the home currency). A direct pair
 * is formatted from its integer quote; only an inverse pair needs a Decimal division.
 */
export function factorText(state: AccountState, currency: string): string | null {
  const home = state.currency;
  if (currency === home) return '1';
  const direct = knownSlot(state, state.memo.pairName(currency, home));
  if (direct !== undefined) {
    const sum = direct.bid + direct.ask;
    // Fills in a row convert at the same quote: keep the last text.
    const last = state.memo.lastFactor;
    if (last !== undefined && last.slot === direct && last.sum === sum) return last.text;
    const precision = Math.round(Math.log10(direct.scale));
    if (precision <= 7) {
      // mid = (bid + ask) / 2 = (bid + ask) × 5 at one more decimal
      const text = formatMidTimesFive(sum, precision + 1) + '0'.repeat(8 - (precision + 1));
      state.memo.lastFactor = { slot: direct, sum, text };
      return text;
    }
  }
  const factor = currencyToHome(state, currency);
  return factor === null ? null : factor.toFixed(8);
}

function formatMidTimesFive(sum: number, decimals: number): string {
  const digits = String(sum * 5).padStart(decimals + 1, '0');
  return `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`;
}

import { Decimal, ZERO } from '../domain/decimal.js';
import { quoteCurrency, type InstrumentSpec } from '../domain/instruments.js';
import { decimalToPriceInt, priceIntToDecimal, priceMidToDecimal } from '../domain/price.js';
import { formatScaled, parseScaled, toAccountUnits } from '../domain/scaled-int.js';
import { homeRate, midToHome, toHome, type HomeRate } from './home-currency.js';
import {
  balanceOf,
  tradePriceDecimal,
  type AccountState,
  type PositionRecord,
  type PositionSideRecord,
  type PriceSlot,
  type TradeRecord,
} from './state.js';
import { sideCost, sideIsEmpty, sideIsOpen, sideUnits } from './side-sums.js';

/**
 * Valuation of an account at the latest quotes: P/L conversion to the home currency, unrealized
 * P/L, margin and NAV by the formulas OANDA's own account snapshots reconcile to.
 */

export function midDecimal(slot: PriceSlot, precision: number): Decimal {
  return priceMidToDecimal(slot.bid + slot.ask, precision);
}

function knownSlot(state: AccountState, instrument: string): PriceSlot | undefined {
  const slot = state.prices.get(instrument);
  return slot !== undefined && slot.known ? slot : undefined;
}

/**
 * Mid factor that turns an amount in `currency` into the account currency, through the chain of
 * quoted pairs that links them (account/home-currency.ts). Null when no chain has a price yet.
 */
export function currencyToHome(state: AccountState, currency: string): Decimal | null {
  return midToHome(state, currency);
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

/**
 * A position at the latest quote. Unrealized P/L converts like realized P/L: each side's net P/L
 * (and the mid-priced closeout P/L) at the gain or loss rate by its sign (facts sheet §10, §14);
 * position value and margin at mid.
 */
export function valuePosition(state: AccountState, position: PositionRecord): PositionValuation {
  const priced = pricedPosition(state, position);
  if (priced === undefined) return ZERO_VALUATION;
  const { long, short } = position;
  const { spec, slot, rate } = priced;
  const p = spec.displayPrecision;
  const mid = midDecimal(slot, p);
  const { longUnrealizedPL: longUPL, shortUnrealizedPL: shortUPL } = unrealizedAt(position, slot, p, rate);
  const longUnits = sideUnits(long);
  const shortUnits = sideUnits(short);
  const closeoutUPL = toHome(
    longUnits
      .plus(shortUnits)
      .times(mid)
      .minus(sideCost(long).plus(sideCost(short))),
    rate,
  );
  const longValue = longUnits.abs().times(mid).times(rate.mid);
  const shortValue = shortUnits.abs().times(mid).times(rate.mid);
  // Hedged sides are margined on the larger side only.
  const marginUsed = Decimal.max(longValue, shortValue).times(effectiveMarginRate(state, spec));
  return {
    longUnrealizedPL: longUPL,
    shortUnrealizedPL: shortUPL,
    closeoutUnrealizedPL: closeoutUPL,
    positionValue: longValue.plus(shortValue),
    marginUsed,
  };
}

export type UnrealizedPL = Pick<PositionValuation, 'longUnrealizedPL' | 'shortUnrealizedPL'>;

/** Longs close at the bid, shorts at the ask; short units and cost are negative. */
function unrealizedAt(position: PositionRecord, slot: PriceSlot, precision: number, rate: HomeRate): UnrealizedPL {
  return {
    longUnrealizedPL: sideUnrealizedPL(position.long, slot.bid, precision, rate),
    shortUnrealizedPL: sideUnrealizedPL(position.short, slot.ask, precision, rate),
  };
}

function sideUnrealizedPL(side: PositionSideRecord, priceInt: number, precision: number, rate: HomeRate): Decimal {
  // A side that holds nothing: 0 x price - 0 is zero at any quote (most positions are one-sided).
  if (sideIsEmpty(side)) return ZERO;
  return toHome(sideUnits(side).times(priceIntToDecimal(priceInt, precision)).minus(sideCost(side)), rate);
}

/** The two unrealized P/L figures of valuePosition alone, without the position value and margin it also computes. */
export function positionUnrealizedPL(state: AccountState, position: PositionRecord): UnrealizedPL {
  const priced = pricedPosition(state, position);
  return priced === undefined ? ZERO_VALUATION : unrealizedAt(position, priced.slot, priced.spec.displayPrecision, priced.rate);
}

/**
 * The unrealized P/L texts of a position whose quote currency is the account's (long, short and
 * their sum, as formatAccountUnits prints positionUnrealizedPL's figures), on the integer grid of
 * the instrument's `precision`: units x (bid or ask) - cost, all whole numbers of price points, then
 * rounded half up to 4 decimals. Null when a side's units or cost are not whole on that grid or a
 * product would leave the safe integers: the Decimal route prints those. `bid` and `ask` are the
 * known quote on the grid. unrealized-texts.prop.test.ts compares the two routes.
 */
export function unrealizedPLTextsAtHome(
  position: PositionRecord,
  bid: number,
  ask: number,
  precision: number,
): readonly [string, string, string] | null {
  const long = sideUnrealizedScaled(position.long, bid, precision);
  const short = sideUnrealizedScaled(position.short, ask, precision);
  if (long === null || short === null || !Number.isSafeInteger(long + short)) return null;
  const long4 = toAccountUnits(long, precision);
  const short4 = toAccountUnits(short, precision);
  const sum4 = toAccountUnits(long + short, precision);
  if (!Number.isSafeInteger(long4) || !Number.isSafeInteger(short4) || !Number.isSafeInteger(sum4)) return null;
  return [formatScaled(long4, 4), formatScaled(short4, 4), formatScaled(sum4, 4)];
}

/** A side's units x price - cost in points of 10^-precision, or null off the grid or the safe integers. */
function sideUnrealizedScaled(side: PositionSideRecord, priceInt: number, precision: number): number | null {
  if (sideIsEmpty(side)) return 0;
  // The side's integer sums when it keeps them at this precision; else whole units read off their
  // text (null when fractional or past the safe integers), as the cost is.
  const exact = !Number.isNaN(side.unitsInt);
  const units = exact ? side.unitsInt : parseScaled(sideUnits(side).toString(), 0);
  if (units === null) return null;
  const cost = exact && side.costScale === precision ? side.costInt : decimalToPriceInt(sideCost(side), precision);
  const value = units * priceInt;
  if (cost === null || !Number.isSafeInteger(units) || !Number.isSafeInteger(value) || !Number.isSafeInteger(cost)) return null;
  const n = value - cost;
  return Number.isSafeInteger(n) ? n : null;
}

/** What values an open position: its instrument, latest quote and home rate; undefined when flat or any is missing. */
function pricedPosition(
  state: AccountState,
  position: PositionRecord,
): { spec: InstrumentSpec; slot: PriceSlot; rate: HomeRate } | undefined {
  if (!sideIsOpen(position.long) && !sideIsOpen(position.short)) return undefined;
  const spec = state.instruments.get(position.instrument);
  const slot = knownSlot(state, position.instrument);
  const rate = homeRate(state, quoteCurrency(position.instrument));
  return spec === undefined || slot === undefined || rate === null ? undefined : { spec, slot, rate };
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

/** 0.0001, the smallest amount of account currency: the least closeout NAV the margin percents divide by. */
const PERCENT_NAV_FLOOR = new Decimal('0.0001');

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
  const balance = balanceOf(state);
  const NAV = balance.plus(unrealizedPL);
  const closeoutNAV = balance.plus(closeoutUPL);
  const marginAvailable = NAV.minus(marginUsed);
  // The percents divide by the closeout NAV floored at the smallest account amount: they grow
  // without bound as that NAV falls towards zero and stay there below it, never snapping back to 1
  // (an account past closeout must keep showing it: margin-call.ts acts on them).
  const percentBase = Decimal.max(closeoutNAV, PERCENT_NAV_FLOOR);
  const noMargin = marginUsed.isZero();
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
    marginCloseoutPercent: noMargin ? ZERO : marginUsed.times(0.5).dividedBy(percentBase),
    marginCallMarginUsed: marginUsed,
    marginCallPercent: noMargin ? ZERO : marginUsed.dividedBy(percentBase),
    // What can leave without a margin shortfall or a negative balance: unrealized gains are not
    // cash (AccountSummary.withdrawalLimit: "zero or a positive value indicating how much can be
    // withdrawn from the account"). min(balance, marginAvailable), floored at zero.
    withdrawalLimit: Decimal.max(Decimal.min(balance, marginAvailable), ZERO),
  };
}

export function tradeUnrealizedPL(state: AccountState, trade: TradeRecord): Decimal {
  if (trade.state !== 'OPEN') return ZERO;
  const spec = state.instruments.get(trade.instrument);
  const slot = knownSlot(state, trade.instrument);
  const rate = homeRate(state, quoteCurrency(trade.instrument));
  if (spec === undefined || slot === undefined || rate === null) return ZERO;
  const close = priceIntToDecimal(trade.currentUnits.isPositive() ? slot.bid : slot.ask, spec.displayPrecision);
  return toHome(close.minus(tradePriceDecimal(trade)).times(trade.currentUnits), rate);
}

export function tradeMarginUsed(state: AccountState, trade: TradeRecord): Decimal {
  if (trade.state !== 'OPEN') return ZERO;
  const spec = state.instruments.get(trade.instrument);
  const slot = knownSlot(state, trade.instrument);
  const factor = currencyToHome(state, quoteCurrency(trade.instrument));
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
  return midToHome(state, currency)?.toNumber() ?? Number.NaN;
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

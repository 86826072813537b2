import { Decimal, ZERO } from '../domain/decimal.js';
import { quoteCurrency } from '../domain/instruments.js';
import type { AccountState } from './state.js';
import { sideUnits } from './side-sums.js';
import { currencyToHome, effectiveMarginRate, midDecimal } from './valuation.js';

/** Units an order could trade now, per direction (OANDA's UnitsAvailableDetails). */
export interface UnitsAvailableDetails {
  readonly long: Decimal;
  readonly short: Decimal;
}

/** Units available by the order's positionFill (OANDA's UnitsAvailable, oanda-v20-openapi.json). */
export interface UnitsAvailable {
  readonly default: UnitsAvailableDetails;
  readonly reduceFirst: UnitsAvailableDetails;
  readonly reduceOnly: UnitsAvailableDetails;
  readonly openOnly: UnitsAvailableDetails;
}

const NONE: UnitsAvailableDetails = Object.freeze({ long: ZERO, short: ZERO });

/**
 * How many units of `instrument` an order could trade now, by positionFill: the deprecated
 * ClientPrice.unitsAvailable that GET pricing still sends (includeUnitsAvailable, default true,
 * facts sheet section 2). Computed from the account's own margin check (fill/margin.ts), so an
 * order of exactly these units passes it and one unit more does not:
 *
 *   per-unit margin   m = mid x (quote -> home at mid) x effective margin rate
 *                     (HELP margin-calculations: margin on mid prices; valuation.ts)
 *   opening units     open(extra) = (marginAvailable + extra) / m, rounded down to tradeUnitsPrecision
 *   reduceOnly        long = short units held, short = long units held
 *   reduceFirst       R + open(R x m), R the opposite side's units: reducing first releases
 *                     their margin, as the fill's check counts it
 *   openOnly          open(0) on a hedging account; on a netting one 0 against a held opposite side
 *                     (such an order is refused there, orders/position-fill.ts), else open(0)
 *   default           openOnly when hedging, reduceFirst otherwise (facts sheet 5.8)
 *
 * Each figure is capped at the instrument's maximumOrderUnits (more is UNITS_LIMIT_EXCEEDED).
 * Without a price or a home conversion for the quote currency every figure is 0: any order would
 * be cancelled MARKET_HALTED. The 2016 capture (oandapyV20 responses/pricing.py) shows long and
 * short a little apart, v20 pricing the side's own price; this simulator margins at mid, so
 * its opening figures are the same both ways.
 */
export function unitsAvailable(state: AccountState, instrument: string, marginAvailable: Decimal): UnitsAvailable {
  const spec = state.instruments.get(instrument);
  const slot = state.prices.get(instrument);
  const quote = quoteCurrency(instrument);
  const factor = quote === state.currency ? new Decimal(1) : currencyToHome(state, quote);
  if (spec === undefined || slot === undefined || !slot.known || factor === null) {
    return { default: NONE, reduceFirst: NONE, reduceOnly: NONE, openOnly: NONE };
  }
  const perUnit = midDecimal(slot, spec.displayPrecision).times(factor).times(effectiveMarginRate(state, spec));
  const precision = spec.tradeUnitsPrecision;
  const cap = new Decimal(spec.maximumOrderUnits);
  const capped = (units: Decimal): Decimal => Decimal.min(units, cap);
  const open = (extra: Decimal): Decimal => {
    const room = marginAvailable.plus(extra);
    if (!room.isPositive() || perUnit.isZero()) return ZERO;
    let units = room.dividedBy(perUnit).toDecimalPlaces(precision, Decimal.ROUND_DOWN);
    // The quotient is rounded to 40 digits: never let that round up past what the check allows.
    if (units.times(perUnit).greaterThan(room)) units = units.minus(new Decimal(1).dividedBy(10 ** precision));
    return units;
  };
  const position = state.positions.get(instrument);
  const longHeld = position === undefined ? ZERO : sideUnits(position.long).abs();
  const shortHeld = position === undefined ? ZERO : sideUnits(position.short).abs();
  const openNow = open(ZERO);
  const reduceOnly = { long: capped(shortHeld), short: capped(longHeld) };
  const reduceFirst = {
    long: capped(shortHeld.plus(open(shortHeld.times(perUnit)))),
    short: capped(longHeld.plus(open(longHeld.times(perUnit)))),
  };
  const openOnly = state.hedgingEnabled
    ? { long: capped(openNow), short: capped(openNow) }
    : { long: shortHeld.isZero() ? capped(openNow) : ZERO, short: longHeld.isZero() ? capped(openNow) : ZERO };
  return { default: state.hedgingEnabled ? openOnly : reduceFirst, reduceFirst, reduceOnly, openOnly };
}

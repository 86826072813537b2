import { Decimal } from './decimal.js';
import { formatScaled, parseScaled } from './scaled-int.js';

/**
 * Prices inside the engine are integers in units of the instrument's display precision
 * (EUR_USD 1.08463 -> 108463). Comparisons on the hot path are then plain number compares.
 */
export const POW10: readonly number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);

export function scaleOf(precision: number): number {
  const scale = POW10[precision];
  if (scale === undefined) throw new Error(`precision out of range: ${precision}`);
  return scale;
}

/** A float price from a feed to the integer grid (rounds away representation noise). */
export function toPriceInt(price: number, scale: number): number {
  return Math.round(price * scale);
}

/** Integer price to the wire string with exactly `precision` decimals, without float formatting. */
export function formatPriceInt(value: number, precision: number): string {
  return formatScaled(value, precision);
}

/** Decimal price to the integer grid, or null when it carries more precision than allowed. */
export function decimalToPriceInt(value: Decimal, precision: number): number | null {
  // Its digits read off its text when they fit a safe integer (toString prints plain digits, see
  // decimal.ts): a third of the time of decimal.js's multiplication, and nothing for the collector.
  const read = parseScaled(value.toString(), precision);
  if (read !== null) return read;
  const scaled = value.times(scaleOf(precision));
  if (!scaled.isInteger()) return null;
  return scaled.toNumber();
}

/**
 * 10^-p and 10^-p / 2 for every precision scaleOf allows. A grid integer times one of these is its
 * quotient by 10^p (or 2 x 10^p) exactly: the quotient has a few digits more than the integer at
 * most, far within the 40 digits of precision, and decimal.js multiplies in a fraction of the time
 * it divides (price.prop.test.ts compares the two digit for digit).
 */
const INVERSE_SCALES: readonly Decimal[] = Object.freeze(POW10.map((_, p) => new Decimal(`1e-${p}`)));
const HALF_INVERSE_SCALES: readonly Decimal[] = Object.freeze(POW10.map((_, p) => new Decimal(`5e-${p + 1}`)));

/** A price on the integer grid as a Decimal: value / 10^precision. */
export function priceIntToDecimal(value: number, precision: number): Decimal {
  const inverse = INVERSE_SCALES[precision];
  if (inverse === undefined) throw new Error(`precision out of range: ${precision}`);
  return new Decimal(value).times(inverse);
}

/** The mid of two grid prices given as their sum, as a Decimal: sum / (2 x 10^precision). */
export function priceMidToDecimal(sum: number, precision: number): Decimal {
  const half = HALF_INVERSE_SCALES[precision];
  if (half === undefined) throw new Error(`precision out of range: ${precision}`);
  return new Decimal(sum).times(half);
}

/**
 * A non-negative decimal price string onto the integer grid of `precision` decimals, without
 * building a Decimal: "1.10100" at 5 -> 110100. Null when the text is not a plain decimal, is
 * negative, or has non-zero digits beyond `precision` ("1.101000" is fine, "1.123456" is not).
 */
export function parsePriceInt(text: string, precision: number): number | null {
  // Prices are never negative; everything else is the scaled-integer parser's job.
  return text.charCodeAt(0) === 45 /* - */ ? null : parseScaled(text, precision);
}

/**
 * A price a request has already checked (on the grid, not negative) onto the integer grid: the
 * fast parser, or decimal.js for text too long for it. Throws for text off the grid.
 */
export function priceTextToInt(text: string, precision: number): number {
  const value = parsePriceInt(text, precision) ?? decimalToPriceInt(new Decimal(text), precision);
  if (value === null) throw new Error(`price ${text} is off the grid of ${precision} decimals`);
  return value;
}

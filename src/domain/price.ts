import { Decimal } from './decimal.js';

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
  const negative = value < 0;
  let digits = String(Math.abs(value));
  if (precision === 0) return negative ? `-${digits}` : digits;
  if (digits.length <= precision) digits = '0'.repeat(precision - digits.length + 1) + digits;
  const cut = digits.length - precision;
  const s = `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  return negative ? `-${s}` : s;
}

/** Decimal price to the integer grid, or null when it carries more precision than allowed. */
export function decimalToPriceInt(value: Decimal, precision: number): number | null {
  const scaled = value.times(scaleOf(precision));
  if (!scaled.isInteger()) return null;
  return scaled.toNumber();
}

export function priceIntToDecimal(value: number, precision: number): Decimal {
  return new Decimal(value).dividedBy(scaleOf(precision));
}

/**
 * A non-negative decimal price string onto the integer grid of `precision` decimals, without
 * building a Decimal: "1.10100" at 5 -> 110100. Null when the text is not a plain decimal, is
 * negative, or has non-zero digits beyond `precision` ("1.101000" is fine, "1.123456" is not).
 */
export function parsePriceInt(text: string, precision: number): number | null {
  const n = text.length;
  if (n === 0 || n > 40) return null;
  let i = 0;
  if (text.charCodeAt(0) === 43 /* + */) i = 1;
  let value = 0;
  let digits = 0;
  for (; i < n; i += 1) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    value = value * 10 + c;
    digits += 1;
  }
  let decimals = 0;
  if (i < n) {
    if (text.charCodeAt(i) !== 46 /* . */) return null;
    i += 1;
    for (; i < n; i += 1) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return null;
      digits += 1;
      if (decimals < precision) {
        value = value * 10 + c;
        decimals += 1;
      } else if (c !== 0) {
        return null;
      }
    }
  }
  if (digits === 0) return null;
  for (; decimals < precision; decimals += 1) value *= 10;
  return Number.isSafeInteger(value) ? value : null;
}

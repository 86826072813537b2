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

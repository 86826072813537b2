import { Decimal as DecimalBase } from 'decimal.js';

/**
 * The one Decimal constructor of the project. A private clone so a user's global decimal.js
 * settings can never change our arithmetic (determinism), with enough precision that products of
 * units, prices and conversion factors are exact before the final rounding.
 */
export const Decimal = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Decimal = InstanceType<typeof Decimal>;

export const ZERO = new Decimal(0);

/** v20 DecimalNumber on the wire: optional sign, digits, optional fraction. No exponent, no spaces. */
const DECIMAL_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && DECIMAL_RE.test(value);
}

export function parseDecimal(value: string): Decimal | null {
  return isDecimalString(value) ? new Decimal(value) : null;
}

/** Number of digits after the decimal point as written (trailing zeros count: "1.10" has 2). */
export function writtenDecimals(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** Significant decimals: "1.10000" has 1. Precision checks use this so "1.10000" is fine at 1 dp. */
export function significantDecimals(value: Decimal): number {
  return value.decimalPlaces();
}

/** AccountUnits as OANDA prints them for fiat accounts: 4 decimals, half-up. */
export function formatAccountUnits(value: Decimal): string {
  const fast = exactFixed(value, 4);
  if (fast !== undefined) return fast;
  const s = value.toFixed(4);
  return s === '-0.0000' ? '0.0000' : s;
}

export function formatFixed(value: Decimal, decimals: number): string {
  const fast = exactFixed(value, decimals);
  if (fast !== undefined) return fast;
  const s = value.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Units as v20 prints them: no trailing fraction for whole units ("10000", "-5", "0.01"). */
export function formatUnits(value: Decimal): string {
  if (value.isZero()) return '0';
  // Between toExpNeg and toExpPos, toString prints the same digits as toFixed() without its rounding step.
  return value.e < PLAIN_EXPONENT_MAX && value.e > -PLAIN_EXPONENT_MAX ? value.toString() : value.toFixed();
}

/** Exponents (either sign) inside which toString prints plain digits (toExpNeg -40 and toExpPos 40 above, with margin). */
const PLAIN_EXPONENT_MAX = 30;
const PADDING = ['', '0', '00', '000', '0000', '00000', '000000', '0000000', '00000000'];

/**
 * toFixed(decimals) of a value that needs no rounding (at most `decimals` decimal places), from
 * toString padded with zeros: the same text without decimal.js's copy-and-round, which is most of
 * the cost of printing an amount (decimal.prop.test.ts compares the two). Undefined when the value
 * needs rounding or toString would not print plain digits. Zero of either sign prints unsigned.
 */
function exactFixed(value: Decimal, decimals: number): string | undefined {
  const places = value.decimalPlaces();
  if (!(places <= decimals) || decimals >= PADDING.length || !(value.e < PLAIN_EXPONENT_MAX)) return undefined;
  const text = value.isZero() ? '0' : value.toString();
  if (decimals === 0) return text;
  return places === 0 ? `${text}.${PADDING[decimals] as string}` : text + (PADDING[decimals - places] as string);
}

/** Distinct strings a DecimalMemo keeps before it starts over (a bound, not a tuning knob). */
const MEMO_MAX = 4096;

/**
 * Decimals of wire strings, shared between callers: Decimals are immutable, and the same unit
 * counts and prices recur on every fill. One per account (AccountMemo), never per module.
 */
export class DecimalMemo {
  private readonly parsed = new Map<string, Decimal>();

  of(text: string): Decimal {
    let d = this.parsed.get(text);
    if (d === undefined) {
      d = new Decimal(text);
      if (this.parsed.size >= MEMO_MAX) this.parsed.clear();
      this.parsed.set(text, d);
    }
    return d;
  }
}

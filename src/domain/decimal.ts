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
  const s = value.toFixed(4);
  return s === '-0.0000' ? '0.0000' : s;
}

export function formatFixed(value: Decimal, decimals: number): string {
  const s = value.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Units as v20 prints them: no trailing fraction for whole units ("10000", "-5", "0.01"). */
export function formatUnits(value: Decimal): string {
  return value.isZero() ? '0' : value.toFixed();
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

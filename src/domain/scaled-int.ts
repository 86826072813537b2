/**
 * Exact decimal arithmetic on safe integers: a value is an integer n standing for n / 10^d. The
 * fill path uses it when every operand is a whole number of units or price points and the quote
 * currency is the account currency, so no Decimal is needed; every result must print exactly as
 * the decimal.js route prints it (see scaled-int.prop.test.ts). Callers check that products stay
 * safe integers and fall back to decimal.js otherwise.
 */

/** 10^0 .. 10^15: every power of ten that is a safe integer beyond doubt. */
const POW10: readonly number[] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** 10^k for 0 <= k <= 15, NaN otherwise (so a product with it fails the safe-integer check). */
export function pow10(k: number): number {
  return POW10[k] ?? Number.NaN;
}

/**
 * n / d rounded half away from zero, as decimal.js ROUND_HALF_UP does, for a safe integer n and
 * a positive safe integer d. Exact: `%` and the division of a multiple of d are exact on doubles.
 */
export function divRoundHalfUp(n: number, d: number): number {
  const r = n % d;
  const q = (n - r) / d;
  if (2 * Math.abs(r) >= d) return n < 0 ? q - 1 : q + 1;
  return q === 0 ? 0 : q; // never -0
}

/**
 * n, a count of 10^-decimals, as a count of 10^-4 (AccountUnits' precision), rounded half up when
 * it has more decimals; not a safe integer when the result would leave them (callers check).
 */
export function toAccountUnits(n: number, decimals: number): number {
  return decimals >= 4 ? divRoundHalfUp(n, pow10(decimals - 4)) : n * pow10(4 - decimals);
}

/** "0", "0.0", "0.00" ... : zero at each precision, one shared string each. */
const ZEROS: readonly string[] = Array.from({ length: 16 }, (_, d) => (d === 0 ? '0' : `0.${'0'.repeat(d)}`));

/**
 * The integer n as n / 10^decimals with exactly `decimals` fraction digits, like Decimal#toFixed;
 * zero prints without a sign ("0.0000", never "-0.0000"), as formatAccountUnits and formatFixed do.
 */
export function formatScaled(n: number, decimals: number): string {
  if (n === 0) return ZEROS[decimals] ?? `0.${'0'.repeat(decimals)}`;
  const negative = n < 0;
  let digits = String(negative ? -n : n);
  if (decimals === 0) return negative ? `-${digits}` : digits;
  if (digits.length <= decimals) digits = '0'.repeat(decimals - digits.length + 1) + digits;
  const cut = digits.length - decimals;
  const s = `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  return negative ? `-${s}` : s;
}

/**
 * A DecimalNumber string (optional sign, digits, optional fraction) as an integer count of
 * 10^-decimals: "-12.5" at 4 -> -125000. Null when it is malformed, carries non-zero digits
 * beyond `decimals`, or does not fit a safe integer.
 */
export function parseScaled(text: string, decimals: number): number | null {
  const n = text.length;
  if (n === 0 || n > 40) return null;
  let i = 0;
  let negative = false;
  const first = text.charCodeAt(0);
  if (first === 45 /* - */) {
    negative = true;
    i = 1;
  } else if (first === 43 /* + */) {
    i = 1;
  }
  let value = 0;
  let digits = 0;
  for (; i < n; i += 1) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    value = value * 10 + c;
    digits += 1;
  }
  let fraction = 0;
  if (i < n) {
    if (text.charCodeAt(i) !== 46 /* . */) return null;
    i += 1;
    for (; i < n; i += 1) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return null;
      digits += 1;
      if (fraction < decimals) {
        value = value * 10 + c;
        fraction += 1;
      } else if (c !== 0) {
        return null;
      }
    }
  }
  if (digits === 0) return null;
  for (; fraction < decimals; fraction += 1) value *= 10;
  if (!Number.isSafeInteger(value)) return null;
  return negative && value !== 0 ? -value : value;
}

/** The number of digits after the point of a plain decimal string as written ("0.050" has 3). */
export function fractionDigits(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

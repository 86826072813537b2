/**
 * The realized P/L of an account or of a position side. Every amount a fill realizes is printed
 * in account units (4 decimals), so the sum is kept as a safe integer of 10^-4 while the amounts
 * have at most 4 decimals and it fits, and the Decimal is made when first read after a change
 * (plOf): a close adds an integer instead of doing a decimal.js addition for the side and another
 * for the account, and the views print the integer without a Decimal at all. A journal amount
 * with more decimals, or a sum past 2^53, turns the holder to Decimals for good.
 *
 * v20's resettablePL is the P/L since its last reset (resettablePLTime); nothing here resets it,
 * so it is the P/L and is printed from the same sum.
 */
import { Decimal, ZERO, formatAccountUnits } from '../domain/decimal.js';
import { formatScaled, parseScaled } from '../domain/scaled-int.js';
import type { DecimalMemo } from '../domain/decimal.js';

export const PL_DECIMALS = 4;

export interface RealizedPL {
  /** The realized P/L; undefined until read after a change the integer kept (plOf). */
  pl: Decimal | undefined;
  /** pl in units of 10^-4 as a safe integer; NaN when the Decimal is the sum. */
  plInt: number;
}

/** The realized P/L as a Decimal. */
export function plOf(holder: RealizedPL): Decimal {
  return (holder.pl ??= holder.plInt === 0 ? ZERO : new Decimal(formatScaled(holder.plInt, PL_DECIMALS)));
}

/** The realized P/L as v20 prints it (formatAccountUnits). */
export function plText(holder: RealizedPL): string {
  return Number.isNaN(holder.plInt) ? formatAccountUnits(plOf(holder)) : formatScaled(holder.plInt, PL_DECIMALS);
}

/** Whether two records (the live one, a view's copy) hold the same realized P/L. */
export function samePL(a: RealizedPL, b: RealizedPL): boolean {
  return a.plInt === b.plInt || (Number.isNaN(a.plInt) && Number.isNaN(b.plInt) && a.pl === b.pl);
}

/** Adds an amount a fill realized (its text as the fill printed it). */
export function addRealized(holder: RealizedPL, text: string, decimals: DecimalMemo): void {
  if (!Number.isNaN(holder.plInt)) {
    const amount = parseScaled(text, PL_DECIMALS);
    const sum = amount === null ? Number.NaN : holder.plInt + amount;
    if (Number.isSafeInteger(sum)) {
      holder.plInt = sum;
      holder.pl = undefined;
      return;
    }
  }
  const sum = plOf(holder);
  const amount = decimals.of(text);
  holder.pl = sum.isZero() ? amount : sum.plus(amount);
  holder.plInt = Number.NaN;
}

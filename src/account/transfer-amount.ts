/**
 * What TRANSFER_FUNDS accepts, in a module of its own: the backtest command checks an opening
 * balance with it before it loads the account layer.
 */
import { Decimal, isDecimalString } from '../domain/decimal.js';
import { LIMITS } from '../domain/limits.js';

/** A non-zero decimal of at most 4 places (account units) and at most LIMITS.transferAmountMax. */
export function isTransferAmount(amount: unknown): amount is string {
  if (!isDecimalString(amount)) return false;
  const value = new Decimal(amount);
  return !value.isZero() && value.decimalPlaces() <= 4 && value.abs().lessThanOrEqualTo(LIMITS.transferAmountMax);
}

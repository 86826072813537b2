import { V20Error, invalidValue } from '../v3/errors.js';

/** The v20 name of the path parameter that follows each path segment (the routes' parameters). */
const PARAMETER_AFTER: Readonly<Record<string, string>> = {
  accounts: 'accountID',
  instruments: 'instrument',
  orders: 'orderSpecifier',
  trades: 'tradeSpecifier',
  positions: 'instrument',
  transactions: 'transactionID',
  journal: 'accountID',
};

/**
 * A path parameter longer than the router takes. v20 names the parameter: a malformed account ID
 * is 400 "Invalid value specified for 'accountID'" (facts sheet, error table), and a longer one is
 * no better formed; a 414 would be an answer v20 never gives.
 */
export function parameterTooLong(url: string, maxLength: number): V20Error {
  const segments = (url.split('?')[0] ?? '').split('/');
  let at = segments.findIndex((s) => s.length > maxLength);
  if (at < 0) at = segments.reduce((best, s, i) => (s.length > (segments[best]?.length ?? 0) ? i : best), 0);
  return invalidValue(PARAMETER_AFTER[segments[at - 1] ?? ''] ?? 'path');
}

/** A request URL the router cannot read (bad percent-encoding). */
export const BAD_URL = (): V20Error => new V20Error(400, { errorMessage: 'The request URL is not valid' });

/** A v20 error answer: the HTTP status and the `{errorMessage, errorCode?, ...}` body v20 sends. */
export class V20Error extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body['errorMessage'] ?? 'error'));
  }
}

export function invalidValue(field: string): V20Error {
  return new V20Error(400, { errorMessage: `Invalid value specified for '${field}'` });
}

export const UNAUTHORIZED = (): V20Error => new V20Error(401, { errorMessage: 'Insufficient authorization to perform request.' });
export const FORBIDDEN = (): V20Error => new V20Error(403, { errorMessage: 'The provided request was forbidden.' });
export const NO_ACCOUNT = (): V20Error => new V20Error(404, { errorMessage: 'The specified Account does not exist.' });
export const METHOD_NOT_ALLOWED = (): V20Error =>
  new V20Error(405, { errorMessage: 'The method is not allowed for the requested resource.' });
export const NOT_FOUND = (): V20Error => new V20Error(404, { errorMessage: 'The requested resource was not found.' });
export const RANGE_NOT_SATISFIABLE = (message = 'The requested range cannot be satisfied.'): V20Error =>
  new V20Error(416, { errorMessage: message });
export const COUNT_EXCEEDED = (): V20Error => new V20Error(400, { errorMessage: "Maximum value for 'count' exceeded" });

/** 404 for an order, trade or transaction ID that names nothing, as v20 words each. */
export function noSuch(kind: 'ORDER' | 'TRADE' | 'TRANSACTION', lastTransactionID: number): V20Error {
  const message = {
    ORDER: 'The order ID specified does not exist',
    TRADE: 'The Trade ID specified does not exist',
    TRANSACTION: 'The Transaction ID specified does not exist',
  }[kind];
  return new V20Error(404, { errorCode: `NO_SUCH_${kind}`, errorMessage: message, lastTransactionID: String(lastTransactionID) });
}

import { Type, type TObject, type TSchema } from 'typebox';

/**
 * Response schemas: the top-level keys of each success body, in the order the v3 operations write
 * them; values are the v20 views' (checked against OANDA's definitions by the contract tests), and
 * any key not listed is allowed (additionalProperties), so a schema never drops a field.
 *
 * They are serialized with JSON.stringify, not compiled with fast-json-stringify: with the values
 * opaque, the compiled serializer calls JSON.stringify per key and was 10-18% slower per request
 * (GET summary, POST orders; measured interleaved in one process) and 75 ms slower to build.
 */
export function serializerCompiler(): (data: unknown) => string {
  return (data) => JSON.stringify(data);
}

function body(...keys: string[]): TObject {
  const properties: Record<string, TSchema> = {};
  for (const key of keys) properties[key] = Type.Optional(Type.Unknown());
  return Type.Object(properties, { additionalProperties: true });
}

/** Transactions under their v20 response keys, in the order the account decided them, then the IDs. */
export const OutcomeBody = body();

export const AccountsBody = body('accounts');
export const AccountBody = body('account', 'lastTransactionID');
export const InstrumentsBody = body('instruments', 'lastTransactionID');
export const ChangesBody = body('changes', 'state', 'lastTransactionID');
export const OrdersBody = body('orders', 'lastTransactionID');
export const OrderBody = body('order', 'lastTransactionID');
export const TradesBody = body('trades', 'lastTransactionID');
export const TradeBody = body('trade', 'lastTransactionID');
export const PositionsBody = body('positions', 'lastTransactionID');
export const PositionBody = body('position', 'lastTransactionID');
export const TransactionPagesBody = body('from', 'to', 'pageSize', 'type', 'count', 'pages', 'lastTransactionID');
export const TransactionsBody = body('transactions', 'lastTransactionID');
export const TransactionBody = body('transaction', 'lastTransactionID');
export const PricingBody = body('prices', 'homeConversions', 'time');
export const CandlesBody = body('instrument', 'granularity', 'candles');
export const LatestCandlesBody = body('latestCandles');
export const OrderBookBody = body('orderBook');
export const PositionBookBody = body('positionBook');
export const ResetBody = body('transactions', 'relatedTransactionIDs', 'account', 'lastTransactionID');
export const PushedBody = body('pushed', 'time');
export const ClockBody = body('time');

/** `{ response: { 200: schema } }` (or 201). */
export function ok(schema: TObject, status: 200 | 201 = 200): { [status: number]: TObject } {
  return { [status]: schema };
}

import { Type, type TObject, type TSchema } from 'typebox';

/**
 * Response schemas: the top-level keys of each success body, in the order the v3 operations write
 * them. Fastify's serializer writes listed keys in schema order, so the order here is the order
 * on the wire; values are left to JSON (their shapes are the v20 views'), and any key not listed
 * is still written, after the listed ones (additionalProperties), so nothing can be dropped.
 */
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
export const ResetBody = body('transactions', 'relatedTransactionIDs', 'account', 'lastTransactionID');
export const PushedBody = body('pushed', 'time');
export const ClockBody = body('time');

/** `{ response: { 200: schema } }` (or 201). */
export function ok(schema: TObject, status: 200 | 201 = 200): { [status: number]: TObject } {
  return { [status]: schema };
}

import { Type, type TObject, type TSchema } from 'typebox';
import { jsonString, shapedJson } from '../domain/transaction-json.js';

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
  return serializeBody;
}

/**
 * The JSON of frozen values (the account layer's cached views, shared between requests until a
 * transaction or a quote changes them), kept per object: a frozen object never changes, so its
 * text does not either, and GET summary answers a repeated request without printing the account.
 */
const FROZEN_JSON = new WeakMap<object, string>();

/** An object's JSON: a frozen one's text is kept (FROZEN_JSON), any other is printed. */
function objectJson(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let text = FROZEN_JSON.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    FROZEN_JSON.set(value, text);
  }
  return text;
}

const hasToJson = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';

/**
 * JSON.stringify(body), byte for byte, with each frozen top-level value's text reused, and a
 * frozen body's whole text (the cached GET summary body). A value the core built in its shape's
 * order (a transaction) prints through its shape's serializer without asking it for a toJSON
 * method: it has none, and the look-up on objects of many shapes cost more than the printing of
 * the keys around it.
 */
export function serializeBody(body: unknown): string {
  if (
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    Object.getPrototypeOf(body) !== Object.prototype ||
    hasToJson(body)
  )
    return JSON.stringify(body);
  if (Object.isFrozen(body)) return objectJson(body);
  const record = body as Record<string, unknown>;
  let out = '';
  for (const key of Object.keys(record)) {
    const value = record[key];
    let text: string | undefined;
    if (typeof value === 'string') text = jsonString(value);
    else if (typeof value !== 'object' || value === null) text = JSON.stringify(value);
    else if (Array.isArray(value) && !hasToJson(value)) text = arrayJson(value);
    else {
      // A transaction the core built in its shape's order prints through the shape's serializer
      // (the journal's), and is not kept: it is answered once.
      text = shapedJson(value);
      if (text === undefined) {
        // A toJSON method is passed its key, which a value printed alone would not give it.
        if (hasToJson(value)) return JSON.stringify(body);
        text = objectJson(value);
      }
    }
    // As JSON.stringify: keys whose value has no JSON (undefined, a function) are left out.
    if (text === undefined) continue;
    out += `${out === '' ? '{' : ','}${jsonString(key)}:${text}`;
  }
  return out === '' ? '{}' : `${out}}`;
}

/**
 * An array as JSON.stringify prints it (a frozen one's whole text kept); one of strings or led by
 * a frozen object element by element, where that prints the same: strings
 * (relatedTransactionIDs, tradeIDs) and plain objects without a toJSON method, a frozen one's text
 * kept (the API's kept candle views: a polled candle is printed once). Any other element (a
 * number, an array, a value with a toJSON method, which would be passed its index) prints the
 * whole array through JSON.stringify.
 */
function arrayJson(values: readonly unknown[]): string {
  if (Object.isFrozen(values)) return objectJson(values);
  // Objects not frozen print faster in one JSON.stringify call than one call each (500 trades: 230 µs against 350).
  const head = values[0];
  if (typeof head === 'object' && head !== null && !Object.isFrozen(head)) return JSON.stringify(values);
  let out = '[';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    let text: string;
    if (typeof value === 'string') text = jsonString(value);
    else if (isPlainObject(value)) text = objectJson(value);
    else return JSON.stringify(values);
    out += i === 0 ? text : `,${text}`;
  }
  return `${out}]`;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !hasToJson(value);
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

import { Type, type TLiteral, type TUnion } from 'typebox';
import { REQUEST_POSITION_FILL, REQUEST_TRIGGER_CONDITION } from '../domain/enum-spelling.js';
import { ORDER_STATE_FILTER, ORDER_TYPES, TIME_IN_FORCE } from '../domain/order-types.js';
import { QUERY_BOOL_PATTERN } from '../v3/query-bool.js';

/**
 * Request shapes. A value of the wrong JSON type, an unknown enum or a non-numeric decimal is
 * malformed input: the schema stops it with v20's 400 "Invalid value specified for '<field>'" and
 * nothing reaches the account. Well-formed values that break a trading rule (units 0, too much
 * precision) pass here and become reject transactions in the core.
 */
const DECIMAL_PATTERN = '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$';
export const Decimal = Type.String({ pattern: DECIMAL_PATTERN, maxLength: 64 });
const AccountIdPattern = '^\\d{3}-\\d{3}-\\d{1,12}-\\d{3}$';
export const InstrumentName = Type.String({ pattern: '^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$' });
/** The `instrument` filter of GET orders and GET trades: one name, or several separated by commas (as oandapyV20 sends). */
export const InstrumentFilter = Type.String({
  pattern: '^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}(,[A-Z0-9]{2,10}_[A-Z0-9]{2,10})*$',
  maxLength: 10_000,
});
/** Order or trade ID, or '@' + client ID. */
export const Specifier = Type.String({ minLength: 1, maxLength: 130, pattern: '^([1-9]\\d{0,15}|@.{1,128})$' });
export const TransactionId = Type.String({ pattern: '^[1-9]\\d{0,15}$' });
/** A boolean query parameter: true or false in any capitalisation (v3/query-bool.ts). */
export const QueryBool = Type.String({ pattern: QUERY_BOOL_PATTERN });

/** A union of string literals whose static type is the list's own (so handlers see e.g. 'PENDING' | ...). */
function literals<T extends string>(values: readonly T[]): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((v) => Type.Literal(v)));
}

const TimeInForce = literals(TIME_IN_FORCE);
/** v20's values and the Order resource's POSITION_DEFAULT / TRIGGER_DEFAULT, read as DEFAULT (domain/enum-spelling.ts). */
const PositionFill = literals(REQUEST_POSITION_FILL);
const TriggerCondition = literals(REQUEST_TRIGGER_CONDITION);
const OrderTypeName = literals(ORDER_TYPES);
/** The `state` query of GET orders (v20 OrderStateFilter). */
export const OrderStateFilter = literals(ORDER_STATE_FILTER);

/** v20's three fields; other keys are ignored (the core keeps only these three). */
export const ClientExtensions = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 1000 })),
  tag: Type.Optional(Type.String({ maxLength: 1000 })),
  comment: Type.Optional(Type.String({ maxLength: 1000 })),
});

const DateTimeText = Type.String({ minLength: 1, maxLength: 40 });

const OnFillCommon = {
  timeInForce: Type.Optional(TimeInForce),
  gtdTime: Type.Optional(DateTimeText),
  clientExtensions: Type.Optional(ClientExtensions),
};

export const TakeProfitDetails = Type.Object({ price: Type.Optional(Decimal), ...OnFillCommon });
export const StopLossDetails = Type.Object({ price: Type.Optional(Decimal), distance: Type.Optional(Decimal), ...OnFillCommon });
export const TrailingStopLossDetails = Type.Object({ distance: Type.Optional(Decimal), ...OnFillCommon });

const OrderRequest = Type.Object({
  type: OrderTypeName,
  instrument: Type.Optional(InstrumentName),
  units: Type.Optional(Decimal),
  price: Type.Optional(Decimal),
  distance: Type.Optional(Decimal),
  priceBound: Type.Optional(Decimal),
  timeInForce: Type.Optional(TimeInForce),
  gtdTime: Type.Optional(DateTimeText),
  positionFill: Type.Optional(PositionFill),
  triggerCondition: Type.Optional(TriggerCondition),
  tradeID: Type.Optional(TransactionId),
  clientTradeID: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  clientExtensions: Type.Optional(ClientExtensions),
  tradeClientExtensions: Type.Optional(ClientExtensions),
  takeProfitOnFill: Type.Optional(TakeProfitDetails),
  stopLossOnFill: Type.Optional(StopLossDetails),
  trailingStopLossOnFill: Type.Optional(TrailingStopLossDetails),
});

export const OrderBody = Type.Object({ order: OrderRequest });

/**
 * The accountID path parameter. The auth hook (plugins/auth.ts) checks it on every
 * /v3/accounts/{accountID} request before validation, with v20's wording and the same pattern, so
 * routes whose only parameter it is declare no params schema (it would check it again on every
 * request); routes with more parameters reuse its property.
 */
export const AccountParams = Type.Object({ accountID: Type.String({ pattern: AccountIdPattern }) });

/** Headers every account-scoped endpoint reads; the values are checked in hooks for v20 wording. */
export const CountQuery = Type.String({ pattern: '^\\d{1,9}$' });

/**
 * The v20 order types and their rules, one row per type. Request checks, the TypeBox literals of
 * the API, the order lifecycle, fill reasons and the strategy-facing types all derive from here, so
 * an order type or a rule is added in one place. Values are OANDA's own
 * (spec/oanda-v20-openapi.json definitions TimeInForce, OrderPositionFill, OrderTriggerCondition,
 * OrderState, OrderFillReason, CancellableOrderType and the *OrderRequest objects;
 * spec/oanda-v20-facts.md, "Order request fields by type" and "Fill rules").
 */
import { deepFreeze } from './deep-freeze.js';

/** v20 TimeInForce. */
export const TIME_IN_FORCE = ['GTC', 'GTD', 'GFD', 'FOK', 'IOC'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

/** v20 OrderPositionFill. */
export const POSITION_FILL = ['DEFAULT', 'OPEN_ONLY', 'REDUCE_FIRST', 'REDUCE_ONLY'] as const;
export type PositionFill = (typeof POSITION_FILL)[number];

/** v20 OrderTriggerCondition: which quote a resting order watches (fills always take the default side). */
export const TRIGGER_CONDITION = ['DEFAULT', 'INVERSE', 'BID', 'ASK', 'MID'] as const;
export type TriggerCondition = (typeof TRIGGER_CONDITION)[number];

/**
 * v20 OrderState as it appears on the wire. TRIGGERED is a valid value (and a valid filter) but no
 * order of these types is ever seen in it: see orders/lifecycle.ts.
 */
export const ORDER_STATE = ['PENDING', 'FILLED', 'TRIGGERED', 'CANCELLED'] as const;
export type V20OrderState = (typeof ORDER_STATE)[number];

/** v20 OrderStateFilter (the `state` query of GET orders). */
export const ORDER_STATE_FILTER = [...ORDER_STATE, 'ALL'] as const;
export type OrderStateFilter = (typeof ORDER_STATE_FILTER)[number];

/** v20 OrderFillReason: an order type's own, or a MARKET order's special purpose. */
export const ORDER_FILL_REASON = [
  'LIMIT_ORDER',
  'STOP_ORDER',
  'MARKET_IF_TOUCHED_ORDER',
  'TAKE_PROFIT_ORDER',
  'STOP_LOSS_ORDER',
  'TRAILING_STOP_LOSS_ORDER',
  'MARKET_ORDER',
  'MARKET_ORDER_TRADE_CLOSE',
  'MARKET_ORDER_POSITION_CLOSEOUT',
  'MARKET_ORDER_MARGIN_CLOSEOUT',
  'MARKET_ORDER_DELAYED_TRADE_CLOSE',
] as const;
export type OrderFillReason = (typeof ORDER_FILL_REASON)[number];

/** Time in force of the orders created on fill (TakeProfitDetails, StopLossDetails, ...). */
export const ON_FILL_TIME_IN_FORCE = ['GTC', 'GTD', 'GFD'] as const satisfies readonly TimeInForce[];
export const ON_FILL_DEFAULT_TIME_IN_FORCE = 'GTC' satisfies TimeInForce;

/**
 * When a resting order fires. BETTER: at its price or better (a buy at or below, a sell at or
 * above). WORSE: at its price or worse, against the position. TOUCHED: when the market reaches its
 * price from the side it stood on at creation (initialMarketPrice). TRAILING: as WORSE, with a
 * threshold `distance` away from the market that follows it in the winning direction only.
 */
export type TriggerRule = 'BETTER' | 'WORSE' | 'TOUCHED' | 'TRAILING';

/** What a request gives the trigger threshold with: a price, a distance, or exactly one of the two. */
export type Threshold = 'PRICE' | 'DISTANCE' | 'PRICE_OR_DISTANCE';

export interface OrderTypeRule {
  /** ENTRY orders open or reduce positions (instrument, units, positionFill, on-fill orders); DEPENDENT orders close one trade (tradeID). */
  readonly kind: 'ENTRY' | 'DEPENDENT';
  /** The creating transaction's type; its reject is this plus `_REJECT`. */
  readonly transactionType: string;
  /** The ORDER_FILL reason when the order itself fills. */
  readonly fillReason: OrderFillReason;
  readonly timeInForce: readonly TimeInForce[];
  readonly defaultTimeInForce: TimeInForce;
  readonly threshold: Threshold | null;
  /** Accepts priceBound (the worst fill price; beyond it the fill is cancelled with BOUNDS_VIOLATION). */
  readonly priceBound: boolean;
  /** Accepts triggerCondition: the order rests and watches a quote until `trigger` fires. */
  readonly triggerCondition: boolean;
  readonly trigger: TriggerRule | null;
  /**
   * A client may cancel, replace or modify it (v20 CancellableOrderType). A MARKET order is filled
   * or cancelled in the batch that creates it, so a client never finds it pending.
   */
  readonly cancellable: boolean;
}

const RESTING_TIME_IN_FORCE = ['GTC', 'GTD', 'GFD'] as const satisfies readonly TimeInForce[];

/** The table. Row order is v20's OrderType order; rows are frozen. */
export const ORDER_TYPE_RULES = deepFreeze({
  MARKET: {
    kind: 'ENTRY',
    transactionType: 'MARKET_ORDER',
    fillReason: 'MARKET_ORDER',
    timeInForce: ['FOK', 'IOC'],
    defaultTimeInForce: 'FOK',
    threshold: null,
    priceBound: true,
    triggerCondition: false,
    trigger: null,
    cancellable: false,
  },
  LIMIT: {
    kind: 'ENTRY',
    transactionType: 'LIMIT_ORDER',
    fillReason: 'LIMIT_ORDER',
    timeInForce: ['GTC', 'GTD', 'GFD', 'FOK', 'IOC'],
    defaultTimeInForce: 'GTC',
    threshold: 'PRICE',
    priceBound: false,
    triggerCondition: true,
    trigger: 'BETTER',
    cancellable: true,
  },
  STOP: {
    kind: 'ENTRY',
    transactionType: 'STOP_ORDER',
    fillReason: 'STOP_ORDER',
    timeInForce: ['GTC', 'GTD', 'GFD', 'FOK', 'IOC'],
    defaultTimeInForce: 'GTC',
    threshold: 'PRICE',
    priceBound: true,
    triggerCondition: true,
    trigger: 'WORSE',
    cancellable: true,
  },
  MARKET_IF_TOUCHED: {
    kind: 'ENTRY',
    transactionType: 'MARKET_IF_TOUCHED_ORDER',
    fillReason: 'MARKET_IF_TOUCHED_ORDER',
    timeInForce: RESTING_TIME_IN_FORCE,
    defaultTimeInForce: 'GTC',
    threshold: 'PRICE',
    priceBound: true,
    triggerCondition: true,
    trigger: 'TOUCHED',
    cancellable: true,
  },
  TAKE_PROFIT: {
    kind: 'DEPENDENT',
    transactionType: 'TAKE_PROFIT_ORDER',
    fillReason: 'TAKE_PROFIT_ORDER',
    timeInForce: RESTING_TIME_IN_FORCE,
    defaultTimeInForce: 'GTC',
    threshold: 'PRICE',
    priceBound: false,
    triggerCondition: true,
    trigger: 'BETTER',
    cancellable: true,
  },
  STOP_LOSS: {
    kind: 'DEPENDENT',
    transactionType: 'STOP_LOSS_ORDER',
    fillReason: 'STOP_LOSS_ORDER',
    timeInForce: RESTING_TIME_IN_FORCE,
    defaultTimeInForce: 'GTC',
    threshold: 'PRICE_OR_DISTANCE',
    priceBound: false,
    triggerCondition: true,
    trigger: 'WORSE',
    cancellable: true,
  },
  TRAILING_STOP_LOSS: {
    kind: 'DEPENDENT',
    transactionType: 'TRAILING_STOP_LOSS_ORDER',
    fillReason: 'TRAILING_STOP_LOSS_ORDER',
    timeInForce: RESTING_TIME_IN_FORCE,
    defaultTimeInForce: 'GTC',
    threshold: 'DISTANCE',
    priceBound: false,
    triggerCondition: true,
    trigger: 'TRAILING',
    cancellable: true,
  },
} as const satisfies Readonly<Record<string, OrderTypeRule>>);

type Rules = typeof ORDER_TYPE_RULES;
export type OrderType = keyof Rules;
export type OrderTransactionType = Rules[OrderType]['transactionType'];
export type OrderRejectTransactionType = `${OrderTransactionType}_REJECT`;
export type EntryOrderType = { [T in OrderType]: Rules[T]['kind'] extends 'ENTRY' ? T : never }[OrderType];
export type DependentOrderType = Exclude<OrderType, EntryOrderType>;
/** The time-in-force values an order type accepts. */
export type TimeInForceOf<T extends OrderType> = Rules[T]['timeInForce'][number];

export const ORDER_TYPES: readonly OrderType[] = Object.freeze(Object.keys(ORDER_TYPE_RULES) as OrderType[]);

export function isOrderType(value: unknown): value is OrderType {
  return typeof value === 'string' && Object.hasOwn(ORDER_TYPE_RULES, value);
}

export function isEntryType(type: OrderType): type is EntryOrderType {
  return ORDER_TYPE_RULES[type].kind === 'ENTRY';
}

export function orderTransactionType<T extends OrderType>(type: T): Rules[T]['transactionType'] {
  return ORDER_TYPE_RULES[type].transactionType;
}

const TYPE_BY_TRANSACTION_TYPE: ReadonlyMap<string, OrderType> = new Map(
  ORDER_TYPES.flatMap((type) => {
    const transactionType = ORDER_TYPE_RULES[type].transactionType;
    return [
      [transactionType, type],
      [`${transactionType}_REJECT`, type],
    ] as const;
  }),
);

/** The order type a creation or reject transaction is about (LIMIT_ORDER and LIMIT_ORDER_REJECT -> LIMIT). */
export function orderTypeOfTransaction(transactionType: OrderTransactionType | OrderRejectTransactionType): OrderType {
  const type = TYPE_BY_TRANSACTION_TYPE.get(transactionType);
  if (type === undefined) throw new Error(`not an order transaction type: ${transactionType}`);
  return type;
}

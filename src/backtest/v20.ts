/**
 * The v20 objects a strategy sends and reads, typed for strategy authors. They describe the JSON
 * that the v3 API sends and accepts (decimals and prices as strings, DateTimes as RFC3339 strings),
 * so code written against them works the same in a backtest, against `v20sim serve` and against
 * OANDA. Only the fields v20sim produces are listed; OANDA may add more.
 */
import type { RequestPositionFill as PositionFill, RequestTriggerCondition as TriggerCondition } from '../domain/enum-spelling.js';
import type { DependentOrderType, EntryOrderType, OrderType, TimeInForceOf, V20OrderState } from '../domain/order-types.js';
import type { ClientExtensions, StopLossDetails, TakeProfitDetails, TrailingStopLossDetails } from '../domain/transactions.js';
import type { OrderRecord } from '../account/state.js';
import type { Granularity, Weekday } from '../v3/candles/granularity.js';

export type { ClientExtensions, StopLossDetails, TakeProfitDetails, TrailingStopLossDetails };

/** OrderRequest fields shared by the order types that open or reduce positions. */
interface EntryOrderFields<T extends EntryOrderType> {
  type: T;
  instrument: string;
  /** Signed: positive buys, negative sells. */
  units: string;
  /** The values v20 accepts for this order type (domain/order-types.ts). */
  timeInForce?: TimeInForceOf<T>;
  gtdTime?: string;
  positionFill?: PositionFill;
  clientExtensions?: ClientExtensions;
  takeProfitOnFill?: TakeProfitDetails;
  stopLossOnFill?: StopLossDetails;
  trailingStopLossOnFill?: TrailingStopLossDetails;
  tradeClientExtensions?: ClientExtensions;
}

export interface MarketOrderRequest extends EntryOrderFields<'MARKET'> {
  priceBound?: string;
}

export interface LimitOrderRequest extends EntryOrderFields<'LIMIT'> {
  price: string;
  triggerCondition?: TriggerCondition;
}

export interface StopOrderRequest extends EntryOrderFields<'STOP'> {
  price: string;
  priceBound?: string;
  triggerCondition?: TriggerCondition;
}

export interface MarketIfTouchedOrderRequest extends EntryOrderFields<'MARKET_IF_TOUCHED'> {
  price: string;
  priceBound?: string;
  triggerCondition?: TriggerCondition;
}

/** Dependent orders: they close (part of) one trade. */
interface DependentOrderFields<T extends DependentOrderType> {
  type: T;
  tradeID: string;
  clientTradeID?: string;
  timeInForce?: TimeInForceOf<T>;
  gtdTime?: string;
  triggerCondition?: TriggerCondition;
  clientExtensions?: ClientExtensions;
}

export interface TakeProfitOrderRequest extends DependentOrderFields<'TAKE_PROFIT'> {
  price: string;
}

export interface StopLossOrderRequest extends DependentOrderFields<'STOP_LOSS'> {
  price?: string;
  distance?: string;
}

export interface TrailingStopLossOrderRequest extends DependentOrderFields<'TRAILING_STOP_LOSS'> {
  distance: string;
}

/** The body element `order` of POST /orders and PUT /orders/{orderSpecifier}. */
export type V20OrderRequest =
  | MarketOrderRequest
  | LimitOrderRequest
  | StopOrderRequest
  | MarketIfTouchedOrderRequest
  | TakeProfitOrderRequest
  | StopLossOrderRequest
  | TrailingStopLossOrderRequest;

/**
 * The bookkeeping v20 adds to an order once it is filled, cancelled or replaced, typed as the
 * account keeps it (and the order view prints it).
 */
type OrderBookkeeping = Pick<
  OrderRecord,
  | 'replacedByOrderID'
  | 'fillingTransactionID'
  | 'filledTime'
  | 'tradeOpenedID'
  | 'tradeReducedID'
  | 'tradeClosedIDs'
  | 'cancellingTransactionID'
  | 'cancelledTime'
>;

/** An Order resource (GET /orders, /pendingOrders, /orders/{orderSpecifier}). */
export interface V20Order extends OrderBookkeeping {
  id: string;
  createTime: string;
  type: OrderType;
  state: V20OrderState;
  instrument?: string;
  units?: string;
  price?: string;
  distance?: string;
  priceBound?: string;
  tradeID?: string;
  clientTradeID?: string;
  timeInForce?: string;
  gtdTime?: string;
  positionFill?: string;
  triggerCondition?: string;
  partialFill?: string;
  initialMarketPrice?: string;
  takeProfitOnFill?: TakeProfitDetails;
  stopLossOnFill?: StopLossDetails;
  trailingStopLossOnFill?: TrailingStopLossDetails;
  trailingStopValue?: string;
  clientExtensions?: ClientExtensions;
  tradeClientExtensions?: ClientExtensions;
  replacesOrderID?: string;
}

/** A Trade resource (GET /trades, /openTrades, /trades/{tradeSpecifier}). */
export interface V20Trade {
  id: string;
  instrument: string;
  price: string;
  openTime: string;
  state: 'OPEN' | 'CLOSED';
  initialUnits: string;
  initialMarginRequired: string;
  currentUnits: string;
  realizedPL: string;
  unrealizedPL?: string;
  marginUsed?: string;
  averageClosePrice?: string;
  closingTransactionIDs?: string[];
  financing: string;
  /** Always "0.0000": no instrument of the catalogue pays dividends. */
  dividendAdjustment: string;
  closeTime?: string;
  clientExtensions?: ClientExtensions;
  takeProfitOrder?: V20Order;
  stopLossOrder?: V20Order;
  trailingStopLossOrder?: V20Order;
}

export interface V20PositionSide {
  units: string;
  averagePrice?: string;
  tradeIDs?: string[];
  pl: string;
  unrealizedPL: string;
  resettablePL: string;
  financing: string;
  dividendAdjustment: string;
  guaranteedExecutionFees: string;
}

/** A Position resource (GET /positions, /openPositions, /positions/{instrument}). */
export interface V20Position {
  instrument: string;
  long: V20PositionSide;
  short: V20PositionSide;
  pl: string;
  resettablePL: string;
  financing: string;
  commission: string;
  dividendAdjustment: string;
  guaranteedExecutionFees: string;
  unrealizedPL: string;
  marginUsed: string;
}

/** An AccountSummary (GET /accounts/{accountID}/summary). */
export interface V20AccountSummary {
  id: string;
  alias: string;
  currency: string;
  balance: string;
  createdByUserID: number;
  createdTime: string;
  guaranteedStopLossOrderMode: string;
  pl: string;
  resettablePL: string;
  resettablePLTime: string;
  financing: string;
  commission: string;
  /** Always "0" (v20 prints the account's total without decimals). */
  dividendAdjustment: string;
  guaranteedExecutionFees: string;
  marginRate?: string;
  openTradeCount: number;
  openPositionCount: number;
  pendingOrderCount: number;
  hedgingEnabled: boolean;
  unrealizedPL: string;
  NAV: string;
  marginUsed: string;
  marginAvailable: string;
  positionValue: string;
  marginCloseoutUnrealizedPL: string;
  marginCloseoutNAV: string;
  marginCloseoutMarginUsed: string;
  marginCloseoutPercent: string;
  marginCloseoutPositionValue: string;
  withdrawalLimit: string;
  marginCallMarginUsed: string;
  marginCallPercent: string;
  lastTransactionID: string;
}

/** An Account (GET /accounts/{accountID}): the summary plus open trades, positions and pending orders. */
export interface V20Account extends V20AccountSummary {
  trades: V20Trade[];
  positions: V20Position[];
  orders: V20Order[];
}

export interface V20PriceBucket {
  price: string;
  liquidity: number;
}

/** A ClientPrice (GET /pricing). */
export interface V20ClientPrice {
  type: 'PRICE';
  instrument: string;
  time: string;
  status: 'tradeable';
  tradeable: true;
  bids: V20PriceBucket[];
  asks: V20PriceBucket[];
  closeoutBid: string;
  closeoutAsk: string;
}

/** The query of GET /v3/instruments/{instrument}/candles (v20's names and defaults: S5, count 500, price M). */
export interface V20CandlesQuery {
  /** S5 (the default) to M. */
  granularity?: Granularity;
  /** Any of M (mid), B (bid), A (ask), e.g. "BA". */
  price?: string;
  count?: number | string;
  from?: string;
  to?: string;
  smooth?: boolean;
  includeFirst?: boolean;
  dailyAlignment?: number | string;
  alignmentTimezone?: string;
  weeklyAlignment?: Weekday;
}

/** Open, high, low and close of one side (decimal strings). */
export interface V20CandlestickData {
  o: string;
  h: string;
  l: string;
  c: string;
}

/** A v20 Candlestick; `complete` is false for the candle still forming at the simulated time. */
export interface V20Candlestick {
  time: string;
  volume: number;
  complete: boolean;
  mid?: V20CandlestickData;
  bid?: V20CandlestickData;
  ask?: V20CandlestickData;
}

/** The body of GET /v3/instruments/{instrument}/candles. */
export interface V20CandlesResponse {
  instrument: string;
  granularity: Granularity;
  candles: V20Candlestick[];
}

/** v20 Instrument (the API also sends guaranteedStopLossOrderMode, tags and financing). */
export interface V20Instrument {
  name: string;
  type: 'CURRENCY' | 'CFD' | 'METAL';
  displayName: string;
  pipLocation: number;
  displayPrecision: number;
  tradeUnitsPrecision: number;
  minimumTradeSize: string;
  maximumTrailingStopDistance: string;
  minimumTrailingStopDistance: string;
  maximumPositionSize: string;
  maximumOrderUnits: string;
  marginRate: string;
}

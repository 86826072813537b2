/**
 * The strategy interface. A strategy module default-exports a StrategyDefinition: a name, its
 * parameters with their defaults, and `create(params)`, which returns the hooks of one run with
 * fresh state. The hooks talk to the account through a StrategyContext whose operations are the
 * v3 API's, run in process: the same requests, the same transactions, the same v20 objects.
 *
 * Order of events within one run:
 *   onStart (clock at the first tick's time, no prices yet)
 *   for each tick: the quote reaches the account (fills, financing, expiries), then
 *                  onTransaction for each new transaction, then onTick;
 *                  transactions created by onTick are delivered right after it returns
 *   onEnd (clock at the last tick's time, prices of the last ticks)
 * onTransaction sees every transaction of the account in order, including the account's CREATE and
 * opening deposit and the ones the strategy's own requests created. Operations called from
 * onTransaction queue their transactions behind the ones being delivered.
 *
 * Hooks are synchronous: a hook that returns a Promise stops the run with an error.
 */
import type { Outcome } from '../account/commands.js';
import type { Tick } from '../domain/tick.js';
import type { Micros } from '../domain/time.js';
import type { OrderStateFilter } from '../domain/order-types.js';
import type { Transaction } from '../domain/transactions.js';
import type {
  ClientExtensions,
  StopLossDetails,
  TakeProfitDetails,
  TrailingStopLossDetails,
  V20Account,
  V20AccountSummary,
  V20CandlesQuery,
  V20CandlesResponse,
  V20ClientPrice,
  V20Instrument,
  V20Order,
  V20OrderRequest,
  V20Position,
  V20Trade,
} from './v20.js';

/**
 * What a strategy is handed of the run's log (transactions, Outcomes): frozen when the run
 * records it, so a write throws; read-only in its type, so TypeScript says so before it runs.
 */
export type Frozen<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** A parameter value: numbers, strings and booleans, as given on the command line or in a config file. */
export type ParamValue = number | string | boolean;

/** A strategy's parameters by name. */
export type StrategyParams = Readonly<Record<string, ParamValue>>;

export interface StrategyDefinition<P extends StrategyParams = StrategyParams> {
  /** Shown in reports and the summary. */
  readonly name: string;
  /**
   * Every parameter with its default. `--param k=v` and config files may set only these names;
   * values are read as the default's type (number, boolean or string).
   */
  readonly params: P;
  /**
   * The candles the strategy reads with `ctx.candles`, as `INSTRUMENT:GRANULARITY` ("EUR_USD:M5",
   * "USD_JPY:H4"): each is built from the run's quotes as they come, so only those declared are kept.
   */
  readonly candles?: readonly string[];
  /** One run's hooks with fresh state. Keep run state in the closure, never in module scope. */
  create(params: Readonly<P>): Strategy<P>;
}

export interface Strategy<P extends StrategyParams = StrategyParams> {
  onStart?(ctx: StrategyContext<P>): void;
  onTick?(tick: Tick, ctx: StrategyContext<P>): void;
  onTransaction?(transaction: Frozen<Transaction>, ctx: StrategyContext<P>): void;
  onEnd?(ctx: StrategyContext<P>): void;
}

/** Filters of GET /orders (v20 defaults: state PENDING, count 50, newest first). */
export interface OrderFilter {
  readonly state?: OrderStateFilter;
  readonly instrument?: string;
  /** 1..500, default 50. */
  readonly count?: number;
  readonly beforeID?: string;
  readonly ids?: readonly string[];
}

/** Filters of GET /trades (v20 defaults: state OPEN, count 50, newest first). */
export interface TradeFilter {
  readonly state?: 'OPEN' | 'CLOSED' | 'CLOSE_WHEN_TRADEABLE' | 'ALL';
  readonly instrument?: string;
  /** 1..500, default 50. */
  readonly count?: number;
  readonly beforeID?: string;
  readonly ids?: readonly string[];
}

/** Body of PUT /trades/{tradeSpecifier}/orders: details create or replace, null cancels, absent keeps. */
export interface TradeOrdersRequest {
  readonly takeProfit?: TakeProfitDetails | null;
  readonly stopLoss?: StopLossDetails | null;
  readonly trailingStopLoss?: TrailingStopLossDetails | null;
}

/** Body of PUT /positions/{instrument}/close: "ALL", "NONE" or a number of units per side. */
export interface ClosePositionRequest {
  readonly longUnits?: string;
  readonly shortUnits?: string;
  readonly longClientExtensions?: ClientExtensions;
  readonly shortClientExtensions?: ClientExtensions;
}

/**
 * The account, in process. Each write operation returns the engine's Outcome: the transactions it
 * created, the same transactions under their v20 response keys (`orderCreateTransaction`,
 * `orderFillTransaction`, `orderCancelTransaction`, `orderRejectTransaction`, ...), and for a
 * refusal `reject` (errorCode, errorMessage, notFound = HTTP 404) or `invalid` (HTTP 400 with no
 * transaction). Reads return v20 objects as the API serves them.
 */
export interface StrategyContext<P extends StrategyParams = StrategyParams> {
  readonly accountID: string;
  /** The run's parameters: the definition's defaults with the command line's and config's values. */
  readonly params: Readonly<P>;
  /** Simulated time in microseconds since the epoch (the latest tick's time). */
  readonly now: Micros;
  /** The simulated time as a v20 DateTime (RFC3339, nine fractional digits). */
  readonly time: string;

  /** POST /v3/accounts/{accountID}/orders */
  createOrder(order: V20OrderRequest): Frozen<Outcome>;
  /** PUT /v3/accounts/{accountID}/orders/{orderSpecifier} */
  replaceOrder(orderSpecifier: string, order: V20OrderRequest): Frozen<Outcome>;
  /** PUT /v3/accounts/{accountID}/orders/{orderSpecifier}/cancel */
  cancelOrder(orderSpecifier: string): Frozen<Outcome>;
  /** PUT /v3/accounts/{accountID}/orders/{orderSpecifier}/clientExtensions */
  setOrderClientExtensions(
    orderSpecifier: string,
    body: { clientExtensions?: ClientExtensions; tradeClientExtensions?: ClientExtensions },
  ): Frozen<Outcome>;
  /** PUT /v3/accounts/{accountID}/trades/{tradeSpecifier}/close (units: "ALL", the default, or a number). */
  closeTrade(tradeSpecifier: string, units?: string): Frozen<Outcome>;
  /** PUT /v3/accounts/{accountID}/trades/{tradeSpecifier}/orders: set, replace or cancel TP, SL and TSL. */
  setTradeOrders(tradeSpecifier: string, orders: TradeOrdersRequest): Frozen<Outcome>;
  /** PUT /v3/accounts/{accountID}/trades/{tradeSpecifier}/clientExtensions */
  setTradeClientExtensions(tradeSpecifier: string, clientExtensions: ClientExtensions): Frozen<Outcome>;
  /** PUT /v3/accounts/{accountID}/positions/{instrument}/close */
  closePosition(instrument: string, request: ClosePositionRequest): Frozen<Outcome>;

  /** GET /v3/accounts/{accountID} */
  account(): V20Account;
  /**
   * GET /v3/accounts/{accountID}/summary. Cheap to call on every tick: kept until a transaction or a
   * quote changes it; the price-dependent figures (NAV, unrealizedPL, margin) are getters printed
   * on first read (account/lazy-views.ts). JSON.stringify gives the API's JSON.
   */
  summary(): V20AccountSummary;
  /** GET /v3/accounts/{accountID}/orders */
  orders(filter?: OrderFilter): V20Order[];
  /** GET /v3/accounts/{accountID}/pendingOrders */
  pendingOrders(): V20Order[];
  /** GET /v3/accounts/{accountID}/orders/{orderSpecifier}; undefined where the API answers 404. */
  order(orderSpecifier: string): V20Order | undefined;
  /** GET /v3/accounts/{accountID}/trades */
  trades(filter?: TradeFilter): V20Trade[];
  /** GET /v3/accounts/{accountID}/openTrades */
  openTrades(): V20Trade[];
  /** GET /v3/accounts/{accountID}/trades/{tradeSpecifier}; undefined where the API answers 404. */
  trade(tradeSpecifier: string): V20Trade | undefined;
  /** GET /v3/accounts/{accountID}/positions */
  positions(): V20Position[];
  /** GET /v3/accounts/{accountID}/openPositions */
  openPositions(): V20Position[];
  /** GET /v3/accounts/{accountID}/positions/{instrument} (a flat position for one never traded); cheap as summary(). */
  position(instrument: string): V20Position;
  /** GET /v3/accounts/{accountID}/pricing?instruments=...: instruments without a quote yet are left out. */
  pricing(instruments: readonly string[]): V20ClientPrice[];
  /** The latest price of one instrument, or undefined before its first tick. */
  price(instrument: string): V20ClientPrice | undefined;
  /** GET /v3/accounts/{accountID}/instruments?instruments=name: undefined for an instrument not traded. */
  instrument(name: string): V20Instrument | undefined;
  /** GET /v3/accounts/{accountID}/transactions/sinceid?id=... (every transaction after that ID). */
  transactionsSince(id: string): Frozen<Transaction>[];
  /**
   * GET /v3/instruments/{instrument}/candles at the simulated time: the candles of the quotes seen
   * so far (the newest `complete: false` while it forms), by v20's query rules and defaults. Only
   * the definition's declared `candles` can be read; a refused query throws with v20's message.
   */
  candles(instrument: string, query?: V20CandlesQuery): V20CandlesResponse;

  /** A line for `strategy.log` in the output folder, stamped with the simulated time. */
  log(message: string): void;
}

/** Identity function that lets TypeScript infer the parameter types of a strategy definition. */
export function defineStrategy<P extends StrategyParams>(definition: StrategyDefinition<P>): StrategyDefinition<P> {
  return definition;
}

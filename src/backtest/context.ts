import type { Outcome } from '../account/commands.js';
import { positionViewOf, summaryViewOf } from '../account/view-cache.js';
import { accountView, instrumentView as sharedInstrumentView, isOpenPosition } from '../account/views.js';
import type { EnumSpelling } from '../domain/enum-spelling.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import type { AccountView, Engine } from '../engine/engine.js';
import { spellingOf, type V3Call } from '../v3/call.js';
import {
  cancelOrderCommand,
  closePositionCommand,
  closeTradeCommand,
  createOrderCommand,
  orderClientExtensionsCommand,
  replaceOrderCommand,
  setTradeOrdersCommand,
  tradeClientExtensionsCommand,
} from '../v3/commands.js';
import { getOrder, listOrders, listPendingOrders } from '../v3/orders.js';
import type { ListQuery } from '../v3/paging.js';
import type { Json, V20Response } from '../v3/response.js';
import { getTrade, listOpenTrades, listTrades } from '../v3/trades.js';
import { accountQuote, clientPrice } from '../v3/price.js';
import type { ClosePositionRequest, OrderFilter, StrategyContext, StrategyParams, TradeFilter, TradeOrdersRequest } from './strategy.js';
import type {
  ClientExtensions,
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
import { StrategyCandles } from './strategy-candles.js';
import { STRATEGY_LOG_LINES_MAX } from '../domain/limits.js';

const ID_RE = /^[1-9]\d{0,15}$/;

/**
 * The v3 operations of one account, in process: the same operations the HTTP adapter calls, at
 * the simulated time (writes answer with their Outcome, reads with the v20 objects).
 */
export class EngineStrategyContext<P extends StrategyParams> implements StrategyContext<P> {
  readonly accountID: string;
  readonly params: Readonly<P>;
  private readonly engine: Engine;
  private readonly acct: AccountView;
  private readonly call: V3Call;
  private readonly logLines: string[] = [];
  /** The declared candles, kept from the quotes as they come; undefined when the strategy declares none. */
  private readonly candleSeries: StrategyCandles | undefined;

  /**
   * `enumSpelling`: how the Order resources the strategy reads spell DEFAULT values (default: the
   * interface's); `candles`: the definition's declared candles (StrategyDefinition.candles).
   */
  constructor(engine: Engine, accountID: string, params: Readonly<P>, enumSpelling?: EnumSpelling, candles?: readonly string[]) {
    const account = engine.account(accountID);
    if (account === undefined) throw new Error(`no account ${accountID}`);
    this.engine = engine;
    this.acct = account;
    this.accountID = accountID;
    this.params = params;
    this.call = { engine, accountID, enumSpelling };
    this.candleSeries = candles === undefined || candles.length === 0 ? undefined : new StrategyCandles(engine, candles);
  }

  get now(): Micros {
    return this.engine.now;
  }

  get time(): string {
    return formatRfc3339(this.engine.now);
  }

  /** The log lines so far, oldest first. */
  get logged(): readonly string[] {
    return this.logLines;
  }

  createOrder(order: V20OrderRequest): Outcome {
    return createOrderCommand(this.call, order);
  }

  replaceOrder(orderSpecifier: string, order: V20OrderRequest): Outcome {
    return replaceOrderCommand(this.call, orderSpecifier, order);
  }

  cancelOrder(orderSpecifier: string): Outcome {
    return cancelOrderCommand(this.call, orderSpecifier);
  }

  setOrderClientExtensions(
    orderSpecifier: string,
    body: { clientExtensions?: ClientExtensions; tradeClientExtensions?: ClientExtensions },
  ): Outcome {
    return orderClientExtensionsCommand(this.call, orderSpecifier, objectOr(body));
  }

  closeTrade(tradeSpecifier: string, units?: string): Outcome {
    return closeTradeCommand(this.call, tradeSpecifier, units ?? 'ALL');
  }

  setTradeOrders(tradeSpecifier: string, orders: TradeOrdersRequest): Outcome {
    return setTradeOrdersCommand(this.call, tradeSpecifier, objectOr(orders));
  }

  setTradeClientExtensions(tradeSpecifier: string, clientExtensions: ClientExtensions): Outcome {
    return tradeClientExtensionsCommand(this.call, tradeSpecifier, clientExtensions);
  }

  closePosition(instrument: string, request: ClosePositionRequest): Outcome {
    return closePositionCommand(this.call, instrument, objectOr(request));
  }

  account(): V20Account {
    return accountView(this.acct.state, spellingOf(this.call)) as unknown as V20Account;
  }

  summary(): V20AccountSummary {
    return summaryViewOf(this.acct.state) as unknown as V20AccountSummary;
  }

  orders(filter: OrderFilter = {}): V20Order[] {
    return bodyOf(listOrders(this.call, listQuery(filter)))['orders'] as V20Order[];
  }

  pendingOrders(): V20Order[] {
    return bodyOf(listPendingOrders(this.call))['orders'] as V20Order[];
  }

  order(orderSpecifier: string): V20Order | undefined {
    return foundOrUndefined(getOrder(this.call, orderSpecifier))?.['order'] as V20Order | undefined;
  }

  trades(filter: TradeFilter = {}): V20Trade[] {
    return bodyOf(listTrades(this.call, listQuery(filter)))['trades'] as V20Trade[];
  }

  openTrades(): V20Trade[] {
    return bodyOf(listOpenTrades(this.call))['trades'] as V20Trade[];
  }

  trade(tradeSpecifier: string): V20Trade | undefined {
    return foundOrUndefined(getTrade(this.call, tradeSpecifier))?.['trade'] as V20Trade | undefined;
  }

  positions(): V20Position[] {
    const state = this.acct.state;
    const out: V20Position[] = [];
    for (const position of state.positions.values()) out.push(this.position(position.instrument));
    return out;
  }

  openPositions(): V20Position[] {
    const state = this.acct.state;
    const out: V20Position[] = [];
    for (const position of state.positions.values()) if (isOpenPosition(position)) out.push(this.position(position.instrument));
    return out;
  }

  position(instrument: string): V20Position {
    return positionViewOf(this.acct.state, instrument) as unknown as V20Position;
  }

  pricing(instruments: readonly string[]): V20ClientPrice[] {
    const out: V20ClientPrice[] = [];
    for (const name of instruments) {
      const price = this.price(name);
      if (price !== undefined) out.push(price);
    }
    return out;
  }

  price(instrument: string): V20ClientPrice | undefined {
    const quote = accountQuote(this.acct.state, instrument);
    return quote === undefined ? undefined : (clientPrice(quote, 'RFC3339', this.engine.now) as unknown as V20ClientPrice);
  }

  instrument(name: string): V20Instrument | undefined {
    const spec = this.engine.instruments.get(name);
    return spec === undefined ? undefined : instrumentView(spec);
  }

  candles(instrument: string, query?: V20CandlesQuery): V20CandlesResponse {
    if (this.candleSeries === undefined)
      throw new Error(`candles: the strategy declares no candles; add e.g. candles: ['${instrument}:M5'] to its definition`);
    return this.candleSeries.read(instrument, query);
  }

  transactionsSince(id: string): Transaction[] {
    if (!ID_RE.test(id) && id !== '0') throw new Error(`transactionsSince: id must be a transaction ID, got ${JSON.stringify(id)}`);
    const log = this.acct.log;
    const from = Math.min(Number(id), log.length);
    return log.slice(from, Math.min(log.length, from + LIMITS.sinceIdMax));
  }

  log(message: string): void {
    if (this.logLines.length >= STRATEGY_LOG_LINES_MAX)
      throw new Error(`a strategy may log at most ${STRATEGY_LOG_LINES_MAX} lines in one run`);
    this.logLines.push(`${formatRfc3339(this.engine.now)} ${String(message).replace(/\r?\n/g, ' ')}`);
  }
}

function pageCount(count: number | undefined): number {
  const n = count ?? LIMITS.ordersPageDefault;
  if (!Number.isInteger(n) || n < 1 || n > LIMITS.ordersPageMax)
    throw new Error(`count must be an integer from 1 to ${LIMITS.ordersPageMax}, got ${n}`);
  return n;
}

/** A strategy's order or trade filter as the query GET orders / GET trades take (v20 defaults there). */
function listQuery(filter: OrderFilter | TradeFilter): ListQuery {
  return {
    state: filter.state,
    instrument: filter.instrument,
    ids: filter.ids?.join(','),
    beforeID: filter.beforeID,
    count: String(pageCount(filter.count)),
  };
}

/** The body of a v3 read of one order or trade; undefined where the API answers 404. */
function foundOrUndefined(response: V20Response): Json | undefined {
  return response.status === 404 ? undefined : bodyOf(response);
}

/** The body of a v3 read; a refusal (the account is gone) becomes an Error with v20's message. */
function bodyOf(response: V20Response): Json {
  if (response.status !== 200) throw new Error(String(response.body['errorMessage']));
  return response.body;
}

/** The v20 Instrument resource of a catalogue entry (as GET /instruments serves it). */
function instrumentView(spec: InstrumentSpec): V20Instrument {
  return sharedInstrumentView(spec) as unknown as V20Instrument;
}

/**
 * A request body as the API would parse it: a strategy in JavaScript may leave the argument out
 * (closePosition('EUR_USD')) or pass null, which the API meets as an empty body and answers with
 * its v20 error, not a TypeError inside the engine.
 */
function objectOr<T extends object>(body: T | null | undefined): T {
  return body !== null && typeof body === 'object' ? body : ({} as T);
}

import type { Account } from '../account/account.js';
import type { AccountCommand, Outcome } from '../account/commands.js';
import { findOrder, findTrade } from '../account/specifiers.js';
import { emptySide, type PositionRecord, type TradeRecord } from '../account/state.js';
import {
  accountSummaryView, accountView, instrumentView as sharedInstrumentView, isOpenPosition, listNewestFirst, orderView, pendingOrders,
  positionView, tradeView, type ListFilter,
} from '../account/views.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { formatPriceInt } from '../domain/price.js';
import { formatRfc3339, parseDateTime, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import type { Engine } from '../engine/engine.js';
import type {
  ClosePositionRequest, OrderFilter, StrategyContext, StrategyParams, TradeFilter, TradeOrdersRequest,
} from './strategy.js';
import type {
  ClientExtensions, V20Account, V20AccountSummary, V20ClientPrice, V20Instrument, V20Order, V20OrderRequest, V20Position, V20Trade,
} from './v20.js';

/** Most lines a strategy may log in one run (DESIGN: every collection has a named maximum). */
export const STRATEGY_LOG_LINES_MAX = 100_000;
/** v20 shows unlimited top-of-book liquidity as one bucket of this size (as fills do). */
const SHOWN_LIQUIDITY = 10_000_000;

function invalid(field: string): Outcome {
  return { transactions: [], response: {}, invalid: { errorMessage: `Invalid value specified for '${field}'` } };
}

const ID_RE = /^[1-9]\d{0,15}$/;

/**
 * The v3 operations of one account, in process. Writes go through engine.execute at the simulated
 * time, with the same checks the HTTP adapter makes before it (an instrument the engine does not
 * trade, a DateTime it cannot read: 400 with no transaction); reads are the v20 views.
 */
export class EngineStrategyContext<P extends StrategyParams> implements StrategyContext<P> {
  readonly accountID: string;
  readonly params: Readonly<P>;
  private readonly engine: Engine;
  private readonly acct: Account;
  private readonly logLines: string[] = [];

  constructor(engine: Engine, accountID: string, params: Readonly<P>) {
    const account = engine.account(accountID);
    if (account === undefined) throw new Error(`no account ${accountID}`);
    this.engine = engine;
    this.acct = account;
    this.accountID = accountID;
    this.params = params;
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

  private execute(command: AccountCommand): Outcome {
    return this.engine.execute(this.accountID, command);
  }

  private checkOrder(order: V20OrderRequest): Outcome | undefined {
    if (typeof order !== 'object' || order === null) return invalid('order');
    const fields = order as unknown as Record<string, unknown>;
    const instrument = fields['instrument'];
    if (typeof instrument === 'string' && !this.engine.instruments.has(instrument)) return invalid('order.instrument');
    const dated: [string, unknown][] = [
      ['order.gtdTime', fields['gtdTime']],
      ['order.takeProfitOnFill.gtdTime', (fields['takeProfitOnFill'] as { gtdTime?: unknown } | undefined)?.gtdTime],
      ['order.stopLossOnFill.gtdTime', (fields['stopLossOnFill'] as { gtdTime?: unknown } | undefined)?.gtdTime],
      ['order.trailingStopLossOnFill.gtdTime', (fields['trailingStopLossOnFill'] as { gtdTime?: unknown } | undefined)?.gtdTime],
    ];
    for (const [field, value] of dated) {
      if (typeof value === 'string' && parseDateTime(value) === null) return invalid(field);
    }
    return undefined;
  }

  createOrder(order: V20OrderRequest): Outcome {
    return this.checkOrder(order) ?? this.execute({ type: 'CREATE_ORDER', order });
  }

  replaceOrder(orderSpecifier: string, order: V20OrderRequest): Outcome {
    return this.checkOrder(order) ?? this.execute({ type: 'REPLACE_ORDER', orderSpecifier, order });
  }

  cancelOrder(orderSpecifier: string): Outcome {
    return this.execute({ type: 'CANCEL_ORDER', orderSpecifier });
  }

  setOrderClientExtensions(orderSpecifier: string, body: { clientExtensions?: ClientExtensions; tradeClientExtensions?: ClientExtensions }): Outcome {
    return this.execute({
      type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier, clientExtensions: body.clientExtensions, tradeClientExtensions: body.tradeClientExtensions,
    });
  }

  closeTrade(tradeSpecifier: string, units?: string): Outcome {
    return this.execute({ type: 'CLOSE_TRADE', tradeSpecifier, units: units ?? 'ALL' });
  }

  setTradeOrders(tradeSpecifier: string, orders: TradeOrdersRequest): Outcome {
    for (const key of ['takeProfit', 'stopLoss', 'trailingStopLoss'] as const) {
      const gtdTime = orders[key]?.gtdTime;
      if (typeof gtdTime === 'string' && parseDateTime(gtdTime) === null) return invalid(`${key}.gtdTime`);
    }
    return this.execute({
      type: 'SET_TRADE_ORDERS', tradeSpecifier, takeProfit: orders.takeProfit, stopLoss: orders.stopLoss, trailingStopLoss: orders.trailingStopLoss,
    });
  }

  setTradeClientExtensions(tradeSpecifier: string, clientExtensions: ClientExtensions): Outcome {
    return this.execute({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier, clientExtensions });
  }

  closePosition(instrument: string, request: ClosePositionRequest): Outcome {
    if (!this.engine.instruments.has(instrument)) return invalid('instrument');
    return this.execute({
      type: 'CLOSE_POSITION', instrument, longUnits: request.longUnits, shortUnits: request.shortUnits,
      longClientExtensions: request.longClientExtensions, shortClientExtensions: request.shortClientExtensions,
    });
  }

  account(): V20Account {
    return accountView(this.acct.state) as unknown as V20Account;
  }

  summary(): V20AccountSummary {
    return accountSummaryView(this.acct.state) as unknown as V20AccountSummary;
  }

  orders(filter: OrderFilter = {}): V20Order[] {
    const state = this.acct.state;
    const { page } = listNewestFirst(state.orders.values(), listFilter(filter, 'PENDING'));
    return page.map((x) => orderView(state, x) as unknown as V20Order);
  }


  pendingOrders(): V20Order[] {
    const state = this.acct.state;
    return pendingOrders(state).reverse().map((o) => orderView(state, o) as unknown as V20Order);
  }

  order(orderSpecifier: string): V20Order | undefined {
    const order = findOrder(this.acct.state, orderSpecifier);
    return order === undefined ? undefined : (orderView(this.acct.state, order) as unknown as V20Order);
  }

  trades(filter: TradeFilter = {}): V20Trade[] {
    const state = this.acct.state;
    const { page } = listNewestFirst(state.trades.values(), listFilter(filter, 'OPEN'));
    return page.map((x) => tradeView(state, x) as unknown as V20Trade);
  }


  openTrades(): V20Trade[] {
    const state = this.acct.state;
    const open: TradeRecord[] = [];
    for (const trade of state.trades.values()) if (trade.state === 'OPEN') open.push(trade);
    return open.reverse().map((t) => tradeView(state, t) as unknown as V20Trade);
  }

  trade(tradeSpecifier: string): V20Trade | undefined {
    const trade = findTrade(this.acct.state, tradeSpecifier);
    return trade === undefined ? undefined : (tradeView(this.acct.state, trade) as unknown as V20Trade);
  }

  positions(): V20Position[] {
    const state = this.acct.state;
    return [...state.positions.values()].map((p) => positionView(state, p) as unknown as V20Position);
  }

  openPositions(): V20Position[] {
    const state = this.acct.state;
    return [...state.positions.values()].filter(isOpenPosition).map((p) => positionView(state, p) as unknown as V20Position);
  }

  position(instrument: string): V20Position {
    const state = this.acct.state;
    const record: PositionRecord = state.positions.get(instrument) ?? { instrument, long: emptySide(), short: emptySide() };
    return positionView(state, record) as unknown as V20Position;
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
    const state = this.acct.state;
    const slot = state.prices.get(instrument);
    const spec = state.instruments.get(instrument);
    if (slot === undefined || !slot.known || spec === undefined) return undefined;
    const p = spec.displayPrecision;
    return {
      type: 'PRICE',
      instrument,
      time: formatRfc3339(slot.time),
      status: 'tradeable',
      tradeable: true,
      bids: [{ price: formatPriceInt(slot.bid, p), liquidity: SHOWN_LIQUIDITY }],
      asks: [{ price: formatPriceInt(slot.ask, p), liquidity: SHOWN_LIQUIDITY }],
      closeoutBid: formatPriceInt(slot.closeoutBid, p),
      closeoutAsk: formatPriceInt(slot.closeoutAsk, p),
    };
  }

  instrument(name: string): V20Instrument | undefined {
    const spec = this.engine.instruments.get(name);
    return spec === undefined ? undefined : instrumentView(spec);
  }

  transactionsSince(id: string): Transaction[] {
    if (!ID_RE.test(id) && id !== '0') throw new Error(`transactionsSince: id must be a transaction ID, got ${JSON.stringify(id)}`);
    const log = this.acct.log;
    const from = Math.min(Number(id), log.length);
    if (log.length - from > LIMITS.sinceIdMax) return log.slice(from, from + LIMITS.sinceIdMax);
    return log.slice(from);
  }

  log(message: string): void {
    if (this.logLines.length >= STRATEGY_LOG_LINES_MAX) throw new Error(`a strategy may log at most ${STRATEGY_LOG_LINES_MAX} lines in one run`);
    this.logLines.push(`${formatRfc3339(this.engine.now)} ${String(message).replace(/\r?\n/g, ' ')}`);
  }
}

function pageCount(count: number | undefined): number {
  const n = count ?? LIMITS.ordersPageDefault;
  if (!Number.isInteger(n) || n < 1 || n > LIMITS.ordersPageMax) throw new Error(`count must be an integer from 1 to ${LIMITS.ordersPageMax}, got ${n}`);
  return n;
}

/** A strategy's order or trade filter as the shared list filter (v20 defaults). */
function listFilter(filter: OrderFilter | TradeFilter, defaultState: string): ListFilter {
  return {
    state: filter.state ?? defaultState,
    instrument: filter.instrument,
    ids: filter.ids === undefined ? undefined : new Set(filter.ids.map(Number)),
    beforeID: filter.beforeID === undefined ? undefined : Number(filter.beforeID),
    count: pageCount(filter.count),
  };
}

/** The v20 Instrument resource of a catalogue entry (as GET /instruments serves it). */
export function instrumentView(spec: InstrumentSpec): V20Instrument {
  return sharedInstrumentView(spec) as unknown as V20Instrument;
}

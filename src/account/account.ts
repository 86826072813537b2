import { Decimal, isDecimalString } from '../domain/decimal.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import { quoteBook } from '../domain/liquidity.js';
import { toPriceInt } from '../domain/price.js';
import { nextNewYorkFivePm, parseDateTime, type Micros } from '../domain/time.js';
import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import { Batch } from './batch.js';
import type { AccountCommand, Outcome } from './commands.js';
import { decideConfigure, decideCreateAccount, decideTransferFunds } from './decide-account.js';
import { isTransferAmount } from './transfer-amount.js';
import { LIMITS } from '../domain/limits.js';
import { decideCancelOrder, decideCreateOrder, decideModifyOrderExtensions, decideReplaceOrder } from './decide-orders.js';
import { decideClosePosition, decideCloseTrade, decideModifyTradeExtensions, decideSetTradeOrders } from './decide-trades.js';
import { evolve } from './evolve.js';
import { cancelOrder } from './fill.js';
import { decideDailyFinancing } from './financing.js';
import type { InstrumentTriggers } from '../matching/trigger-index.js';
import {
  emptyAccountState,
  isAccountId,
  priceSlot,
  refreshSession,
  type AccountConfig,
  type AccountState,
  type PriceSlot,
} from './state.js';
import { moveTrailingStops } from './trailing-stops.js';
import { executeTriggered } from './trigger.js';
import type { RecordStore } from './id-table.js';
import { ORDER_TEXT, TRADE_TEXT } from './record-text.js';
import { TransactionLog, type TransactionLogOptions } from './transaction-log.js';
import { canConvertToHome } from './home-currency.js';
import { placeInIndex } from './placement.js';
import { instrumentsForAccount } from './margin-rates.js';
import { decideMarginCallExit, decideMarginCallExtension, decideMarginCheck, marginCheckNeeded } from './margin-call.js';
import { markMarginStale } from './margin-watch.js';

/** Where an account's journal lines go: its transactions, with any trailing stop levels among them. */
export type TransactionSink = (entries: readonly JournalEntry[]) => void;

/** Decides a command against the state; every change goes through the batch's evolve(). */
export function decide(command: AccountCommand, state: AccountState, now: Micros, requestID?: string): Outcome {
  return decideIn(new Batch(state, now, requestID), command);
}

function decideIn(b: Batch, command: AccountCommand): Outcome {
  switch (command.type) {
    case 'CREATE_ORDER':
      return decideCreateOrder(b, command.order);
    case 'REPLACE_ORDER':
      return decideReplaceOrder(b, command.orderSpecifier, command.order);
    case 'CANCEL_ORDER':
      return decideCancelOrder(b, command.orderSpecifier);
    case 'MODIFY_ORDER_CLIENT_EXTENSIONS':
      return decideModifyOrderExtensions(b, command.orderSpecifier, command.clientExtensions, command.tradeClientExtensions);
    case 'MODIFY_TRADE_CLIENT_EXTENSIONS':
      return decideModifyTradeExtensions(b, command.tradeSpecifier, command.clientExtensions);
    case 'CLOSE_TRADE':
      return decideCloseTrade(b, command.tradeSpecifier, command.units);
    case 'CLOSE_POSITION':
      return decideClosePosition(b, command.instrument, command.longUnits, command.shortUnits, {
        long: command.longClientExtensions,
        short: command.shortClientExtensions,
      });
    case 'SET_TRADE_ORDERS':
      return decideSetTradeOrders(b, command.tradeSpecifier, command);
    case 'CONFIGURE':
      return decideConfigure(b, command.alias, command.marginRate);
    case 'TRANSFER_FUNDS':
      return decideTransferFunds(b, command.amount, command.comment);
  }
}

/**
 * Where an account pages out the orders that have ended and the trades that have closed, keeping
 * the newest `window` of each in memory (id-table.ts): a long backtest or a long-running server
 * then holds its live orders and trades and a window of its past, not all of it.
 */
export interface RecordPaging {
  readonly window: number;
  readonly orders: RecordStore;
  readonly trades: RecordStore;
}

/**
 * One account as an actor: it owns its book, order lifecycles and trigger index and handles one
 * message at a time (a command, a quote, the passage of time). Every transaction it creates goes
 * to its log and to the sink, in order.
 */
export class Account {
  readonly state: AccountState;
  /** The transaction log: transaction N has ID N; a bounded one keeps the newest in memory (transaction-log.ts). */
  readonly log: TransactionLog;
  private sink: TransactionSink | undefined;
  private clock: Micros = 0;
  /** The next 17:00 New York rollover, when open trades are financed. */
  private nextRollover: Micros = Number.POSITIVE_INFINITY;
  private readonly crossed: number[] = [];
  /** Trailing stops a quote moved: order ID and new level, in pairs. */
  private readonly moved: number[] = [];
  /**
   * The last quoted instrument's price slot and trigger book: feeds mostly repeat one instrument,
   * and both objects live as long as the account once created (the book is remembered only once
   * it exists).
   */
  private lastInstrument: string | undefined;
  private lastSlot: PriceSlot | undefined;
  private lastBook: InstrumentTriggers | undefined;

  private constructor(state: AccountState, logOptions: TransactionLogOptions | undefined, paging: RecordPaging | undefined) {
    this.state = state;
    this.log = new TransactionLog(logOptions);
    if (paging !== undefined) {
      state.orders.page(paging.orders, paging.window, ORDER_TEXT);
      state.trades.page(paging.trades, paging.window, TRADE_TEXT);
    }
  }

  /** A new account: CREATE, the opening deposit and the alias, stamped at `now`. */
  static open(
    config: AccountConfig,
    instruments: ReadonlyMap<string, InstrumentSpec>,
    now: Micros,
    sink?: TransactionSink,
    logOptions?: TransactionLogOptions,
    paging?: RecordPaging,
  ): Account {
    // Check the whole config before the first transaction, so a refused config leaves no journal.
    const balance = config.balance ?? '100000';
    if (!isDecimalString(balance) || new Decimal(balance).isNegative())
      throw new Error(`account ${config.id}: balance must be a non-negative decimal string`);
    // A deposit TRANSFER_FUNDS would refuse (AMOUNT_INVALID) would leave the account unfunded.
    if (!new Decimal(balance).isZero() && !isTransferAmount(balance))
      throw new Error(`account ${config.id}: balance ${balance} has more than 4 decimal places or is over ${LIMITS.transferAmountMax}`);
    if (config.marginRate !== undefined) {
      const rate = config.marginRate;
      if (!isDecimalString(rate) || !new Decimal(rate).greaterThan(0) || new Decimal(rate).greaterThan(1))
        throw new Error(`account ${config.id}: marginRate ${rate} is invalid`);
    }
    const account = new Account(Account.initialState(config, instruments), logOptions, paging);
    if (sink !== undefined) account.sink = sink;
    account.clock = now;
    account.nextRollover = nextNewYorkFivePm(now);
    const b = new Batch(account.state, now, undefined);
    decideCreateAccount(b, config.currency);
    account.record(b);
    if (!new Decimal(balance).isZero()) account.execute({ type: 'TRANSFER_FUNDS', amount: balance }, now);
    if (config.alias !== undefined) account.execute({ type: 'CONFIGURE', alias: config.alias }, now);
    if (config.marginRate !== undefined) account.execute({ type: 'CONFIGURE', marginRate: config.marginRate }, now);
    return account;
  }

  /** Rebuilds an account from its journal alone (transactions and trailing stop levels). */
  static replay(
    config: AccountConfig,
    instruments: ReadonlyMap<string, InstrumentSpec>,
    entries: Iterable<JournalEntry>,
    logOptions?: TransactionLogOptions,
    paging?: RecordPaging,
  ): Account {
    const account = new Account(Account.initialState(config, instruments), logOptions, paging);
    const state = account.state;
    let last: JournalEntry | undefined;
    for (const entry of entries) {
      evolve(state, entry);
      if (isTransaction(entry)) account.log.push(entry);
      // No decision holds a record during a replay: records may page out after any entry.
      state.orders.trim();
      state.trades.trim();
      last = entry;
    }
    account.clock = last === undefined ? 0 : (parseDateTime(last.time) ?? 0);
    account.nextRollover = nextNewYorkFivePm(account.clock);
    return account;
  }

  private static initialState(config: AccountConfig, instruments: ReadonlyMap<string, InstrumentSpec>): AccountState {
    if (!isAccountId(config.id)) throw new Error(`account id must look like 101-004-1435156-001: ${config.id}`);
    const state = emptyAccountState(config.id, instrumentsForAccount(instruments, config.marginPreset));
    state.currency = config.currency;
    state.hedgingEnabled = config.hedgingEnabled ?? false;
    state.marginCloseoutEnabled = config.marginCloseout ?? true;
    if (config.homeConversionFee !== undefined) state.homeConversionFee = config.homeConversionFee;
    state.mt4AccountID = config.mt4AccountID;
    return state;
  }

  get id(): string {
    return this.state.id;
  }

  get now(): Micros {
    return this.clock;
  }

  setSink(sink: TransactionSink | undefined): void {
    this.sink = sink;
  }

  /** Handles a client command at simulated time `now` (never earlier than the last message). */
  execute(command: AccountCommand, now: Micros, requestID?: string): Outcome {
    this.advance(now);
    const b = new Batch(this.state, now, requestID);
    const outcome = decideIn(b, command);
    // A command can end a margin call (a close, a deposit): its MARGIN_CALL_EXIT joins the command's batch.
    if (this.state.marginCall !== undefined) decideMarginCallExit(b);
    this.record(b);
    return outcome;
  }

  /** Moves the clock, expiring GTD/GFD orders whose time has come, each at its own deadline. */
  advance(now: Micros): void {
    if (now < this.clock) throw new Error(`account ${this.state.id}: time went backwards (${now} < ${this.clock})`);
    this.clock = now;
    if (now >= this.nextRollover) this.rollover(now);
    this.expireUntil(now);
  }

  private expireUntil(now: Micros): void {
    const deadlines = this.state.deadlines;
    while (deadlines.nextTime <= now) {
      const d = deadlines.pop();
      if (d === undefined) break;
      const order = this.state.orders.get(d.orderId);
      if (order === undefined || order.state !== 'PENDING' || order.gtd !== d.time) continue;
      const b = new Batch(this.state, d.time, undefined);
      cancelOrder(b, order, 'TIME_IN_FORCE_EXPIRED');
      this.record(b);
    }
  }

  /**
   * The hot path: records the quote and fills whatever it crosses, oldest order first. A quote
   * that crosses nothing costs a few compares and allocates nothing.
   */
  onQuote(tick: Tick): void {
    const state = this.state;
    if (tick.time < this.clock) throw new Error(`account ${state.id}: quote at ${tick.time} is older than ${this.clock}`);
    if (state.deadlines.nextTime <= tick.time || tick.time >= this.nextRollover) this.advance(tick.time);
    this.clock = tick.time;
    const instrument = tick.instrument;
    let slot: PriceSlot | undefined;
    let book: InstrumentTriggers | undefined;
    if (instrument === this.lastInstrument) {
      slot = this.lastSlot as PriceSlot;
      book = this.lastBook;
    } else {
      slot = state.prices.get(instrument);
      if (slot === undefined) {
        if (!state.instruments.has(instrument)) return;
        slot = priceSlot(state, instrument);
      }
      // A first price may value a position or a conversion that had none: the margin levels move.
      if (!slot.known) markMarginStale(state);
      this.lastInstrument = instrument;
      this.lastSlot = slot;
      this.lastBook = undefined;
    }
    const scale = slot.scale;
    slot.bid = toPriceInt(tick.bid, scale);
    slot.ask = toPriceInt(tick.ask, scale);
    slot.closeoutBid = tick.closeoutBid === undefined ? slot.bid : toPriceInt(tick.closeoutBid, scale);
    slot.closeoutAsk = tick.closeoutAsk === undefined ? slot.ask : toPriceInt(tick.closeoutAsk, scale);
    // Levels only when the quote has them: a quote without them costs a compare or two here.
    if (tick.bids !== undefined || tick.asks !== undefined) slot.book = quoteBook(tick, scale);
    else if (slot.book !== undefined) slot.book = undefined;
    slot.time = tick.time;
    slot.known = true;
    // A quote in closed hours is recorded (prices show it, not tradeable) but triggers nothing:
    // resting orders wait for the first quote of the next session (market-hours.ts). Inside an
    // open session this is one compare; sessionUntil is -Infinity in closed hours.
    // The calls below take this.clock (the quote's time, stored above), not tick.time: V8 reads a
    // tick's time as a raw double and boxed it for them on every quote, even when none was made.
    if (tick.time >= slot.sessionUntil) {
      refreshSession(slot, this.clock);
      if (!slot.tradeable) return;
    }
    if (book === undefined) {
      book = state.index.peekBook(instrument);
      if (book !== undefined) this.lastBook = book;
    }
    if (book !== undefined) {
      const crossed = this.crossed;
      const moved = this.moved;
      // Truncating an already empty array still costs tens of nanoseconds: most quotes skip it.
      if (crossed.length !== 0) crossed.length = 0;
      if (moved.length !== 0) moved.length = 0;
      book.collectCrossed(slot.bid, slot.ask, crossed, moved);
      if (moved.length !== 0) {
        const records = moveTrailingStops(state, moved, this.clock);
        if (this.sink !== undefined) this.sink(records);
      }
      if (crossed.length !== 0) this.fillCrossed(this.clock);
    }
    // The margin levels, after the quote's own fills: two compares unless this price may cross one
    // or they are stale (then every band is closed: margin-watch.ts markMarginStale).
    const sum = slot.bid + slot.ask;
    if (sum < slot.marginLow || sum > slot.marginHigh) this.checkMargin(this.clock);
  }

  /** Fills (or cancels) the orders a quote crossed, oldest first, each in a batch of its own. */
  private fillCrossed(now: Micros): void {
    const state = this.state;
    const crossed = this.crossed;
    if (crossed.length > 1) crossed.sort((a, b) => a - b);
    for (let i = 0; i < crossed.length; i += 1) {
      const order = state.orders.get(crossed[i] as number);
      if (order === undefined || order.state !== 'PENDING') continue;
      // No chain of quoted pairs converts its P/L yet: a real account always has its rates, so the
      // order keeps waiting (back in the index the quote popped it from) instead of being cancelled.
      if (!canConvertToHome(state, order.instrument)) {
        placeInIndex(state, order);
        continue;
      }
      const b = new Batch(state, now, undefined);
      executeTriggered(b, order);
      this.record(b);
    }
  }

  /** Margin call and closeout at the current quotes (margin-call.ts), in a batch of their own. */
  private checkMargin(now: Micros): void {
    if (!marginCheckNeeded(this.state)) return;
    const b = new Batch(this.state, now, undefined);
    decideMarginCheck(b);
    this.record(b);
  }

  /**
   * Finances open trades at every rollover up to `now`, each stamped at its 17:00 New York. Orders
   * that expired before a rollover are cancelled first, so events stay in time order.
   */
  private rollover(now: Micros): void {
    while (this.nextRollover <= now) {
      const at = this.nextRollover;
      this.expireUntil(at);
      const b = new Batch(this.state, at, undefined);
      decideDailyFinancing(b, at);
      decideMarginCallExtension(b);
      this.record(b);
      this.nextRollover = nextNewYorkFivePm(at);
    }
  }

  private record(b: Batch): void {
    const transactions = b.transactions;
    if (transactions.length === 0) return;
    for (const tx of transactions) this.log.push(tx);
    this.state.orders.trim();
    this.state.trades.trim();
    if (this.sink !== undefined) this.sink(b.journalEntries());
  }
}

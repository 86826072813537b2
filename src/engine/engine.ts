import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import { createHash } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import { Account, type RecordPaging } from '../account/account.js';
import type { RecordStore } from '../account/id-table.js';
import type { TransactionLog, TransactionLogOptions } from '../account/transaction-log.js';
import type { AccountCommand, Outcome } from '../account/commands.js';
import type { AccountConfig, AccountState } from '../account/state.js';
import { bookBoundaryAfter, bookBoundaryAtOrBefore, BOOK_INTERVAL } from '../domain/books.js';
import { buildCatalogue, type InstrumentOverride, type InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { MarketCalendar, type MarketHoursSpec } from '../domain/market-hours.js';
import type { Tick } from '../domain/tick.js';
import type { Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import { MemoryJournal, type Journal } from '../journal/journal.js';
import { BookHistory, captureBooks, type BookSnapshot } from './books.js';

export interface EngineConfig {
  readonly accounts: readonly AccountConfig[];
  /** Overrides of, or additions to, the 28 FX pairs. */
  readonly instruments?: readonly InstrumentOverride[];
  /** Trading hours of every instrument without its own `marketHours` (default: the FX week). */
  readonly marketHours?: MarketHoursSpec;
  /** Recorded with the run; feeds that draw random numbers take it from here. */
  readonly seed?: number | string;
  /** Simulated time the accounts are opened at (default: the first tick's time is not known yet, so 0). */
  readonly start?: Micros;
  readonly journal?: Journal;
  /**
   * Transactions each account keeps in memory, the newest; older ones are read from the journal
   * (src/account/transaction-log.ts). Default: all (backtests and scenarios read them all anyway).
   */
  readonly transactionsInMemory?: number;
  /**
   * Ended orders and closed trades each account keeps in memory, the newest `window` of each; the
   * older ones are written to the stores `store` opens and read back when asked (id-table.ts).
   * Default: all in memory.
   */
  readonly recordsInMemory?: RecordsInMemory;
}

export interface RecordsInMemory {
  readonly window: number;
  /** A store for one account's orders or trades; the caller removes the stores after the run. */
  readonly store: (accountId: string, kind: 'orders' | 'trades') => RecordStore;
}

export interface RunInfo {
  readonly seed: number | string;
  readonly configDigest: string;
}

export interface AccountTransaction {
  readonly accountID: string;
  readonly transaction: Transaction;
}

/**
 * What the engine shows of an account: its book and its log, to read. Every change goes through
 * `execute`, `pushTick` or `advanceTo`, so that it is decided, journaled and published.
 */
export interface AccountView {
  readonly id: string;
  readonly state: Readonly<AccountState>;
  /** The transaction log: transaction N has ID N, read from memory or, older than its window, the journal. */
  readonly log: TransactionLog;
}

export interface Engine {
  readonly instruments: ReadonlyMap<string, InstrumentSpec>;
  readonly journal: Journal;
  readonly info: RunInfo;
  /** The simulated clock: the latest tick or advance. */
  readonly now: Micros;
  accountIds(): string[];
  account(id: string): AccountView | undefined;
  /** Runs a command at the simulated time (or at `now` when given, never earlier). */
  execute(accountId: string, command: AccountCommand, options?: { requestID?: string; now?: Micros }): Outcome;
  /** Feeds one quote to every account. Ticks must come in time order. */
  pushTick(tick: Tick): void;
  /** Advances the clock without a quote, expiring GTD/GFD orders on the way. */
  advanceTo(time: Micros): void;
  /** Consumes a feed to its end. */
  run(feed: Observable<Tick> | Iterable<Tick>): Promise<void>;
  /** New transactions of one account, in order. */
  transactions$(accountId: string): Observable<Transaction>;
  /** Every quote the engine consumes. */
  readonly prices$: Observable<Tick>;
  /**
   * The new time each time `advanceTo` moves the clock without a quote (a quote's time comes on
   * `prices$`): what lets a reader of simulated time, such as the pricing stream's throttle, see
   * time pass when no quote comes.
   */
  readonly advances$: Observable<Micros>;
  /** Opens another account at the current simulated time. */
  openAccount(config: AccountConfig): AccountView;
  /**
   * Starts keeping order and position book snapshots (engine/books.ts): one at every 20-minute
   * boundary the clock crosses from now on. Idempotent; the API asks for them, a backtest does not
   * pay for them.
   */
  keepBooks(): void;
  /** The newest kept book snapshot taken at or before `time`. */
  bookAt(time: Micros): BookSnapshot | undefined;
  /**
   * The highest all-digit requestID among the transactions replayed from the journal as accounts
   * opened (undefined: none): a restarted server numbers its requests above it.
   */
  readonly replayedRequestIdMax: bigint | undefined;
}

/** The run's default trading hours for every instrument that has none of its own. */
function withMarketHours(catalogue: Map<string, InstrumentSpec>, hours: MarketHoursSpec | undefined): Map<string, InstrumentSpec> {
  if (hours === undefined) return catalogue;
  for (const [name, spec] of catalogue) if (spec.marketHours === undefined) catalogue.set(name, { ...spec, marketHours: hours });
  return catalogue;
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

class SimEngine implements Engine {
  readonly instruments: ReadonlyMap<string, InstrumentSpec>;
  readonly journal: Journal;
  readonly info: RunInfo;
  private readonly accounts = new Map<string, Account>();
  private readonly accountList: Account[] = [];
  private readonly subjects = new Map<string, Subject<Transaction>>();
  private readonly prices = new Subject<Tick>();
  readonly prices$: Observable<Tick> = this.prices.asObservable();
  private readonly advances = new Subject<Micros>();
  readonly advances$: Observable<Micros> = this.advances.asObservable();
  // A number from the start: a field declared without one is defined as undefined first (ES2022
  // class fields), which makes V8 keep it as a tagged value and box every time stored in it, a
  // 16-byte allocation on every quote.
  private clock: Micros = 0;
  private readonly window: number | undefined;
  private readonly records: RecordsInMemory | undefined;
  private books: BookHistory | undefined;
  /** The next book boundary to take; +Infinity while books are not kept, so a tick pays one compare. */
  private nextBook: Micros = Number.POSITIVE_INFINITY;
  private requestIdMax: bigint | undefined = undefined;

  constructor(config: EngineConfig) {
    this.instruments = withMarketHours(buildCatalogue(config.instruments ?? []), config.marketHours);
    // Compiled once here so that a malformed calendar stops the run before the first quote.
    for (const spec of this.instruments.values()) MarketCalendar.check(spec.marketHours);
    if (this.instruments.size > LIMITS.instrumentsPerEngine) throw new Error(`at most ${LIMITS.instrumentsPerEngine} instruments`);
    this.journal = config.journal ?? new MemoryJournal();
    this.clock = config.start ?? 0;
    this.window = config.transactionsInMemory;
    this.records = config.recordsInMemory;
    this.info = {
      seed: config.seed ?? 0,
      configDigest: digest({
        accounts: config.accounts,
        instruments: config.instruments ?? [],
        seed: config.seed ?? 0,
        ...(config.marketHours === undefined ? {} : { marketHours: config.marketHours }),
      }),
    };
    for (const accountConfig of config.accounts) this.openAccount(accountConfig);
  }

  get now(): Micros {
    return this.clock;
  }

  openAccount(config: AccountConfig): AccountView {
    if (this.accounts.has(config.id)) throw new Error(`account ${config.id} exists already`);
    if (this.accounts.size >= LIMITS.accountsPerEngine) throw new Error(`at most ${LIMITS.accountsPerEngine} accounts`);
    // Read as replayed, not held whole: a journal of a million transactions is gigabytes as objects.
    const existing = this.journal.entries(config.id)[Symbol.iterator]();
    try {
      return this.restoreOrOpen(config, existing);
    } finally {
      existing.return?.();
    }
  }

  get replayedRequestIdMax(): bigint | undefined {
    return this.requestIdMax;
  }

  private restoreOrOpen(config: AccountConfig, existing: Iterator<JournalEntry>): AccountView {
    const first = existing.next();
    const sink = (entries: readonly JournalEntry[]): void => this.onTransactions(config.id, entries);
    const journal = this.journal;
    const logOptions: TransactionLogOptions =
      this.window === undefined ? {} : { window: this.window, older: (fromId) => journal.transactionsFrom(config.id, fromId) };
    const records = this.records;
    const paging: RecordPaging | undefined =
      records === undefined
        ? undefined
        : { window: records.window, orders: records.store(config.id, 'orders'), trades: records.store(config.id, 'trades') };
    let account: Account;
    if (first.done !== true) {
      account = Account.replay(config, this.instruments, this.noted(first.value, existing), logOptions, paging);
      account.setSink(sink);
      // The clock never runs behind an account's own history.
      if (account.now > this.clock) this.clock = account.now;
    } else {
      // The opening transactions (CREATE, the deposit, the settings) reach the journal as one
      // append: a journal that fails to take them leaves no half-opened account behind.
      const opening: JournalEntry[] = [];
      account = Account.open(config, this.instruments, this.clock, (entries) => void opening.push(...entries), logOptions, paging);
      this.onTransactions(config.id, opening);
      account.setSink(sink);
    }
    this.accounts.set(config.id, account);
    this.accountList.push(account);
    return account;
  }

  /** A journal's entries as they are replayed, the highest all-digit requestID among them noted on the way. */
  private *noted(first: JournalEntry, rest: Iterator<JournalEntry>): Generator<JournalEntry> {
    for (let step: IteratorResult<JournalEntry> = { done: false, value: first }; step.done !== true; step = rest.next()) {
      const entry = step.value;
      const id = isTransaction(entry) ? entry.requestID : undefined;
      if (id !== undefined && /^\d{1,30}$/.test(id)) {
        const n = BigInt(id);
        if (this.requestIdMax === undefined || n > this.requestIdMax) this.requestIdMax = n;
      }
      yield entry;
    }
  }

  /** Journals an account's new entries; the transaction stream gets the transactions among them. */
  private onTransactions(accountId: string, entries: readonly JournalEntry[]): void {
    this.journal.append(accountId, entries);
    const subject = this.subjects.get(accountId);
    if (subject !== undefined && subject.observed) for (const entry of entries) if (isTransaction(entry)) subject.next(entry);
  }

  accountIds(): string[] {
    return this.accountList.map((a) => a.id);
  }

  account(id: string): AccountView | undefined {
    return this.accounts.get(id);
  }

  execute(accountId: string, command: AccountCommand, options: { requestID?: string; now?: Micros } = {}): Outcome {
    const account = this.accounts.get(accountId);
    if (account === undefined) throw new Error(`no account ${accountId}`);
    if (options.now !== undefined) this.advanceTo(options.now);
    return account.execute(command, this.clock, options.requestID);
  }

  pushTick(tick: Tick): void {
    if (tick.time < this.clock)
      throw new Error(`tick at ${tick.time} is older than the clock (${this.clock}): feeds must be in time order`);
    if (tick.time >= this.nextBook) this.takeBooks(tick.time);
    this.clock = tick.time;
    const list = this.accountList;
    for (let i = 0; i < list.length; i += 1) (list[i] as Account).onQuote(tick);
    if (this.prices.observed) this.prices.next(tick);
  }

  advanceTo(time: Micros): void {
    if (time < this.clock) throw new Error(`cannot move the clock back from ${this.clock} to ${time}`);
    if (time >= this.nextBook) this.takeBooks(time);
    this.clock = time;
    for (const account of this.accountList) account.advance(time);
    if (this.advances.observed) this.advances.next(time);
  }

  run(feed: Observable<Tick> | Iterable<Tick>): Promise<void> {
    if (Symbol.iterator in feed) {
      for (const tick of feed as Iterable<Tick>) this.pushTick(tick);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      (feed as Observable<Tick>).subscribe({
        next: (tick) => this.pushTick(tick),
        error: (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
        complete: () => resolve(),
      });
    });
  }

  keepBooks(): void {
    if (this.books !== undefined) return;
    this.books = new BookHistory();
    this.nextBook = bookBoundaryAfter(this.clock);
  }

  bookAt(time: Micros): BookSnapshot | undefined {
    return this.books?.at(time);
  }

  /**
   * Takes the book of every boundary in (clock, to], before the clock moves there. Each is the
   * state after everything before its boundary: expiries and rollovers due before it happen first
   * (each at its own time, as the move would do them anyway), an event at the boundary itself after.
   */
  private takeBooks(to: Micros): void {
    const books = this.books as BookHistory;
    const last = bookBoundaryAtOrBefore(to);
    const states = this.accountList.map((a) => a.state);
    for (let at = books.firstToTake(this.nextBook, last); at <= last; at += BOOK_INTERVAL) {
      for (const account of this.accountList) account.advance(at - 1);
      books.record(captureBooks(at, states, this.instruments));
    }
    this.nextBook = last + BOOK_INTERVAL;
  }

  transactions$(accountId: string): Observable<Transaction> {
    if (!this.accounts.has(accountId)) throw new Error(`no account ${accountId}`);
    let subject = this.subjects.get(accountId);
    if (subject === undefined) {
      subject = new Subject<Transaction>();
      this.subjects.set(accountId, subject);
    }
    return subject.asObservable();
  }
}

/**
 * The simulator as a library: accounts opened at `start`, fed quotes in time order, commanded in
 * v20 terms. With the same config, quotes and commands, the journal is the same byte for byte.
 */
export function createEngine(config: EngineConfig): Engine {
  return new SimEngine(config);
}

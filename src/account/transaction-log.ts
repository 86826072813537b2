import type { Transaction } from '../domain/transactions.js';

/**
 * Reads the transactions a bounded log no longer keeps: an account's transactions from ID
 * `fromId` on, oldest first, lazily (the caller stops iterating to stop reading). The engine
 * reads them from its journal (Journal.transactionsFrom), which holds every transaction.
 */
export type OlderTransactions = (fromId: number) => Iterable<Transaction>;

/** How many transactions a log keeps in memory, and where it reads the older ones. */
export interface TransactionLogOptions {
  /** The newest this many transactions stay in memory (default: all of them). */
  readonly window?: number;
  /** Needed when `window` is finite: every evicted transaction must still answer for its ID. */
  readonly older?: OlderTransactions;
}

/**
 * An account's transaction log: transaction N has ID N (IDs are continuous from 1, so position and
 * ID agree). A long-running server keeps only the newest `window` transactions in memory (each is
 * 0.5-1 KB, and a busy account makes millions) and reads older ones from the journal, so every ID
 * still answers; backtests and scenarios keep them all (no window), and then nothing is ever read
 * back. Reads by index (`at`, `slice`) take Array semantics over positions (index = ID - 1).
 */
export class TransactionLog implements Iterable<Transaction> {
  readonly window: number;
  private readonly older: OlderTransactions | undefined;
  /** The kept transactions; `items[start]` has ID `count - (items.length - start) + 1`. */
  private items: Transaction[] = [];
  private start = 0;
  private count = 0;

  constructor(options: TransactionLogOptions = {}) {
    const window = options.window ?? Number.POSITIVE_INFINITY;
    if (!(window >= 1) || (Number.isFinite(window) && !Number.isSafeInteger(window)))
      throw new Error(`transaction window must be a whole number of at least 1, got ${window}`);
    if (Number.isFinite(window) && options.older === undefined) throw new Error('a bounded transaction log needs a reader for older IDs');
    this.window = window;
    this.older = options.older;
  }

  /** Every transaction ever logged: the last ID. */
  get length(): number {
    return this.count;
  }

  /** The lowest ID kept in memory (length + 1 when the log is empty). */
  get firstKept(): number {
    return this.count - (this.items.length - this.start) + 1;
  }

  /** Appends the next transaction (its ID must be length + 1); the oldest kept one leaves memory beyond the window. */
  push(tx: Transaction): void {
    this.items.push(tx);
    this.count += 1;
    if (this.items.length - this.start > this.window) this.evict();
  }

  private evict(): void {
    this.start = this.items.length - this.window;
    // Drop the evicted slots in one copy once they outnumber the kept ones: amortised O(1) a push.
    if (this.start >= this.window) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }

  /** Transaction `id`, from memory or (older than the window) from the journal. */
  get(id: number): Transaction | undefined {
    if (!Number.isSafeInteger(id) || id < 1 || id > this.count) return undefined;
    const first = this.firstKept;
    if (id >= first) return this.items[this.start + id - first];
    for (const tx of this.from(id, id)) return tx;
    return undefined;
  }

  /** Array semantics: the element at a position (negative counts from the end). */
  at(index: number): Transaction | undefined {
    return this.get(index < 0 ? this.count + index + 1 : index + 1);
  }

  /** Array semantics over positions: IDs start + 1 to end, as a new array. */
  slice(start = 0, end = this.count): Transaction[] {
    const s = clampIndex(start, this.count);
    const e = clampIndex(end, this.count);
    return e <= s ? [] : [...this.from(s + 1, e)];
  }

  /** Transactions fromId..toId (inclusive, clipped to the log), oldest first. */
  range(fromId: number, toId: number): Transaction[] {
    return [...this.from(Math.max(1, fromId), Math.min(toId, this.count))];
  }

  /**
   * The transactions from `fromId` to `toId` (default: the last ID now), oldest first, read as
   * they are iterated: the journal for IDs below the window, then memory. Transactions logged
   * while iterating may evict the next ones; those are then read from the journal too.
   */
  *from(fromId: number, toId: number = this.count): Generator<Transaction> {
    let id = Math.max(1, fromId);
    const last = Math.min(toId, this.count);
    let older: Iterator<Transaction> | undefined;
    /** The ID `older` yields next. */
    let olderAt = 0;
    try {
      for (; id <= last; id += 1) {
        const first = this.firstKept;
        if (id >= first) {
          yield this.items[this.start + id - first] as Transaction;
          continue;
        }
        if (older === undefined || olderAt !== id) {
          older?.return?.();
          older = (this.older as OlderTransactions)(id)[Symbol.iterator]();
        }
        const next = older.next();
        olderAt = id + 1;
        if (next.done === true || next.value.id !== String(id))
          throw new Error(`the journal does not hold transaction ${id} that the log evicted`);
        yield next.value;
      }
    } finally {
      older?.return?.();
    }
  }

  [Symbol.iterator](): Iterator<Transaction> {
    return this.from(1);
  }

  // Array-style reads over the whole log (tests, reports); each walks it from ID 1.

  some(test: (tx: Transaction, index: number) => boolean): boolean {
    let i = 0;
    for (const tx of this.from(1)) if (test(tx, i++)) return true;
    return false;
  }

  find(test: (tx: Transaction, index: number) => boolean): Transaction | undefined {
    let i = 0;
    for (const tx of this.from(1)) if (test(tx, i++)) return tx;
    return undefined;
  }

  filter(test: (tx: Transaction, index: number) => boolean): Transaction[] {
    return this.slice().filter(test);
  }

  map<T>(f: (tx: Transaction, index: number) => T): T[] {
    return this.slice().map(f);
  }

  /** JSON.stringify(log) prints the transactions, as it would an array. */
  toJSON(): Transaction[] {
    return this.slice();
  }

  forEach(f: (tx: Transaction, index: number) => void): void {
    let i = 0;
    for (const tx of this.from(1)) f(tx, i++);
  }

  /**
   * The first ID whose transaction satisfies `test`, which must be false and then true along the
   * log (a time bound: times never decrease); length + 1 when none does. Binary search in memory;
   * the journal is read only when the answer lies below the window.
   */
  firstWhere(test: (tx: Transaction) => boolean): number {
    const first = this.firstKept;
    const kept = this.items.length - this.start;
    if (kept > 0 && test(this.items[this.start] as Transaction) && first > 1) {
      for (const tx of this.from(1, first - 1)) if (test(tx)) return Number(tx.id);
      return first;
    }
    let lo = 0;
    let hi = kept;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (test(this.items[this.start + m] as Transaction)) hi = m;
      else lo = m + 1;
    }
    return first + lo;
  }
}

function clampIndex(index: number, length: number): number {
  const i = Math.trunc(index);
  if (i < 0) return Math.max(0, length + i);
  return Math.min(i, length);
}

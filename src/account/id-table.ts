/**
 * Where a table pages out the records it no longer keeps in memory: one text per record ID
 * (journal/record-file.ts keeps them in a file).
 */
export interface RecordStore {
  /** Keeps `text` as record `id`'s (a later put for the same ID replaces it). */
  put(id: number, text: string): void;
  /** The text last put for `id`; undefined if none was. */
  get(id: number): string | undefined;
}

/** A record as one line of text and back (record-text.ts). */
export interface RecordCodec<T> {
  text(record: T): string;
  of(text: string): T;
}

/**
 * An account's orders or trades by ID. Their IDs are the IDs of the transactions that created them,
 * which only grow, so an array indexed by ID holds them in creation order, as a Map would, and
 * files each one with a store instead of a hash-table insert (a Map of a few hundred thousand
 * orders rehashes its whole table as it grows). IDs a table was never given read as undefined.
 *
 * A paged table (`page`) keeps only the newest `window` of the records that have ended (filled or
 * cancelled orders, closed trades: `ended`) in memory and writes the older ones to a RecordStore,
 * so that an account's memory does not grow with the orders and trades of its past. Every ID still
 * answers: `get` reads a paged-out record back as a copy, `forUpdate` (evolve's, the only writer)
 * takes it back into memory so that a change to it is kept. Records are paged out between batches
 * (`trim`), never while one is decided.
 */
export class IdTable<T> {
  private readonly items: (T | undefined)[] = [];
  private count = 0;
  private store: RecordStore | undefined;
  private codec: RecordCodec<T> | undefined;
  private window = Number.POSITIVE_INFINITY;
  /** IDs of ended records in the order they ended, from `head` on; some since paged out. */
  private endedIds: number[] = [];
  private head = 0;

  /** How many records the table holds, in memory or paged out. */
  get size(): number {
    return this.count;
  }

  /** Keeps the newest `window` ended records in memory, the older ones in `store`. */
  page(store: RecordStore, window: number, codec: RecordCodec<T>): void {
    if (!Number.isSafeInteger(window) || window < 1) throw new Error(`record window must be a whole number of at least 1, got ${window}`);
    this.store = store;
    this.codec = codec;
    this.window = window;
  }

  /** The record, or a copy of it read back from the store when it is paged out: to read, not to change. */
  get(id: number): T | undefined {
    if (!Number.isSafeInteger(id) || id < 0) return undefined;
    const item = this.items[id];
    if (item !== undefined || this.store === undefined) return item;
    const text = this.store.get(id);
    return text === undefined ? undefined : (this.codec as RecordCodec<T>).of(text);
  }

  /** The record if it is in memory: a live (pending, open) record always is. */
  resident(id: number): T | undefined {
    return Number.isSafeInteger(id) && id >= 0 ? this.items[id] : undefined;
  }

  /** The record, taken back into memory first if it was paged out, so that a change to it is kept. */
  forUpdate(id: number): T | undefined {
    const item = this.resident(id);
    if (item !== undefined || this.store === undefined) return item;
    const copy = this.get(id);
    if (copy === undefined) return undefined;
    this.items[id] = copy;
    this.ended(id);
    return copy;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, value: T): void {
    if (!Number.isSafeInteger(id) || id < 0) throw new Error(`record ID must be a whole number of at least 0, got ${id}`);
    if (this.get(id) === undefined) this.count += 1;
    this.items[id] = value;
  }

  /** Record `id` has ended: it will not change but through forUpdate, and `trim` may page it out. */
  ended(id: number): void {
    if (this.store !== undefined) this.endedIds.push(id);
  }

  /**
   * Pages out the oldest ended records beyond the window. Called between batches (Account), never
   * inside one, so a decision never holds a record that was paged out under it.
   */
  trim(): void {
    const store = this.store;
    const ids = this.endedIds;
    if (store === undefined || ids.length - this.head <= this.window) return;
    while (ids.length - this.head > this.window) {
      const oldest = ids[this.head++] as number;
      const item = this.items[oldest];
      if (item === undefined) continue;
      const text = textOf(this.codec as RecordCodec<T>, item);
      // A record JSON cannot print (a client sent a value it cannot: its journal line fails too) stays in memory.
      if (text === undefined) continue;
      store.put(oldest, text);
      this.items[oldest] = undefined;
    }
    // Drop the consumed front now and then: amortised O(1) a record.
    if (this.head > 1024 && this.head * 2 > ids.length) {
      this.endedIds = ids.slice(this.head);
      this.head = 0;
    }
  }

  /** The IDs in the table, lowest first (creation order). */
  *keys(): IterableIterator<number> {
    for (let id = 0; id < this.items.length; id += 1) if (this.get(id) !== undefined) yield id;
  }

  /** The records, lowest ID first (creation order); paged-out ones as copies (get). */
  *values(): IterableIterator<T> {
    for (let id = 0; id < this.items.length; id += 1) {
      const item = this.get(id);
      if (item !== undefined) yield item;
    }
  }

  /** The records, highest ID first; paged-out ones as copies (get), read only as far as the caller iterates. */
  *newestFirst(): IterableIterator<T> {
    for (let id = this.items.length - 1; id >= 0; id -= 1) {
      const item = this.get(id);
      if (item !== undefined) yield item;
    }
  }
}

function textOf<T>(codec: RecordCodec<T>, record: T): string | undefined {
  try {
    return codec.text(record);
  } catch {
    return undefined;
  }
}

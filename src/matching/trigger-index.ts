import type { PriceSource } from './fill-rules.js';
import { Direction, watchedValue2 } from './fill-rules.js';
import { TriggerHeap, type TriggerEntry } from './trigger-heap.js';

/** The threshold (doubled units) of an entry that add() put into the heap of `direction`. */
export function threshold2Of(direction: Direction, entry: TriggerEntry): number {
  return direction === Direction.LE ? -entry.sortKey : entry.sortKey;
}

/** A trailing stop: its threshold follows the market in the winning direction only. */
export interface TrailingEntry {
  readonly orderId: number;
  readonly seq: number;
  readonly source: PriceSource;
  readonly direction: Direction;
  readonly distance2: number;
  /**
   * Current trailing stop value in doubled units; NaN until the market gives it one. Written only
   * by the account's evolve(), from the journal: the index reports where a quote moves it.
   */
  value2: number;
  live: boolean;
}

/**
 * Resting orders of one instrument: one heap per (watched side, direction). A quote that crosses
 * nothing costs one peek and one compare per non-empty heap, and allocates nothing.
 */
export class InstrumentTriggers {
  readonly heaps: TriggerHeap[] = [0, 1, 2, 3, 4, 5].map(() => new TriggerHeap());
  /**
   * The top sortKey of each heap (+Infinity when empty), kept beside the heaps so a quote costs six
   * compares whatever the book holds. It may be stale low after a cancel of the top entry; a quote
   * that reaches it then drops the dead entries and refreshes it.
   */
  private readonly tops = new Float64Array(6).fill(Number.POSITIVE_INFINITY);
  /**
   * The reach of the book from the tops (doubled units): no less-or-equal trigger fires while every
   * watched price is above `lowReach`, no greater-or-equal one while every one is below
   * `highReach`. Bid, ask and mid all lie between the lower and the higher of bid and ask, so a
   * quote within the reach crosses nothing: two compares instead of six. As conservative as the
   * tops they come from (a stale top only widens the reach).
   */
  private lowReach = Number.NEGATIVE_INFINITY;
  private highReach = Number.POSITIVE_INFINITY;
  trailing: TrailingEntry[] = [];
  private trailingDead = 0;

  add(source: PriceSource, direction: Direction, threshold2: number, orderId: number, seq: number): TriggerEntry {
    const entry: TriggerEntry = {
      sortKey: direction === Direction.LE ? -threshold2 : threshold2,
      seq,
      orderId,
      live: true,
    };
    const h = source * 2 + direction;
    (this.heaps[h] as TriggerHeap).push(entry);
    if (entry.sortKey < (this.tops[h] as number)) {
      this.tops[h] = entry.sortKey;
      this.refreshReach();
    }
    return entry;
  }

  /** lowReach and highReach from the tops (heaps 0, 2, 4 watch their price less-or-equal, 1, 3, 5 greater-or-equal). */
  private refreshReach(): void {
    const tops = this.tops;
    this.lowReach = -Math.min(tops[0] as number, tops[2] as number, tops[4] as number);
    this.highReach = Math.min(tops[1] as number, tops[3] as number, tops[5] as number);
  }

  remove(source: PriceSource, direction: Direction, entry: TriggerEntry): void {
    (this.heaps[source * 2 + direction] as TriggerHeap).markDead(entry);
  }

  addTrailing(entry: TrailingEntry): void {
    this.trailing.push(entry);
  }

  removeTrailing(entry: TrailingEntry): void {
    if (!entry.live) return;
    entry.live = false;
    this.trailingDead += 1;
    if (this.trailingDead > 64 && this.trailingDead * 2 > this.trailing.length) {
      this.trailing = this.trailing.filter((e) => e.live);
      this.trailingDead = 0;
    }
  }

  /**
   * Pops every entry the quote crosses into `out` (order IDs), in no particular order; the caller
   * sorts by sequence. A trailing stop the quote moves is reported in `moved` as the pair (order
   * ID, new value2) and tested against its new value; the level itself is the account's to write
   * (through a journal record), so the index stays a function of the journal.
   */
  collectCrossed(bid: number, ask: number, out: number[], moved: number[]): void {
    const bid2 = 2 * bid;
    const ask2 = 2 * ask;
    if ((bid2 < ask2 ? bid2 : ask2) > this.lowReach && (bid2 < ask2 ? ask2 : bid2) < this.highReach) {
      if (this.trailing.length !== 0) this.collectTrailing(bid, ask, out, moved);
      return;
    }
    const tops = this.tops;
    const mid2 = bid + ask;
    // Heap h watches source h >> 1 (bid, ask, mid) in direction h & 1 (LE: probe is -watched).
    if ((tops[0] as number) <= -bid2) this.drain(0, -bid2, out);
    if ((tops[1] as number) <= bid2) this.drain(1, bid2, out);
    if ((tops[2] as number) <= -ask2) this.drain(2, -ask2, out);
    if ((tops[3] as number) <= ask2) this.drain(3, ask2, out);
    if ((tops[4] as number) <= -mid2) this.drain(4, -mid2, out);
    if ((tops[5] as number) <= mid2) this.drain(5, mid2, out);
    if (this.trailing.length !== 0) this.collectTrailing(bid, ask, out, moved);
  }

  /**
   * The trailing stops' part of collectCrossed. A method of its own keeps collectCrossed small
   * enough for V8 to inline into the quote path, which most quotes end in.
   */
  private collectTrailing(bid: number, ask: number, out: number[], moved: number[]): void {
    const trailing = this.trailing;
    for (let i = 0; i < trailing.length; i += 1) {
      const t = trailing[i] as TrailingEntry;
      if (!t.live) continue;
      const watched2 = watchedValue2(t.source, bid, ask);
      let value2 = t.value2;
      if (t.direction === 0) {
        const candidate = watched2 - t.distance2;
        // NaN (no level yet) compares false: the first quote sets it.
        if (!(value2 >= candidate)) {
          value2 = candidate;
          moved.push(t.orderId, value2);
        }
        if (watched2 <= value2) {
          this.removeTrailing(t);
          out.push(t.orderId);
        }
      } else {
        const candidate = watched2 + t.distance2;
        if (!(value2 <= candidate)) {
          value2 = candidate;
          moved.push(t.orderId, value2);
        }
        if (watched2 >= value2) {
          this.removeTrailing(t);
          out.push(t.orderId);
        }
      }
    }
  }

  /** Pops the live entries of heap h the probe crosses, dropping dead ones, and refreshes its top. */
  private drain(h: number, probe: number, out: number[]): void {
    const heap = this.heaps[h] as TriggerHeap;
    let top = heap.peek();
    while (top !== undefined && top.sortKey <= probe) {
      heap.pop();
      top.live = false;
      out.push(top.orderId);
      top = heap.peek();
    }
    this.tops[h] = top === undefined ? Number.POSITIVE_INFINITY : top.sortKey;
    this.refreshReach();
  }

  /** Live resting entries (for tests, naive scans and memory accounting). */
  liveCount(): number {
    let n = 0;
    for (const heap of this.heaps) n += heap.size;
    return n + this.trailing.length - this.trailingDead;
  }
}

export class TriggerIndex {
  private readonly books = new Map<string, InstrumentTriggers>();

  book(instrument: string): InstrumentTriggers {
    let book = this.books.get(instrument);
    if (book === undefined) {
      book = new InstrumentTriggers();
      this.books.set(instrument, book);
    }
    return book;
  }

  peekBook(instrument: string): InstrumentTriggers | undefined {
    return this.books.get(instrument);
  }
}

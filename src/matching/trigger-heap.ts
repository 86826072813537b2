import { MinHeap } from '../domain/min-heap.js';

/**
 * A resting order's place in the trigger index. `sortKey` is arranged so that every heap is a
 * min-heap: the best threshold is on top and a tick crosses it when `sortKey <= probe`.
 * Cancelled entries are marked dead and dropped lazily when they surface, so a cancel is O(1).
 */
export interface TriggerEntry {
  sortKey: number;
  readonly seq: number;
  readonly orderId: number;
  live: boolean;
}

/** Best threshold first, equal thresholds in order sequence. */
function before(a: TriggerEntry, b: TriggerEntry): boolean {
  return a.sortKey < b.sortKey || (a.sortKey === b.sortKey && a.seq < b.seq);
}

export class TriggerHeap {
  private readonly heap = new MinHeap<TriggerEntry>(before);
  private dead = 0;

  get size(): number {
    return this.heap.size - this.dead;
  }

  /** Entries including not-yet-dropped dead ones (for memory accounting and tests). */
  get capacityUsed(): number {
    return this.heap.size;
  }

  push(entry: TriggerEntry): void {
    this.heap.push(entry);
  }

  markDead(entry: TriggerEntry): void {
    if (!entry.live) return;
    entry.live = false;
    this.dead += 1;
    // Keep garbage bounded: rebuild once dead entries outnumber live ones.
    if (this.dead > 1024 && this.dead * 2 > this.heap.size) {
      this.heap.retain((e) => e.live);
      this.dead = 0;
    }
  }

  /** Top live entry, dropping dead ones on the way; undefined when empty. */
  peek(): TriggerEntry | undefined {
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined || top.live) return top;
      this.heap.pop();
      this.dead -= 1;
    }
  }

  pop(): TriggerEntry | undefined {
    return this.heap.pop();
  }

  /** Live entries in heap order (not sorted); for tests and naive cross-checks. */
  liveEntries(): TriggerEntry[] {
    return this.heap.toArray().filter((e) => e.live);
  }
}

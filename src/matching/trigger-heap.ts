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

export class TriggerHeap {
  private readonly items: TriggerEntry[] = [];
  private dead = 0;

  get size(): number {
    return this.items.length - this.dead;
  }

  /** Entries including not-yet-dropped dead ones (for memory accounting and tests). */
  get capacityUsed(): number {
    return this.items.length;
  }

  push(entry: TriggerEntry): void {
    const items = this.items;
    items.push(entry);
    this.siftUp(items.length - 1);
  }

  markDead(entry: TriggerEntry): void {
    if (!entry.live) return;
    entry.live = false;
    this.dead += 1;
    // Keep garbage bounded: rebuild once dead entries outnumber live ones.
    if (this.dead > 1024 && this.dead * 2 > this.items.length) this.compact();
  }

  /** Top live entry, dropping dead ones on the way; undefined when empty. */
  peek(): TriggerEntry | undefined {
    const items = this.items;
    while (items.length > 0) {
      const top = items[0] as TriggerEntry;
      if (top.live) return top;
      this.pop();
      this.dead -= 1;
    }
    return undefined;
  }

  pop(): TriggerEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined) return undefined;
    if (items.length > 0) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Live entries in heap order (not sorted); for tests and naive cross-checks. */
  liveEntries(): TriggerEntry[] {
    return this.items.filter((e) => e.live);
  }

  private compact(): void {
    const live = this.items.filter((e) => e.live);
    this.items.length = 0;
    this.dead = 0;
    for (const e of live) this.items.push(e);
    for (let i = (this.items.length >> 1) - 1; i >= 0; i -= 1) this.siftDown(i);
  }

  private less(a: TriggerEntry, b: TriggerEntry): boolean {
    return a.sortKey < b.sortKey || (a.sortKey === b.sortKey && a.seq < b.seq);
  }

  private siftUp(index: number): void {
    const items = this.items;
    const entry = items[index] as TriggerEntry;
    let i = index;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = items[parentIndex] as TriggerEntry;
      if (!this.less(entry, parent)) break;
      items[i] = parent;
      i = parentIndex;
    }
    items[i] = entry;
  }

  private siftDown(index: number): void {
    const items = this.items;
    const n = items.length;
    const entry = items[index] as TriggerEntry;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && this.less(items[right] as TriggerEntry, items[left] as TriggerEntry)) child = right;
      const c = items[child] as TriggerEntry;
      if (!this.less(c, entry)) break;
      items[i] = c;
      i = child;
    }
    items[i] = entry;
  }
}

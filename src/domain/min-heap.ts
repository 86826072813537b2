/**
 * A binary min-heap ordered by `before`; small and allocation-free after growth. Used by the
 * k-way tick merge, the GTD/GFD deadline queue and the trigger index.
 */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as T;
      if (!this.before(item, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) this.siftDown(last);
    return top;
  }

  /** Keeps only the items `keep` accepts and restores the heap order (O(n)). */
  retain(keep: (item: T) => boolean): void {
    const items = this.items;
    let n = 0;
    for (const item of items) if (keep(item)) items[n++] = item;
    items.length = n;
    for (let i = (n >> 1) - 1; i >= 0; i -= 1) this.siftDownFrom(i, items[i] as T);
  }

  /** Every item, in heap order (not sorted). */
  toArray(): T[] {
    return [...this.items];
  }

  /** pop() then push(item) in one sift: the usual step of a k-way merge. */
  replaceTop(item: T): void {
    if (this.items.length === 0) this.items.push(item);
    else this.siftDown(item);
  }

  private siftDown(item: T): void {
    this.siftDownFrom(0, item);
  }

  private siftDownFrom(start: number, item: T): void {
    const items = this.items;
    const n = items.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && this.before(items[right] as T, items[left] as T)) child = right;
      const c = items[child] as T;
      if (!this.before(c, item)) break;
      items[i] = c;
      i = child;
    }
    items[i] = item;
  }
}

/**
 * An account's orders or trades by ID. Their IDs are the IDs of the transactions that created them,
 * which only grow, so an array indexed by ID holds them in creation order, as a Map would, and
 * files each one with a store instead of a hash-table insert (a Map of a few hundred thousand
 * orders rehashes its whole table as it grows). IDs a table was never given read as undefined.
 */
export class IdTable<T> {
  private readonly items: (T | undefined)[] = [];
  private count = 0;

  /** How many records the table holds. */
  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    return Number.isSafeInteger(id) && id >= 0 ? this.items[id] : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, value: T): void {
    if (!Number.isSafeInteger(id) || id < 0) throw new Error(`record ID must be a whole number of at least 0, got ${id}`);
    if (this.items[id] === undefined) this.count += 1;
    this.items[id] = value;
  }

  /** The IDs in the table, lowest first (creation order). */
  *keys(): IterableIterator<number> {
    const items = this.items;
    for (let id = 0; id < items.length; id += 1) if (items[id] !== undefined) yield id;
  }

  /** The records, lowest ID first (creation order). */
  *values(): IterableIterator<T> {
    for (const item of this.items) if (item !== undefined) yield item;
  }
}

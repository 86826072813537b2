/**
 * Picks the points a chart needs when a series has more than it can show: the series is cut into
 * equal buckets of points and each bucket keeps its first point and, for every key series, the
 * point with the lowest and the highest value, so peaks and troughs survive. The result holds
 * indices in increasing order, the first and the last point always included.
 */
export function decimateIndices(length: number, keys: readonly (readonly number[])[], maxPoints: number): number[] {
  const decimator = new Decimator<number>(length, keys.length, maxPoints);
  const values: number[] = new Array<number>(keys.length);
  for (let i = 0; i < length; i += 1) {
    for (let k = 0; k < keys.length; k += 1) values[k] = (keys[k] as readonly number[])[i] as number;
    decimator.push(values, i);
  }
  return decimator.picked();
}

interface Candidate<T> {
  index: number;
  value: number;
  item: T;
}

/**
 * decimateIndices over a series read once, point by point, whose length is known beforehand (a
 * curve read back from disk): it keeps one bucket's candidates and the picked points only, so the
 * memory is bounded by `maxPoints` however long the series. Each point comes with its key values
 * and an item (what the chart keeps of it); `picked()` gives the items of the picked points.
 */
export class Decimator<T> {
  private readonly all: boolean;
  private readonly size: number;
  private readonly buckets: number;
  private readonly out: T[] = [];
  private lastPicked = -1;
  private index = 0;
  private bucket = 0;
  /** The current bucket's end (exclusive) and its candidates: first point, then lo/hi per key. */
  private bucketEnd = 0;
  private first: Candidate<T> | undefined;
  private readonly lo: Candidate<T>[] = [];
  private readonly hi: Candidate<T>[] = [];
  private lastItem: T | undefined;

  constructor(
    private readonly length: number,
    private readonly keyCount: number,
    maxPoints: number,
  ) {
    this.all = length <= maxPoints;
    const perBucket = 1 + 2 * keyCount;
    this.buckets = Math.max(1, Math.floor((maxPoints - 2) / perBucket));
    this.size = length / this.buckets;
    this.openBucket();
  }

  /** Moves to the next bucket that holds points (buckets may be empty when rounding). */
  private openBucket(): void {
    this.first = undefined;
    while (this.bucket < this.buckets) {
      const from = Math.floor(this.bucket * this.size);
      const to = Math.min(this.length, Math.floor((this.bucket + 1) * this.size));
      this.bucket += 1;
      if (to > from) {
        this.bucketEnd = to;
        return;
      }
    }
    this.bucketEnd = Number.POSITIVE_INFINITY;
  }

  /** The next point: its key values (read at once, not kept) and its item. */
  push(keys: readonly number[], item: T): void {
    const index = this.index;
    this.index += 1;
    this.lastItem = item;
    if (this.all) {
      this.out.push(item);
      return;
    }
    if (this.bucketEnd === Number.POSITIVE_INFINITY) return;
    if (this.first === undefined) {
      this.first = { index, value: 0, item };
      for (let k = 0; k < this.keyCount; k += 1) {
        const value = keys[k] as number;
        this.lo[k] = { index, value, item };
        this.hi[k] = { index, value, item };
      }
    } else {
      for (let k = 0; k < this.keyCount; k += 1) {
        const value = keys[k] as number;
        const lo = this.lo[k] as Candidate<T>;
        const hi = this.hi[k] as Candidate<T>;
        if (value < lo.value) this.lo[k] = { index, value, item };
        if (value > hi.value) this.hi[k] = { index, value, item };
      }
    }
    if (index + 1 >= this.bucketEnd) this.closeBucket();
  }

  private closeBucket(): void {
    const chosen: Candidate<T>[] = [this.first as Candidate<T>];
    for (let k = 0; k < this.keyCount; k += 1) chosen.push(this.lo[k] as Candidate<T>, this.hi[k] as Candidate<T>);
    chosen.sort((x, y) => x.index - y.index);
    for (const c of chosen) {
      if (c.index > this.lastPicked) {
        this.out.push(c.item);
        this.lastPicked = c.index;
      }
    }
    this.openBucket();
  }

  /** The picked points' items, in order; call after the last point. */
  picked(): T[] {
    if (!this.all && this.lastPicked !== this.length - 1 && this.lastItem !== undefined && this.index === this.length) {
      this.out.push(this.lastItem);
      this.lastPicked = this.length - 1;
    }
    return this.out;
  }
}

export function pick<T>(values: readonly T[], indices: readonly number[]): T[] {
  return indices.map((i) => values[i] as T);
}

import type { Tick } from '../domain/tick.js';

/**
 * Merges tick sources that are each in time order, with exactly the order of mergeByTime (time,
 * then source index, then position in the source), but in runs: it takes ticks from one source
 * for as long as they come before the earliest head of the others, and looks at the other heads
 * only when that run ends. Recorded data is usually one file per day or per instrument, so runs
 * are long (a day) or the sources are few, and a tick costs one comparison instead of a heap step.
 */
class RunMergeIterator implements Iterator<Tick> {
  private readonly iterators: Iterator<Tick>[] = [];
  private readonly heads: (Tick | undefined)[] = [];
  private current = -1;
  private boundTime = Number.POSITIVE_INFINITY;
  private boundSource = Number.MAX_SAFE_INTEGER;
  private closed = false;

  constructor(sources: readonly Iterable<Tick>[]) {
    try {
      for (const source of sources) {
        const iterator = source[Symbol.iterator]();
        this.iterators.push(iterator);
        const step = iterator.next();
        this.heads.push(step.done === true ? undefined : step.value);
      }
    } catch (error) {
      this.return();
      throw error;
    }
    this.select();
  }

  /** The source with the earliest head becomes current; the earliest of the others bounds its run. */
  private select(): void {
    let best = -1,
      second = -1;
    const heads = this.heads;
    for (let i = 0; i < heads.length; i += 1) {
      const head = heads[i];
      if (head === undefined) continue;
      if (best < 0 || head.time < (heads[best] as Tick).time) {
        second = best;
        best = i;
      } else if (second < 0 || head.time < (heads[second] as Tick).time) {
        second = i;
      }
    }
    this.current = best;
    if (second < 0) {
      this.boundTime = Number.POSITIVE_INFINITY;
      this.boundSource = Number.MAX_SAFE_INTEGER;
    } else {
      this.boundTime = (heads[second] as Tick).time;
      this.boundSource = second;
    }
  }

  next(): IteratorResult<Tick> {
    const i = this.current;
    if (i < 0) return { done: true, value: undefined };
    const tick = this.heads[i] as Tick;
    const step = (this.iterators[i] as Iterator<Tick>).next();
    if (step.done === true) {
      this.heads[i] = undefined;
      this.select();
    } else {
      const head = step.value;
      this.heads[i] = head;
      // Still before every other head (equal times: the lower source index first)?
      if (!(head.time < this.boundTime || (head.time === this.boundTime && i < this.boundSource))) this.select();
    }
    return { done: false, value: tick };
  }

  return(): IteratorResult<Tick> {
    if (!this.closed) {
      this.closed = true;
      this.current = -1;
      for (const iterator of this.iterators) iterator.return?.();
    }
    return { done: true, value: undefined };
  }
}

/** Re-iterable: each pass opens every source afresh. */
export function mergeTickSources(sources: readonly Iterable<Tick>[]): Iterable<Tick> {
  const snapshot = [...sources];
  return { [Symbol.iterator]: () => new RunMergeIterator(snapshot) };
}

import type { Tick } from '../../domain/tick.js';
import { MinHeap } from '../../domain/min-heap.js';

/**
 * k-way merge of tick sources that are each in time order. Output is ordered by time; equal
 * times come out by source index, then by position within the source, which is exactly a stable
 * sort of the concatenation. Memory is one pending tick per source: a source is only pulled when
 * its previous tick has been emitted.
 *
 * The merge goes in runs: the source just emitted stays current for as long as its next tick comes
 * before the earliest head of the others (the heap's top), so a tick costs one comparison, and the
 * heap is touched only when another source takes over. Recorded data is usually one file per day
 * or per instrument, so runs are long (a day) or the sources are few.
 *
 * A source that knows, without being read, a time none of its ticks comes before (`earliest`: a
 * LEAN file's date is in its name) is opened only once the merge reaches that time. A year of daily
 * files then holds one or two days in memory at a time, not every file's first block, and the
 * first tick comes after reading one file rather than all of them. The order is the same: a
 * deferred source is opened before any tick at or after its bound is emitted.
 */

/** A tick source that may give a lower bound of its times without reading anything. */
export interface TickSource extends Iterable<Tick> {
  /** Undefined, or a call that throws, when the source cannot tell: it is opened at the start. */
  readonly earliest?: () => number | undefined;
}

interface Head {
  tick: Tick;
  readonly source: number;
  readonly iterator: Iterator<Tick>;
}

function before(a: Head, b: Head): boolean {
  return a.tick.time < b.tick.time || (a.tick.time === b.tick.time && a.source < b.source);
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

class MergeIterator implements IterableIterator<Tick> {
  private readonly iterators: Iterator<Tick>[] = [];
  /** Sources not yet opened, by their bound (then index), and the first of them not yet opened. */
  private readonly deferred: { readonly bound: number; readonly source: number }[] = [];
  private nextDeferred = 0;
  /** The bound of deferred[nextDeferred], +Infinity when every source is open. */
  private deferredBound = Number.POSITIVE_INFINITY;
  /** The heads of every unfinished source but the current one. */
  private readonly others = new MinHeap<Head>(before);
  /** The source whose head was emitted last (or is to be emitted first). */
  private current: Head | undefined;
  private started = false;
  private closed = false;

  constructor(private readonly sources: readonly TickSource[]) {}

  [Symbol.iterator](): IterableIterator<Tick> {
    return this;
  }

  next(): IteratorResult<Tick> {
    if (this.closed) return DONE;
    try {
      if (this.started) this.advance();
      else this.open();
    } catch (error) {
      // A source that throws still lets the others close their files.
      this.return();
      throw error;
    }
    const head = this.current;
    if (head === undefined) {
      this.return();
      return DONE;
    }
    return { done: false, value: head.tick };
  }

  private open(): void {
    this.started = true;
    this.sources.forEach((source, index) => {
      const bound = boundOf(source);
      if (bound === undefined) this.openSource(index);
      else this.deferred.push({ bound, source: index });
    });
    this.deferred.sort((a, b) => a.bound - b.bound || a.source - b.source);
    this.deferredBound = this.deferred[0]?.bound ?? Number.POSITIVE_INFINITY;
    this.current = this.others.pop();
    this.openReached();
  }

  private openSource(index: number): void {
    const iterator = (this.sources[index] as TickSource)[Symbol.iterator]();
    this.iterators.push(iterator);
    const step = iterator.next();
    if (step.done !== true) this.others.push({ tick: step.value, source: index, iterator });
  }

  /** Opens the deferred sources whose bound the next tick to emit has reached, then picks that tick again. */
  private openReached(): void {
    while (this.reachedDeferred()) {
      if (this.current !== undefined) this.others.push(this.current);
      this.openSource((this.deferred[this.nextDeferred] as { source: number }).source);
      this.nextDeferred += 1;
      this.deferredBound = this.deferred[this.nextDeferred]?.bound ?? Number.POSITIVE_INFINITY;
      this.current = this.others.pop();
    }
  }

  /** Pulls the next tick of the source just emitted; another source takes over only when its head comes first. */
  private advance(): void {
    const head = this.current as Head;
    const step = head.iterator.next();
    if (step.done === true) {
      this.current = this.others.pop();
    } else {
      head.tick = step.value;
      const top = this.others.peek();
      if (top !== undefined && before(top, head)) {
        this.current = top;
        this.others.replaceTop(head);
      }
    }
    this.openReached();
  }

  /** True when a deferred source must open before the current head goes out (or nothing else is left). */
  private reachedDeferred(): boolean {
    const head = this.current;
    return head === undefined ? this.nextDeferred < this.deferred.length : head.tick.time >= this.deferredBound;
  }

  /** Sources stopped early (the consumer broke off, or one source threw) still get to close files. */
  return(): IteratorResult<Tick> {
    if (!this.closed) {
      this.closed = true;
      this.current = undefined;
      for (const iterator of this.iterators) iterator.return?.();
    }
    return DONE;
  }
}

/** The source's bound, or undefined when it has none (or cannot tell: it is then opened at once, and says why when read). */
function boundOf(source: TickSource): number | undefined {
  if (source.earliest === undefined) return undefined;
  try {
    const bound = source.earliest();
    return bound === undefined || Number.isNaN(bound) ? undefined : bound;
  } catch {
    return undefined;
  }
}

/** Re-iterable: each pass iterates every source afresh. */
export function mergeByTime(sources: readonly TickSource[]): Iterable<Tick> {
  const snapshot = [...sources];
  return { [Symbol.iterator]: () => new MergeIterator(snapshot) };
}

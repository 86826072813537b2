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
 */
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
  /** The heads of every unfinished source but the current one. */
  private readonly others = new MinHeap<Head>(before);
  /** The source whose head was emitted last (or is to be emitted first). */
  private current: Head | undefined;
  private started = false;
  private closed = false;

  constructor(private readonly sources: readonly Iterable<Tick>[]) {}

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
      const iterator = source[Symbol.iterator]();
      this.iterators.push(iterator);
      const step = iterator.next();
      if (step.done !== true) this.others.push({ tick: step.value, source: index, iterator });
    });
    this.current = this.others.pop();
  }

  /** Pulls the next tick of the source just emitted; another source takes over only when its head comes first. */
  private advance(): void {
    const head = this.current as Head;
    const step = head.iterator.next();
    if (step.done === true) {
      this.current = this.others.pop();
      return;
    }
    head.tick = step.value;
    const top = this.others.peek();
    if (top !== undefined && before(top, head)) {
      this.current = top;
      this.others.replaceTop(head);
    }
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

/** Re-iterable: each pass iterates every source afresh. */
export function mergeByTime(sources: readonly Iterable<Tick>[]): Iterable<Tick> {
  const snapshot = [...sources];
  return { [Symbol.iterator]: () => new MergeIterator(snapshot) };
}

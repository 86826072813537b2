import type { Tick } from '../../domain/tick.js';
import { MinHeap } from '../../domain/min-heap.js';

/**
 * k-way merge of tick sources that are each in time order. Output is ordered by time; equal
 * times come out by source index, then by position within the source, which is exactly a stable
 * sort of the concatenation. Memory is one pending tick per source: a source is only pulled when
 * its previous tick has been emitted.
 */
interface Head {
  tick: Tick;
  readonly source: number;
  readonly iterator: Iterator<Tick>;
}

function before(a: Head, b: Head): boolean {
  return a.tick.time < b.tick.time || (a.tick.time === b.tick.time && a.source < b.source);
}

function* mergeIterators(sources: readonly Iterable<Tick>[]): Generator<Tick> {
  const heap = new MinHeap<Head>(before);
  const open: Iterator<Tick>[] = [];
  try {
    sources.forEach((source, index) => {
      const iterator = source[Symbol.iterator]();
      open.push(iterator);
      const step = iterator.next();
      if (step.done !== true) heap.push({ tick: step.value, source: index, iterator });
    });
    for (;;) {
      const head = heap.peek();
      if (head === undefined) return;
      yield head.tick;
      const step = head.iterator.next();
      if (step.done === true) {
        heap.pop();
      } else {
        head.tick = step.value;
        heap.replaceTop(head);
      }
    }
  } finally {
    // Sources stopped early (the consumer broke off, or one source threw) still get to close files.
    for (const iterator of open) iterator.return?.();
  }
}

/** Re-iterable: each pass iterates every source afresh. */
export function mergeByTime(sources: readonly Iterable<Tick>[]): Iterable<Tick> {
  const snapshot = [...sources];
  return { [Symbol.iterator]: () => mergeIterators(snapshot) };
}

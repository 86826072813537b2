import { Observable, type Subscriber, type Subscription } from 'rxjs';
import type { Tick } from '../../domain/tick.js';
import { Fifo } from './fifo.js';
import { MinHeap } from '../../domain/min-heap.js';
import { mergeByTime } from './merge.js';
import { fromIterable$, pullSource } from './observable.js';

/**
 * Merge of tick observables by time, with the ordering of mergeByTime (time, then source index,
 * then position in the source).
 *
 * Sources made by fromIterable$ (tickFile$, ticksFromArray$, generatedTicks$, and this function's
 * own output) are pulled, one pending tick each, so merging files stays bounded in memory. Any
 * other source is subscribed and its values queued; a tick is only emitted once every unfinished
 * pushed source has a value waiting, so the output depends on the sources' contents alone, never
 * on how their emissions interleave in time. The cost is that a pushed source running ahead of
 * the others (a synchronous one, completely) is held in memory until they catch up.
 */
interface Slot {
  readonly index: number;
  readonly queue: Fifo<Tick>;
  iterator: Iterator<Tick> | undefined;
  done: boolean;
  queued: boolean;
}

interface Entry {
  tick: Tick;
  readonly slot: Slot;
}

function before(a: Entry, b: Entry): boolean {
  return a.tick.time < b.tick.time || (a.tick.time === b.tick.time && a.slot.index < b.slot.index);
}

/** One subscription of mergeByTime$ over sources of which at least one is pushed. */
class PushedMerge {
  private readonly heap = new MinHeap<Entry>(before);
  readonly slots: Slot[];
  /** Unfinished pushed sources with nothing queued: the merge cannot move on. */
  private waiting = 0;
  private started = false;
  private draining = false;

  constructor(
    private readonly subscriber: Subscriber<Tick>,
    count: number,
  ) {
    this.slots = Array.from({ length: count }, (_, index) => ({
      index,
      queue: new Fifo<Tick>(),
      iterator: undefined,
      done: false,
      queued: false,
    }));
  }

  private advance(slot: Slot): void {
    if (slot.iterator !== undefined) {
      const step = slot.iterator.next();
      if (step.done === true) slot.done = true;
      else this.heap.push({ tick: step.value, slot });
      return;
    }
    const next = slot.queue.shift();
    if (next !== undefined) this.heap.push({ tick: next, slot });
    else if (!slot.done) {
      slot.queued = false;
      this.waiting += 1;
    }
  }

  drain(): void {
    if (!this.started || this.draining) return; // re-entrant emissions are picked up by the running loop
    this.draining = true;
    const subscriber = this.subscriber;
    try {
      while (this.waiting === 0 && !subscriber.closed) {
        const entry = this.heap.pop();
        if (entry === undefined) {
          subscriber.complete();
          return;
        }
        subscriber.next(entry.tick);
        this.advance(entry.slot);
      }
    } catch (error) {
      subscriber.error(error);
    } finally {
      this.draining = false;
    }
  }

  /** Queues a pushed source's ticks; its first waiting tick joins the heap. */
  subscribe(slot: Slot, source: Observable<Tick>): Subscription {
    this.waiting += 1;
    return source.subscribe({
      next: (tick) => {
        if (slot.queued) {
          slot.queue.push(tick);
          return;
        }
        slot.queued = true;
        this.waiting -= 1;
        this.heap.push({ tick, slot });
        this.drain();
      },
      error: (error: unknown) => this.subscriber.error(error),
      complete: () => {
        slot.done = true;
        if (!slot.queued) this.waiting -= 1;
        this.drain();
      },
    });
  }

  /** Opens a pulled source and puts its first tick in the heap. */
  pull(slot: Slot, pull: () => Iterable<Tick>): void {
    slot.iterator = pull()[Symbol.iterator]();
    this.advance(slot);
  }

  start(): void {
    this.started = true;
    this.drain();
  }
}

export function mergeByTime$(sources: readonly Observable<Tick>[]): Observable<Tick> {
  const pulls = sources.map((source) => pullSource(source));
  if (pulls.every((pull) => pull !== undefined)) {
    return fromIterable$(() => mergeByTime(pulls.map((pull) => (pull as () => Iterable<Tick>)())));
  }
  return new Observable<Tick>((subscriber) => {
    const merge = new PushedMerge(subscriber, sources.length);
    const subscriptions: Subscription[] = [];
    merge.slots.forEach((slot, index) => {
      if (pulls[index] === undefined) subscriptions.push(merge.subscribe(slot, sources[index] as Observable<Tick>));
    });
    try {
      merge.slots.forEach((slot, index) => {
        const pull = pulls[index];
        if (pull !== undefined && !subscriber.closed) merge.pull(slot, pull);
      });
    } catch (error) {
      subscriber.error(error);
    }
    merge.start();
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
      for (const slot of merge.slots) slot.iterator?.return?.();
    };
  });
}

import { Observable, type Subscription } from 'rxjs';
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

export function mergeByTime$(sources: readonly Observable<Tick>[]): Observable<Tick> {
  const pulls = sources.map((source) => pullSource(source));
  if (pulls.every((pull) => pull !== undefined)) {
    return fromIterable$(() => mergeByTime(pulls.map((pull) => (pull as () => Iterable<Tick>)())));
  }
  return new Observable<Tick>((subscriber) => {
    const heap = new MinHeap<Entry>(before);
    const slots: Slot[] = sources.map((_, index) => ({ index, queue: new Fifo<Tick>(), iterator: undefined, done: false, queued: false }));
    const subscriptions: Subscription[] = [];
    let waiting = 0; // unfinished pushed sources with nothing queued: the merge cannot move on
    let started = false;
    let draining = false;

    const advance = (slot: Slot): void => {
      if (slot.iterator !== undefined) {
        const step = slot.iterator.next();
        if (step.done === true) slot.done = true;
        else heap.push({ tick: step.value, slot });
        return;
      }
      const next = slot.queue.shift();
      if (next !== undefined) heap.push({ tick: next, slot });
      else if (!slot.done) {
        slot.queued = false;
        waiting += 1;
      }
    };

    const drain = (): void => {
      if (!started || draining) return; // re-entrant emissions are picked up by the running loop
      draining = true;
      try {
        while (waiting === 0 && !subscriber.closed) {
          const entry = heap.pop();
          if (entry === undefined) {
            subscriber.complete();
            return;
          }
          subscriber.next(entry.tick);
          advance(entry.slot);
        }
      } catch (error) {
        subscriber.error(error);
      } finally {
        draining = false;
      }
    };

    slots.forEach((slot, index) => {
      if (pulls[index] !== undefined) return;
      waiting += 1;
      const source = sources[index] as Observable<Tick>;
      subscriptions.push(
        source.subscribe({
          next: (tick) => {
            if (slot.queued) {
              slot.queue.push(tick);
              return;
            }
            slot.queued = true;
            waiting -= 1;
            heap.push({ tick, slot });
            drain();
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            slot.done = true;
            if (!slot.queued) waiting -= 1;
            drain();
          },
        }),
      );
    });
    try {
      slots.forEach((slot, index) => {
        const pull = pulls[index];
        if (pull === undefined || subscriber.closed) return;
        slot.iterator = pull()[Symbol.iterator]();
        advance(slot);
      });
    } catch (error) {
      subscriber.error(error);
    }
    started = true;
    drain();
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
      for (const slot of slots) slot.iterator?.return?.();
    };
  });
}

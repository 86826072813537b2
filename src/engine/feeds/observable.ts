import { Observable } from 'rxjs';
import type { Tick } from '../../domain/tick.js';
import { readTicks } from './read-ticks.js';
import type { FeedOptions } from './options.js';

/**
 * Observables here are cold and synchronous: subscribing pulls the iterable to the end inside
 * subscribe(), checking `closed` before every pull so take(n) or an unsubscribe stops reading
 * at once (and closes the file). No scheduler is involved, so replay order is fixed.
 */
const PULL_SOURCES = new WeakMap<Observable<unknown>, () => Iterable<unknown>>();

export function fromIterable$<T>(factory: () => Iterable<T>): Observable<T> {
  const observable = new Observable<T>((subscriber) => {
    let iterator: Iterator<T> | undefined;
    try {
      iterator = factory()[Symbol.iterator]();
      while (!subscriber.closed) {
        const step = iterator.next();
        if (step.done === true) {
          iterator = undefined;
          subscriber.complete();
          return;
        }
        subscriber.next(step.value);
      }
    } catch (error) {
      iterator = undefined;
      subscriber.error(error);
    } finally {
      iterator?.return?.();
    }
  });
  PULL_SOURCES.set(observable, factory);
  return observable;
}

/**
 * The iterable behind an observable made by fromIterable$, if it is one. mergeByTime$ uses it to
 * pull instead of buffering pushed values; operators applied to the observable hide it.
 */
export function pullSource<T>(observable: Observable<T>): (() => Iterable<T>) | undefined {
  return PULL_SOURCES.get(observable) as (() => Iterable<T>) | undefined;
}

export function tickFile$(file: string, opts: FeedOptions = {}): Observable<Tick> {
  const ticks = readTicks(file, opts);
  return fromIterable$(() => ticks);
}

export function ticksFromArray$(ticks: readonly Tick[]): Observable<Tick> {
  return fromIterable$(() => ticks);
}

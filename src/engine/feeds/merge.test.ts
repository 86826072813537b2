import { Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { mergeByTime } from './merge.js';
import { mergeByTime$ } from './merge-observable.js';
import { fromIterable$, pullSource, ticksFromArray$ } from './observable.js';

const tick = (time: number, instrument = 'EUR_USD'): Tick => ({ instrument, time, bid: 1, ask: 2 });

/** A source that records how far it was pulled and whether it was closed. */
function tracked(times: number[]): { ticks: Iterable<Tick>; pulled: () => number; closed: () => boolean } {
  let pulled = 0;
  let closed = false;
  function* run(): Generator<Tick> {
    try {
      for (const time of times) {
        pulled += 1;
        yield tick(time);
      }
    } finally {
      closed = true;
    }
  }
  return { ticks: { [Symbol.iterator]: run }, pulled: () => pulled, closed: () => closed };
}

describe('mergeByTime', () => {
  it('orders by time, then source index, then position', () => {
    const a = [tick(1, 'A_A'), tick(3, 'A_A'), tick(3, 'A_B')];
    const b = [tick(0, 'B_B'), tick(3, 'B_A'), tick(4, 'B_C')];
    expect([...mergeByTime([a, [], b])].map((t) => `${t.time}${t.instrument}`)).toEqual(['0B_B', '1A_A', '3A_A', '3A_B', '3B_A', '4B_C']);
  });

  it('holds one pending tick per source and closes every source when stopped early', () => {
    const a = tracked([1, 2, 3, 4, 5]);
    const b = tracked([10, 20]);
    const out: number[] = [];
    for (const t of mergeByTime([a.ticks, b.ticks])) {
      out.push(t.time);
      if (out.length === 2) break;
    }
    expect(out).toEqual([1, 2]);
    expect(a.pulled()).toBe(2); // the next tick of a source is pulled only once the consumer wants more
    expect(b.pulled()).toBe(1);
    expect(a.closed() && b.closed()).toBe(true);
  });
});

describe('mergeByTime$', () => {
  it('stays pullable over pullable sources, so take() stops reading them', () => {
    const a = tracked([1, 2, 3, 4, 5]);
    const b = tracked([2, 4]);
    const merged$ = mergeByTime$([fromIterable$(() => a.ticks), fromIterable$(() => b.ticks)]);
    expect(pullSource(merged$)).toBeTypeOf('function');
    const out: number[] = [];
    merged$.pipe(take(3)).subscribe((t) => out.push(t.time));
    expect(out).toEqual([1, 2, 2]);
    expect(a.pulled() + b.pulled()).toBeLessThanOrEqual(5);
    expect(a.closed() && b.closed()).toBe(true);
  });

  it('waits for every pushed source before emitting, and completes when all have', () => {
    const live = new Subject<Tick>();
    const out: number[] = [];
    let completed = false;
    mergeByTime$([live, ticksFromArray$([tick(2), tick(5)])]).subscribe({
      next: (t) => out.push(t.time),
      complete: () => (completed = true),
    });
    expect(out).toEqual([]); // the live source might still send something earlier
    live.next(tick(3));
    expect(out).toEqual([2, 3]); // 3 could go as soon as both sources had a value in hand
    live.next(tick(6));
    expect(out).toEqual([2, 3, 5, 6]); // the other source is done: nothing can come before 6 any more
    expect(completed).toBe(false);
    live.complete();
    expect(completed).toBe(true);
  });

  it('passes errors on and unsubscribes from the other sources', () => {
    const a = new Subject<Tick>();
    const b = new Subject<Tick>();
    let error: unknown;
    mergeByTime$([a, b]).subscribe({ error: (e: unknown) => (error = e) });
    expect(a.observed && b.observed).toBe(true);
    a.error(new Error('feed down'));
    expect((error as Error).message).toBe('feed down');
    expect(b.observed).toBe(false);
  });

  it('reports a failing pulled source as an error', () => {
    function* failing(): Generator<Tick> {
      yield tick(1);
      throw new Error('bad line');
    }
    const live = new Subject<Tick>();
    let error: unknown;
    const out: number[] = [];
    mergeByTime$([fromIterable$(() => failing()), live]).subscribe({ next: (t) => out.push(t.time), error: (e: unknown) => (error = e) });
    live.next(tick(5));
    expect(out).toEqual([1]);
    expect((error as Error).message).toBe('bad line');
  });
});

import type { Observable } from 'rxjs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { FeedParseError } from './errors.js';
import { fromIterable$, pullSource, tickFile$, ticksFromArray$ } from './observable.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-observable-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function collect<T>(source: Observable<T>): { values: T[]; error: unknown; completed: boolean } {
  const result = { values: [] as T[], error: undefined as unknown, completed: false };
  source.subscribe({
    next: (v) => result.values.push(v),
    error: (e: unknown) => (result.error = e),
    complete: () => (result.completed = true),
  });
  return result;
}

const tick = (time: number): Tick => ({ instrument: 'EUR_USD', time, bid: 1.1, ask: 1.2 });

describe('tickFile$', () => {
  it('emits the ticks of a file synchronously and completes', () => {
    const file = join(dir, 'a.csv');
    writeFileSync(file, '1577836800,EUR_USD,1.1,1.2\n1577836801,EUR_USD,1.1,1.3');
    const result = collect(tickFile$(file));
    expect(result.values.map((t) => t.time)).toEqual([1_577_836_800_000_000, 1_577_836_801_000_000]);
    expect(result.completed).toBe(true);
  });

  it('sends a malformed line as an error after the good ticks', () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, '1577836800,EUR_USD,1.1,1.2\n1577836801,EUR_USD,x,1.3');
    const result = collect(tickFile$(file));
    expect(result.values).toHaveLength(1);
    expect(result.error).toBeInstanceOf(FeedParseError);
    expect((result.error as FeedParseError).line).toBe(2);
  });

  it('sends a missing file as an error rather than throwing from subscribe', () => {
    expect(collect(tickFile$(join(dir, 'missing.csv'))).error).toBeInstanceOf(Error);
  });
});

describe('fromIterable$', () => {
  it('stops pulling as soon as the subscriber unsubscribes, and closes the iterator', () => {
    let pulled = 0;
    let closed = false;
    function* source(): Generator<Tick> {
      try {
        for (let i = 0; i < 1_000_000; i += 1) {
          pulled += 1;
          yield tick(i);
        }
      } finally {
        closed = true;
      }
    }
    const result = collect(fromIterable$(() => source()).pipe(take(3)));
    expect(result.values.map((t) => t.time)).toEqual([0, 1, 2]);
    expect(pulled).toBe(3);
    expect(closed).toBe(true);
  });

  it('is cold: each subscription iterates afresh', () => {
    const ticks$ = ticksFromArray$([tick(1), tick(2)]);
    expect(collect(ticks$.pipe(toArray())).values).toEqual(collect(ticks$.pipe(toArray())).values);
    expect(collect(ticks$).values.map((t) => t.time)).toEqual([1, 2]);
  });

  it('remembers its iterable for mergeByTime$, until an operator wraps it', () => {
    const ticks$ = ticksFromArray$([tick(1)]);
    expect(pullSource(ticks$)).toBeTypeOf('function');
    expect(pullSource(ticks$.pipe(take(1)))).toBeUndefined();
  });
});

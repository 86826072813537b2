import { describe, expect, it } from 'vitest';
import { FeedPump, TickQueue, type PumpOptions, type Timers } from '../../src/cli/pump.js';
import type { Tick } from '../../src/domain/tick.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';

const T0 = Date.UTC(2024, 0, 2) * 1000;
const S = 1_000_000;

/** A wall clock that moves only when told to. */
class FakeTimers implements Timers {
  private now = 0;
  private seq = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();

  nowMs(): number {
    return this.now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    this.seq += 1;
    this.due.set(this.seq, { at: this.now + ms, fn });
    return this.seq;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  /** Moves the clock by `ms`, running every timer that falls due on the way, in time order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.due) if (entry[1].at <= end && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.due.delete(next[0]);
      this.now = Math.max(this.now, next[1].at);
      next[1].fn();
    }
    this.now = end;
  }

  get pending(): number {
    return this.due.size;
  }
}

function tick(time: number, bid = 1.1): Tick {
  return { instrument: 'EUR_USD', time, bid, ask: bid + 0.0002 };
}

function setup(
  ticks: Iterable<Tick>,
  options: Partial<PumpOptions> = {},
): { engine: Engine; pump: FeedPump; timers: FakeTimers; queue: TickQueue; seen: Tick[]; ended: () => boolean; errors: unknown[] } {
  const engine = createEngine({ accounts: [{ id: '101-004-1000000-001', currency: 'USD' }], start: T0 });
  const seen: Tick[] = [];
  engine.prices$.subscribe((t) => seen.push(t));
  const timers = new FakeTimers();
  const queue = new TickQueue(ticks);
  let end = false;
  const errors: unknown[] = [];
  const pump = new FeedPump(
    engine,
    queue,
    {
      speed: 1,
      onEnd: () => {
        end = true;
      },
      onError: (e) => errors.push(e),
      ...options,
    },
    timers,
  );
  return { engine, pump, timers, queue, seen, ended: () => end, errors };
}

describe('FeedPump', () => {
  it('replays ticks at their own times, paced at speed x real time', () => {
    const { pump, timers, seen, engine, ended } = setup([tick(T0), tick(T0 + S), tick(T0 + 4 * S)], { speed: 2 });
    pump.start();
    timers.advance(0);
    expect(seen.map((t) => t.time)).toEqual([T0]);
    timers.advance(499);
    expect(seen).toHaveLength(1);
    timers.advance(1);
    expect(seen.map((t) => t.time)).toEqual([T0, T0 + S]);
    timers.advance(1499);
    expect(seen).toHaveLength(2);
    timers.advance(1);
    expect(seen.map((t) => t.time)).toEqual([T0, T0 + S, T0 + 4 * S]);
    expect(engine.now).toBe(T0 + 4 * S);
    expect(ended()).toBe(true);
    expect(timers.pending).toBe(0);
  });

  it('jumps ahead with the clock: ticks the clock passed are skipped, the rest paced from there', () => {
    const { pump, timers, seen, engine, queue } = setup([tick(T0), tick(T0 + S), tick(T0 + 2 * S), tick(T0 + 12 * S), tick(T0 + 13 * S)]);
    pump.start();
    timers.advance(0);
    engine.advanceTo(T0 + 10 * S);
    pump.kick();
    timers.advance(0);
    expect(seen.map((t) => t.time)).toEqual([T0]);
    expect(queue.skipped).toBe(2);
    timers.advance(1999);
    expect(seen).toHaveLength(1);
    timers.advance(1);
    expect(seen.map((t) => t.time)).toEqual([T0, T0 + 12 * S]);
    timers.advance(1000);
    expect(seen).toHaveLength(3);
  });

  it('stamps live ticks with the given clock, pacing them by the feed’s gaps', () => {
    let wall = T0 + 500 * S;
    const { pump, timers, seen } = setup([tick(T0 + S), tick(T0 + 3 * S)], { restamp: () => wall });
    pump.start();
    timers.advance(0);
    expect(seen.map((t) => t.time)).toEqual([T0 + 500 * S]);
    wall += 2 * S;
    timers.advance(2000);
    expect(seen.map((t) => t.time)).toEqual([T0 + 500 * S, T0 + 502 * S]);
  });

  it('pushes at most a batch per turn at full speed, then yields', () => {
    const ticks = Array.from({ length: 12 }, (_, i) => tick(T0 + i * S));
    const { pump, timers, seen, ended } = setup(ticks, { speed: Number.POSITIVE_INFINITY, batch: 5 });
    pump.start();
    timers.advance(0);
    expect(seen).toHaveLength(12);
    expect(ended()).toBe(true);
    const again = setup(ticks, { speed: Number.POSITIVE_INFINITY, batch: 5 });
    again.pump.start();
    // One turn of the fake event loop: run only the first timer.
    let turns = 0;
    const original = again.timers.setTimeout.bind(again.timers);
    again.timers.setTimeout = (fn, ms) =>
      original(() => {
        turns += 1;
        fn();
      }, ms);
    again.pump.kick();
    again.timers.advance(0);
    expect(turns).toBe(3);
  });

  it('stops and reports when the feed fails', () => {
    function* broken(): Generator<Tick> {
      yield tick(T0);
      throw new Error('bad line 2');
    }
    const { pump, timers, seen, errors, ended } = setup(broken());
    pump.start();
    timers.advance(0);
    expect(seen).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('bad line 2');
    expect(ended()).toBe(false);
    expect(timers.pending).toBe(0);
  });

  it('steps through a feed by hand (manual clock)', () => {
    const { engine, queue, seen } = setup([tick(T0 + S), tick(T0 + 2 * S), tick(T0 + 3 * S)]);
    const failures: Error[] = [];
    queue.drainUntil(engine, T0 + 2 * S, (e) => failures.push(e));
    expect(seen.map((t) => t.time)).toEqual([T0 + S, T0 + 2 * S]);
    engine.advanceTo(T0 + 5 * S);
    queue.drainUntil(engine, T0 + 6 * S, (e) => failures.push(e));
    expect(queue.skipped).toBe(1);
    expect(queue.ended).toBe(true);
    expect(failures).toEqual([]);
  });

  it('stops a hand-stepped feed at a line it cannot read, once, and feeds nothing after it', () => {
    function* broken(): Generator<Tick> {
      yield tick(T0 + S);
      throw new Error('bad line 3');
    }
    const { engine, queue, seen } = setup(broken());
    const failures: Error[] = [];
    queue.drainUntil(engine, T0 + 2 * S, (e) => failures.push(e));
    queue.drainUntil(engine, T0 + 3 * S, (e) => failures.push(e));
    expect(seen.map((t) => t.time)).toEqual([T0 + S]);
    expect(failures.map((e) => e.message)).toEqual(['bad line 3']);
    expect(queue.failure?.message).toBe('bad line 3');
  });
});

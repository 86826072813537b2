import type { Tick } from '../domain/tick.js';

/**
 * A tick source read one tick at a time: the next tick, or undefined at the end. The backtest loop
 * reads its ticks through one instead of an iterator: an iterator hands out a `{ done, value }`
 * object per tick, which the optimizing compiler cannot drop when the loop keeps it across
 * iterations, so half a million ticks made half a million garbage objects for the collector.
 */
export interface TickCursor {
  next(): Tick | undefined;
  /** Ends the source early (a generator's finally blocks run); nothing for in-memory sources. */
  close(): void;
}

/** A source that can hand out a cursor of its own (the columns of a sweep). */
export interface CursorSource extends Iterable<Tick> {
  cursor(): TickCursor;
}

class ArrayCursor implements TickCursor {
  private i = 0;

  constructor(private readonly ticks: readonly Tick[]) {}

  next(): Tick | undefined {
    const i = this.i;
    if (i >= this.ticks.length) return undefined;
    this.i = i + 1;
    return this.ticks[i];
  }

  close(): void {}
}

class IteratorCursor implements TickCursor {
  constructor(private readonly iterator: Iterator<Tick>) {}

  next(): Tick | undefined {
    const step = this.iterator.next();
    return step.done === true ? undefined : step.value;
  }

  close(): void {
    this.iterator.return?.();
  }
}

function hasCursor(ticks: Iterable<Tick>): ticks is CursorSource {
  return typeof (ticks as Partial<CursorSource>).cursor === 'function';
}

/** The cursor of any tick source, from its first tick. */
export function tickCursor(ticks: Iterable<Tick>): TickCursor {
  if (Array.isArray(ticks)) return new ArrayCursor(ticks as readonly Tick[]);
  if (hasCursor(ticks)) return ticks.cursor();
  return new IteratorCursor(ticks[Symbol.iterator]());
}

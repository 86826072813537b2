import type { Tick } from '../../domain/tick.js';

/**
 * A tick source that can be looked at before a tick is taken: what a replay loop needs to feed
 * ticks up to a time. Pulls lazily, one tick at a time; close() releases the source (its file).
 */
export class PeekableTicks {
  private readonly iterator: Iterator<Tick>;
  private head: Tick | undefined;
  private done = false;
  /** Ticks taken so far. */
  taken = 0;

  constructor(source: Iterable<Tick>) {
    this.iterator = source[Symbol.iterator]();
  }

  peek(): Tick | undefined {
    if (this.head === undefined && !this.done) {
      const step = this.iterator.next();
      if (step.done === true) this.done = true;
      else this.head = step.value;
    }
    return this.head;
  }

  take(): Tick | undefined {
    const tick = this.peek();
    if (tick !== undefined) this.taken += 1;
    this.head = undefined;
    return tick;
  }

  get ended(): boolean {
    return this.peek() === undefined;
  }

  close(): void {
    this.done = true;
    this.head = undefined;
    this.iterator.return?.();
  }
}

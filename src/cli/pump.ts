import type { Tick } from '../domain/tick.js';
import type { Micros } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import { PeekableTicks } from '../engine/feeds/index.js';

/** The replay source of `serve`: a peekable tick source that also steps a manual clock. */
export class TickQueue extends PeekableTicks {
  /** Ticks dropped because the clock had passed them. */
  skipped = 0;
  /** Why reading the tick files stopped (a bad line, a tick back in time); no tick is fed after it. */
  failure: Error | undefined = undefined;

  /**
   * Manual stepping: feeds every tick up to `time` to the engine. Ticks older than the clock
   * (someone pushed or advanced past them) are counted and dropped. A tick file that cannot be
   * read further stops the feed, once, with `onFailure`: the clock still moves, as in a replay
   * whose feed stopped, and the request that moved it is not failed for the file's fault. The
   * engine's own errors (a journal that cannot be written) are thrown as ever.
   */
  drainUntil(engine: Engine, time: Micros, onFailure: (error: Error) => void): void {
    for (;;) {
      if (this.failure !== undefined) return;
      let tick: Tick | undefined;
      try {
        tick = this.peek();
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        onFailure(this.failure);
        return;
      }
      if (tick === undefined || tick.time > time) return;
      this.take();
      if (tick.time < engine.now) this.skipped += 1;
      else engine.pushTick(tick);
    }
  }
}

/** The wall clock and timers, passed in so the pacing logic can be tested on a fake clock. */
export interface Timers {
  /** Milliseconds on a monotonic clock. */
  nowMs(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PumpOptions {
  /** Simulated seconds per wall-clock second; Infinity = as fast as the engine goes. */
  readonly speed: number;
  /**
   * Live mode: each tick is stamped with this clock when it is pushed; the feed's own times only
   * pace it. Without it (replay) ticks keep their times and the pacing follows the engine clock:
   * when the control API advances the clock, the replay jumps ahead with it.
   */
  readonly restamp?: () => Micros;
  /** Ticks pushed per turn of the event loop before requests get a chance. Default 5,000. */
  readonly batch?: number;
  onEnd(): void;
  onError(error: unknown): void;
}

/** The longest sleep, so a clock moved by the control API is noticed soon even without kick(). */
const MAX_SLEEP_MS = 1000;

/**
 * Paces a tick source against the wall clock: a tick of simulated time t is pushed when
 * (t - anchor) / speed of wall time has passed since the anchor was set. Runs in timer callbacks,
 * at most `batch` ticks per callback, so the server keeps answering while a fast replay runs.
 */
export class FeedPump {
  private simAnchor = 0;
  private wallAnchor = 0;
  private timer: unknown;
  private running = false;
  pushed = 0;

  constructor(
    private readonly engine: Engine,
    private readonly queue: TickQueue,
    private readonly options: PumpOptions,
    private readonly timers: Timers,
  ) {}

  start(): void {
    this.wallAnchor = this.timers.nowMs();
    this.simAnchor = this.options.restamp === undefined ? this.engine.now : (this.queue.peek()?.time ?? 0);
    this.running = true;
    this.schedule(0);
  }

  /** Re-plans at once: the clock moved (control API), so the next tick may be due now. */
  kick(): void {
    if (!this.running) return;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => this.step(), ms);
  }

  /** Simulated time the wall clock has reached. */
  private target(wallMs: number): Micros {
    const speed = this.options.speed;
    if (speed === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    return this.simAnchor + (wallMs - this.wallAnchor) * 1000 * speed;
  }

  private step(): void {
    this.timer = undefined;
    if (!this.running) return;
    const wall = this.timers.nowMs();
    let target = this.target(wall);
    const restamp = this.options.restamp;
    if (restamp === undefined && this.engine.now > target) {
      // The clock was advanced past the replay: continue from there.
      this.simAnchor = this.engine.now;
      this.wallAnchor = wall;
      target = this.engine.now;
    }
    const batch = this.options.batch ?? 5_000;
    let n = 0;
    try {
      for (;;) {
        const tick = this.queue.peek();
        if (tick === undefined) {
          this.running = false;
          this.options.onEnd();
          return;
        }
        if (tick.time > target) break;
        if (n >= batch) {
          this.schedule(0);
          return;
        }
        this.queue.take();
        n += 1;
        if (restamp !== undefined) {
          this.engine.pushTick({ ...tick, time: restamp() });
          this.pushed += 1;
        } else if (tick.time < this.engine.now) {
          this.queue.skipped += 1;
        } else {
          this.engine.pushTick(tick);
          this.pushed += 1;
        }
      }
    } catch (error) {
      this.running = false;
      this.options.onError(error);
      return;
    }
    const next = this.queue.peek() as Tick;
    const waitMs = (next.time - target) / (1000 * this.options.speed);
    this.schedule(Math.min(MAX_SLEEP_MS, Math.max(0, Math.ceil(waitMs))));
  }
}

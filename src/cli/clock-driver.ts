/**
 * Serve start-up, the clock: the wall clock reading, the price source of the settings, and what
 * moves the engine's clock in each mode (a paced replay of the feed; in live mode also a ticker
 * that moves time when no tick comes; in manual mode nothing but the control API).
 */
import { performance } from 'node:perf_hooks';
import type { CandleHistory } from '../api/candle-history.js';
import { buildCatalogue } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import { generateTicks, mergeByTime, readTicks, ticksInWindow } from '../engine/feeds/index.js';
import { windowText } from '../engine/feeds/window.js';
import { statSync } from 'node:fs';
import type { ServeSettings } from './config.js';
import { FeedPump, TickQueue, type Timers } from './pump.js';
import { StartError, type ServeIo } from './serve-types.js';

let lastWall: Micros = 0;

/**
 * The wall clock in microseconds: the system clock, with the sub-millisecond digits of the
 * monotonic clock, never going back (a system clock set back holds still until it catches up).
 */
export function wallMicros(): Micros {
  const t = Date.now() * 1000 + Math.floor((performance.now() * 1000) % 1000);
  if (t > lastWall) lastWall = t;
  return lastWall;
}

const realTimers: Timers = {
  nowMs: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function openTickFiles(settings: ServeSettings, history: CandleHistory | undefined): TickQueue {
  const sources = settings.ticks.map((s, i) => {
    try {
      if (!statSync(s.file).isFile()) throw new Error('not a file');
    } catch (error) {
      throw new StartError(`ticks[${i}]: cannot read ${s.file}: ${(error as Error).message}`, 2);
    }
    // A tick that goes back in time stops the feed where it is, naming the file and line, as a bad line does.
    const opts: { format?: typeof s.format; instrument?: string; inTimeOrder: true } = { inTimeOrder: true };
    if (s.format !== undefined) opts.format = s.format;
    if (s.instrument !== undefined) opts.instrument = s.instrument;
    return readTicks(s.file, opts);
  });
  try {
    // The queue reads the first tick of each file (its format is detected from its first line).
    const merged = sources.length === 1 ? (sources[0] as Iterable<Tick>) : mergeByTime(sources);
    // A period: the ticks before it only go to the candles' history (when there is one), and the
    // files are read no further than its end.
    const before = history === undefined ? undefined : (tick: Tick): void => history.add(tick);
    return new TickQueue(settings.window === undefined ? merged : ticksInWindow(merged, settings.window, before));
  } catch (error) {
    throw new StartError(`cannot read the first tick: ${(error as Error).message}`, 2);
  }
}

/**
 * The price source of the settings, opened; null when prices only come from /sim/ticks. The tick
 * files' ticks before a period go to `history` (read when the queue first reads, at start-up).
 */
export function openFeed(settings: ServeSettings, generatorStart: Micros, history?: CandleHistory): TickQueue | null {
  if (settings.ticks.length > 0) return openTickFiles(settings, history);
  const g = settings.generator;
  if (g === undefined) return null;
  try {
    return new TickQueue(
      generateTicks({
        seed: g.seed,
        instruments: g.instruments,
        start: generatorStart,
        count: Number.MAX_SAFE_INTEGER,
        meanIntervalMicros: g.meanIntervalMicros,
        catalogue: buildCatalogue(settings.instruments),
      }),
    );
  } catch (error) {
    throw new StartError(`generator: ${(error as Error).message}`, 2);
  }
}

export function firstTick(queue: TickQueue | null): Tick | undefined {
  try {
    return queue?.peek();
  } catch (error) {
    throw new StartError(`cannot read the first tick: ${(error as Error).message}`, 2);
  }
}

/** Drives the engine's clock in the settings' mode once the server is up; stop() ends it. */
export class ClockDriver {
  private pump: FeedPump | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly settings: ServeSettings,
    private readonly queue: TickQueue | null,
    private readonly io: ServeIo,
    /** Errors of the engine (a failed journal write ends the process there). */
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The clock in live mode: the wall clock, never behind the engine's. */
  liveNow(engine: Engine): Micros {
    return Math.max(wallMicros(), engine.now);
  }

  /** Says that the tick files could not be read further (a replay's or a manual clock's feed). */
  feedStopped(error: unknown): void {
    this.io.err(`v20sim: the price feed stopped: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** The clock moved by other means (a request, the control API): re-plan the replay. */
  kick(): void {
    this.pump?.kick();
  }

  start(engine: Engine): void {
    const { settings, queue, io } = this;
    const live = settings.clock === 'live';
    if (queue !== null && settings.clock !== 'manual') {
      const pump = new FeedPump(
        engine,
        queue,
        {
          speed: live ? 1 : settings.speed,
          ...(live ? { restamp: () => this.liveNow(engine) } : {}),
          onEnd: () =>
            io.out(
              `replay finished at ${formatRfc3339(engine.now)}: ${pump.pushed} ticks pushed${windowText(settings.window)}${queue.skipped > 0 ? `, ${queue.skipped} skipped (older than the clock)` : ''}`,
            ),
          onError: (error) => {
            this.onError(error);
            this.feedStopped(error);
          },
        },
        realTimers,
      );
      this.pump = pump;
      pump.start();
    }
    // GTD expiries and daily financing happen on time even when no tick or request comes.
    if (live) this.ticker = setInterval(() => this.advanceLive(engine), 1000);
  }

  private advanceLive(engine: Engine): void {
    try {
      const t = this.liveNow(engine);
      if (t > engine.now) engine.advanceTo(t);
    } catch (error) {
      this.onError(error);
      this.io.err(`v20sim: advancing the clock failed: ${(error as Error).message}`);
    }
  }

  stop(): void {
    this.pump?.stop();
    if (this.ticker !== undefined) clearInterval(this.ticker);
  }
}

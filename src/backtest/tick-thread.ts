/**
 * A backtest's tick files read on a second thread. Unzipping and parsing the files was over a
 * quarter of a whole-process backtest's time on the one thread that also runs the strategy and
 * the engine; a worker thread now does it (tick-thread-worker.ts) while the backtest runs, and
 * hands the ticks over in batches of columns. The backtest's loop is synchronous, so it waits for
 * a batch with Atomics.wait and takes it with receiveMessageOnPort. The ticks are the ones
 * openTicks gives on this thread, in the same order, with the same errors at the same place: a
 * backtest's results do not depend on which thread read its files.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { Tick } from '../domain/tick.js';
import { builtModule, siblingModule } from '../workers/built-module.js';
import type { TickSourceOptions } from './tick-files.js';
import { TickBatchReader } from './tick-batch.js';
import type { CursorSource, TickCursor } from './tick-cursor.js';
import { SIGNAL, SIGNAL_SLOTS, type ReaderFailure, type TickThreadData, type TickThreadMessage } from './tick-thread-worker.js';

/**
 * Below this many bytes of tick text, reading on this thread costs about what starting a worker
 * does (its first batch comes 40-50 ms after the start). The bundled sample (3.7 MB of csv, 67,671
 * ticks) ran as fast either way; 13.8 MB of LEAN quotes (532,903 ticks) 10% faster on the thread.
 */
export const TICK_THREAD_MIN_BYTES = 6 << 20;
const FIRST_BATCH = 1 << 10;
const BATCH_TICKS = 1 << 15;
/** Batches in flight at most: ~3.5 MB of columns, so a long backtest's memory stays bounded. */
const AHEAD = 4;
/**
 * A wait this long without a message means the reader is gone (a worker killed from outside,
 * out of memory): the backtest fails instead of hanging. A batch takes milliseconds to read.
 */
const STALL_MS = 120_000;

/**
 * The module the worker loads: the built twin when there is one (see built-module.ts), else the
 * TypeScript source through tsx (a second of start-up: only when a caller insists).
 */
function readerModule(): { url: URL; viaTsx: boolean } {
  const module = siblingModule('tick-thread-worker', import.meta.url);
  if (!module.pathname.endsWith('.ts')) return { url: module, viaTsx: false };
  const built = builtModule(module);
  return built === undefined ? { url: module, viaTsx: true } : { url: built, viaTsx: false };
}

/** A small bootstrap, so that a failure to load the reader still reaches the backtest as a message. */
function bootstrap(url: URL, viaTsx: boolean): URL {
  const load = viaTsx
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`
    : `import(${JSON.stringify(url.href)})`;
  const source = [
    `import { workerData } from 'node:worker_threads';`,
    `${load}.then((m) => m.readTicksOnThread(workerData), (error) => {`,
    `  workerData.port.postMessage({ kind: 'error', name: 'Error', message: 'the tick reader thread did not start: ' + (error && error.message || String(error)) });`,
    `  Atomics.add(workerData.signal, ${SIGNAL.posted}, 1);`,
    `  Atomics.notify(workerData.signal, ${SIGNAL.posted});`,
    `});`,
  ].join('\n');
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

/** The reader's error as an Error of the same name and message. */
function rebuild(failure: ReaderFailure): Error {
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

class ThreadCursor implements TickCursor {
  private readonly reader = new TickBatchReader();
  private done = false;

  constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly signal: Int32Array,
    private readonly onBytes: ((bytes: number) => void) | undefined,
  ) {}

  next(): Tick | undefined {
    return this.reader.next() ?? this.nextBatch();
  }

  /** Takes batches until one has a tick; undefined at the end. */
  private nextBatch(): Tick | undefined {
    while (!this.done) {
      const message = this.receive();
      if (message.kind === 'end') {
        this.close();
        return undefined;
      }
      if (message.kind === 'error') {
        this.close();
        throw rebuild(message);
      }
      Atomics.add(this.signal, SIGNAL.taken, 1);
      Atomics.notify(this.signal, SIGNAL.taken);
      this.onBytes?.(message.batch.bytes);
      this.reader.load(message.batch);
      const tick = this.reader.next();
      if (tick !== undefined) return tick;
    }
    return undefined;
  }

  private receive(): TickThreadMessage {
    for (;;) {
      const seen = Atomics.load(this.signal, SIGNAL.posted);
      const got = receiveMessageOnPort(this.port);
      if (got !== undefined) return got.message as TickThreadMessage;
      if (Atomics.wait(this.signal, SIGNAL.posted, seen, STALL_MS) === 'timed-out') {
        this.close();
        throw new Error(`the tick reader thread sent nothing for ${STALL_MS / 1000} s`);
      }
    }
  }

  close(): void {
    if (this.done) return;
    this.done = true;
    this.reader.clear();
    Atomics.store(this.signal, SIGNAL.stop, 1);
    Atomics.notify(this.signal, SIGNAL.taken);
    this.port.close();
    void this.worker.terminate();
  }
}

/** A started reader: its ticks, read once through `cursor()`; `close()` ends it if they are not wanted. */
export interface TickThread extends CursorSource {
  close(): void;
}

/**
 * `auto`: when it pays (see startTickThread); `off`: never (V20SIM_TICK_THREAD=off, for a machine
 * whose cores are shared out more thinly than the OS reports); `always`: whatever the size, from
 * the sources through tsx if need be (tests).
 */
export type TickThreadMode = 'auto' | 'off' | 'always';

/** The mode V20SIM_TICK_THREAD asks for; auto when unset or not one of the three. */
export function tickThreadMode(env: NodeJS.ProcessEnv): TickThreadMode {
  const mode = env['V20SIM_TICK_THREAD'];
  return mode === 'off' || mode === 'always' ? mode : 'auto';
}

export interface TickThreadOptions extends TickSourceOptions {
  readonly mode?: TickThreadMode;
  /** The bytes of tick text the files hold (decompressedSize's sum), for the size rule. */
  readonly textBytes?: number;
}

/**
 * Starts reading `files` on a worker thread, or gives undefined when that would not pay: one core,
 * less than TICK_THREAD_MIN_BYTES of text, or no built JavaScript to start the worker from. The
 * caller then reads them with openTicks as before.
 */
export function startTickThread(files: readonly string[], options: TickThreadOptions = {}): TickThread | undefined {
  const { mode = 'auto', textBytes = 0, onBytes, ...readOptions } = options;
  if (mode === 'off') return undefined;
  const module = readerModule();
  if (mode === 'auto' && (availableParallelism() < 2 || textBytes < TICK_THREAD_MIN_BYTES || module.viaTsx)) return undefined;
  const signal = new Int32Array(new SharedArrayBuffer(SIGNAL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const channel = new MessageChannel();
  const data: TickThreadData = {
    files: [...files],
    options: readOptions,
    port: channel.port2,
    signal,
    firstBatch: FIRST_BATCH,
    batchTicks: BATCH_TICKS,
    ahead: AHEAD,
  };
  const worker = new Worker(bootstrap(module.url, module.viaTsx), { workerData: data, transferList: [channel.port2] });
  // Failures arrive as messages; the thread never keeps the process alive on its own.
  worker.on('error', () => undefined);
  worker.unref();
  const cursor = new ThreadCursor(worker, channel.port1, signal, onBytes);
  let handedOut = false;
  const take = (): TickCursor => {
    if (handedOut) throw new Error('the tick reader thread reads its files once');
    handedOut = true;
    return cursor;
  };
  return {
    cursor: take,
    *[Symbol.iterator]() {
      const ticks = take();
      try {
        for (let tick = ticks.next(); tick !== undefined; tick = ticks.next()) yield tick;
      } finally {
        ticks.close();
      }
    },
    close: () => cursor.close(),
  };
}

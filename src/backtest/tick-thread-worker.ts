/**
 * The reading half of tick-thread.ts, run on a worker thread: unzips and parses a backtest's tick
 * files with openTicks (every format, the merge by time, the window, the same errors) and posts the
 * ticks in order, in batches of columns, staying at most `ahead` batches in front of the backtest
 * so memory stays bounded however long the files are.
 */
import type { MessagePort } from 'node:worker_threads';
import { openTicks, type TickSourceOptions } from './tick-files.js';
import { TickBatchBuilder, type TickBatch } from './tick-batch.js';
import { tickCursor } from './tick-cursor.js';

/** Slots of the shared signal array. */
export const SIGNAL = {
  /** Messages the reader has posted. */
  posted: 0,
  /** Batches the backtest has taken. */
  taken: 1,
  /** Set to 1 when the backtest stops early: the reader ends. */
  stop: 2,
} as const;
export const SIGNAL_SLOTS = Object.keys(SIGNAL).length;

export interface TickThreadData {
  readonly files: readonly string[];
  readonly options: Omit<TickSourceOptions, 'onBytes'>;
  readonly port: MessagePort;
  readonly signal: Int32Array;
  /**
   * Ticks in the first batch: small, so the first tick is not held up by a whole batch. Each next
   * batch is four times larger, up to `batchTicks`, so the reader stays ahead from the start.
   */
  readonly firstBatch: number;
  readonly batchTicks: number;
  /** Batches posted and not yet taken, at most. */
  readonly ahead: number;
}

/** A failure of the reader: the backtest's thread throws an Error of this name and message. */
export interface ReaderFailure {
  readonly kind: 'error';
  readonly name: string;
  readonly message: string;
}

export type TickThreadMessage = { readonly kind: 'ticks'; readonly batch: TickBatch } | { readonly kind: 'end' } | ReaderFailure;

export function failureOf(error: unknown): ReaderFailure {
  return error instanceof Error
    ? { kind: 'error', name: error.name, message: error.message }
    : { kind: 'error', name: 'Error', message: String(error) };
}

/** Posts a message and wakes the backtest's thread if it waits for one. */
export function postToBacktest(
  data: Pick<TickThreadData, 'port' | 'signal'>,
  message: TickThreadMessage,
  transfer: ArrayBuffer[] = [],
): void {
  data.port.postMessage(message, transfer);
  Atomics.add(data.signal, SIGNAL.posted, 1);
  Atomics.notify(data.signal, SIGNAL.posted);
}

/** Waits until fewer than `ahead` posted batches are untaken; false when the backtest stopped. */
function roomFor(signal: Int32Array, posted: number, ahead: number): boolean {
  for (;;) {
    if (Atomics.load(signal, SIGNAL.stop) !== 0) return false;
    const taken = Atomics.load(signal, SIGNAL.taken);
    if (posted - taken < ahead) return true;
    Atomics.wait(signal, SIGNAL.taken, taken);
  }
}

/** Reads every tick and posts it; the last message is `end` or the error that stopped the reading. */
export function readTicksOnThread(data: TickThreadData): void {
  let bytes = 0;
  let posted = 0;
  let builder: TickBatchBuilder | undefined;
  const post = (builder: TickBatchBuilder): boolean => {
    const { batch, transfer } = builder.finish(bytes);
    bytes = 0;
    postToBacktest(data, { kind: 'ticks', batch }, transfer);
    posted += 1;
    return roomFor(data.signal, posted, data.ahead);
  };
  try {
    const cursor = tickCursor(openTicks(data.files, { ...data.options, onBytes: (n) => void (bytes += n) }));
    try {
      let size = data.firstBatch;
      builder = new TickBatchBuilder(size);
      for (let tick = cursor.next(); tick !== undefined; tick = cursor.next()) {
        if (builder.add(tick)) continue;
        if (!post(builder)) return;
        size = Math.min(size * 4, data.batchTicks);
        builder = new TickBatchBuilder(size);
        builder.add(tick);
      }
    } finally {
      cursor.close();
    }
    if (builder.count > 0 && !post(builder)) return;
    postToBacktest(data, { kind: 'end' });
  } catch (error) {
    // The ticks read before the error go first, so the backtest fails after the same ticks as on one thread.
    if (builder !== undefined && builder.count > 0 && !post(builder)) return;
    postToBacktest(data, failureOf(error));
  }
}

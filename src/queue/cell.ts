/**
 * One run of a sweep as a queue job (a grid cell): everything a worker on another machine needs
 * to compute exactly the row a local sweep computes, as plain JSON. The strategy travels by the
 * SHA-256 of its source (uploaded once per sweep), the tick files by a path every worker sees and
 * the SHA-256 of their bytes, so a worker reading other data fails the cell instead of answering.
 */
import type { Metrics, SweepRow } from '../backtest/index.js';
import type { SweepSpec } from '../backtest/index.js';

export interface CellTick {
  /** Absolute path, the same on every machine (shared storage). */
  readonly path: string;
  /** SHA-256 of the file's bytes as the sweep read them. */
  readonly sha256: string;
}

/** The data of a queue job: one cell of one sweep. */
export interface CellData {
  readonly sweepId: string;
  /** Position in the grid (SweepJob.index). */
  readonly index: number;
  readonly params: SweepRow['params'];
  readonly strategy: {
    readonly sha256: string;
    /** The file's extension (.ts, .mjs, ...): how the worker loads it. */
    readonly extension: string;
  };
  readonly ticks: readonly CellTick[];
  readonly format?: SweepSpec['format'];
  readonly instrument?: string;
  /** The sweep's tick window (microseconds: from inclusive, to exclusive), when it has one. */
  readonly from?: number;
  readonly to?: number;
  readonly account: SweepSpec['account'];
  readonly equityIntervalMicros: number;
  /** The run seed: every backtest runs its engine with seed 0 (runner.ts); recorded so a change is caught. */
  readonly seed: number;
  /** ENGINE_VERSION of the sweep: a worker of another version refuses the cell. */
  readonly engine: string;
}

export const BACKTEST_SEED = 0;

/** The job ID of a cell: the sweep ID and the grid position (BullMQ IDs may not contain ':'). */
export function cellJobId(sweepId: string, index: number): string {
  return `${sweepId}-${index}`;
}

/** A parameter list as people read it: fast=5 slow=50. */
export function paramText(params: SweepRow['params']): string {
  const text = Object.entries(params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  return text === '' ? 'no parameters' : text;
}

/**
 * A cell's metrics as text that comes back to the same numbers: JSON turns -0 into 0 and
 * Infinity or NaN into null, which would make a queued sweep's files differ from a local one's.
 */
export function encodeMetrics(metrics: Metrics): string {
  return JSON.stringify(metrics, (_key, value: unknown) =>
    typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))
      ? { number: Object.is(value, -0) ? '-0' : String(value) }
      : value,
  );
}

export function decodeMetrics(text: string): Metrics {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const number = (value as { number?: unknown }).number;
      if (keys.length === 1 && typeof number === 'string') return Number(number);
    }
    return value;
  }) as Metrics;
}

/**
 * Progress of a backtest on stderr. The wall clock is read here and only here: nothing the run
 * writes depends on it.
 */
import { fmtNumber } from '../backtest/index.js';

const BAR_WIDTH = 28;
const REDRAW_NANOS = 100_000_000n;
const LINE_NANOS = 5_000_000_000n;

function compact(rate: number): string {
  if (rate >= 1e6) return `${(rate / 1e6).toFixed(2)}M`;
  if (rate >= 1e3) return `${(rate / 1e3).toFixed(1)}k`;
  return rate.toFixed(0);
}

/** Seconds as m:ss or h:mm:ss. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600),
    m = Math.floor((s % 3600) / 60),
    r = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}` : `${m}:${String(r).padStart(2, '0')}`;
}

function simulated(time: number): string {
  return new Date(Math.floor(time / 1000)).toISOString().slice(0, 16).replace('T', ' ');
}

export interface Progress {
  update(ticks: number, time: number): void;
  finish(ticks: number): void;
}

export interface ProgressOptions {
  readonly write: (text: string) => void;
  /** True on a terminal: a bar redrawn in place instead of a line every few seconds. */
  readonly isTTY: boolean;
  /** The share of the input done so far (0 to 1), when known. */
  readonly share: () => number | undefined;
}

function barLine(ticks: number, rate: number, secs: number, share: number | undefined, time: number): string {
  if (share === undefined || share <= 0) return `${fmtNumber(ticks, 0)} ticks  ${compact(rate)} ticks/s  ${simulated(time)} UTC`;
  const done = Math.min(1, share);
  const filled = Math.round(done * BAR_WIDTH);
  const left = (secs / done) * (1 - done);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(done * 100).toFixed(0).padStart(3)}%  ${fmtNumber(ticks, 0)} ticks  ${compact(rate)} ticks/s  ${clock(left)} left`;
}

/** On a terminal: a bar redrawn at most every 100 ms, with the time left once the share is known. Elsewhere: a plain line every 5 seconds. */
export function progressDisplay(options: ProgressOptions): Progress {
  const started = process.hrtime.bigint();
  let last = started;
  const elapsed = (now: bigint): number => Number(now - started) / 1e9;
  const rateOf = (ticks: number, secs: number): number => (secs > 0 ? ticks / secs : 0);
  return {
    update(ticks, time) {
      const now = process.hrtime.bigint();
      if (now - last < (options.isTTY ? REDRAW_NANOS : LINE_NANOS)) return;
      last = now;
      const secs = elapsed(now);
      const rate = rateOf(ticks, secs);
      if (options.isTTY) options.write(`\r\x1b[K${barLine(ticks, rate, secs, options.share(), time)}`);
      else options.write(`backtest: ${fmtNumber(ticks, 0)} ticks, ${compact(rate)} ticks/s, simulated time ${simulated(time)} UTC\n`);
    },
    finish(ticks) {
      const secs = elapsed(process.hrtime.bigint());
      const text = `${fmtNumber(ticks, 0)} ticks in ${secs.toFixed(1)} s (${compact(rateOf(ticks, secs))} ticks/s)\n`;
      options.write(options.isTTY ? `\r\x1b[K${text}` : `backtest: ${text}`);
    },
  };
}

import type { Tick } from '../../domain/tick.js';
import { formatRfc3339, type Micros } from '../../domain/time.js';
import type { TickSource } from './merge.js';

/** A period of a run: ticks from `from` (inclusive) to `to` (exclusive); either end may be open. */
export interface TickWindow {
  readonly from?: Micros;
  readonly to?: Micros;
}

/**
 * The ticks of a time-ordered source within the window, read lazily: those before `from` are
 * skipped (handed to `before` if given), and reading stops at the first tick at or after `to`, so
 * the rest of a long file is never read. Without bounds, the source itself.
 */
export function ticksInWindow(ticks: TickSource, window: TickWindow, before?: (tick: Tick) => void): TickSource {
  const { from, to } = window;
  if (from === undefined && to === undefined) return ticks;
  const start = from ?? Number.NEGATIVE_INFINITY;
  const end = to ?? Number.POSITIVE_INFINITY;
  return {
    // Skipping ticks only raises the source's lower bound: the source's own still holds.
    ...(ticks.earliest === undefined ? {} : { earliest: ticks.earliest }),
    *[Symbol.iterator]() {
      for (const tick of ticks) {
        if (tick.time >= end) return;
        if (tick.time >= start) yield tick;
        else before?.(tick);
      }
    },
  };
}

/** The window with its given ends only; undefined when it has none. */
export function windowEnds(window: TickWindow | undefined): TickWindow | undefined {
  if (window === undefined || (window.from === undefined && window.to === undefined)) return undefined;
  return { ...(window.from === undefined ? {} : { from: window.from }), ...(window.to === undefined ? {} : { to: window.to }) };
}

/** ' from X', ' before Y' or ' from X before Y' for a message; empty without a window. */
export function windowText(window: TickWindow | undefined): string {
  if (window === undefined) return '';
  const from = window.from === undefined ? '' : ` from ${formatRfc3339(window.from)}`;
  return `${from}${window.to === undefined ? '' : ` before ${formatRfc3339(window.to)}`}`;
}

import { Observable, type OperatorFunction } from 'rxjs';
import type { Tick } from '../../domain/tick.js';
import type { Micros } from '../../domain/time.js';

/**
 * The pricing stream's rate rule, on simulated time. OANDA (oanda-v20-openapi.json, "Price
 * Stream"): the stream "will provide at most 4 prices per second (every 250 milliseconds) for each
 * instrument being requested. If more than one price is created for an instrument during the 250
 * millisecond window, only the price in effect at the end of the window is sent"; and "Pricing
 * windows for different connections to the price stream are not all aligned" (facts sheet 7).
 *
 * Per connection and instrument:
 * - a price goes out at once when no window of the instrument is open, and opens a window
 *   [its time, its time + W);
 * - a price inside an open window is held (a later one replaces it);
 * - when simulated time reaches the window's end (the next quote of any instrument, or the clock
 *   advancing without one), the held price goes out as the price in effect at the end of the
 *   window, and the next window starts there. Windows are half-open: a quote exactly at the end
 *   belongs to the next window. A held price is never dropped, only delayed until time passes.
 * Released prices go out in the order of their windows' ends (ties: the order they were held),
 * before the quote that moved time. Everything is a function of the quotes' and the clock's
 * times, never of the wall clock, so a replay gives the same lines at any speed.
 */
export class PriceThrottle {
  private readonly windowEnds = new Map<string, Micros>();
  private readonly held = new Map<string, Tick>();
  /** Instruments with a held price, in the order they were first held. */
  private heldOrder: string[] = [];
  /** The earliest window end among held prices: before it, time passing releases nothing. */
  private nextDue = Number.POSITIVE_INFINITY;

  /** `windowMicros` 0: every price goes out at once. */
  constructor(private readonly windowMicros: Micros) {}

  /** Time moved to `now`: appends to `out` the held prices whose window has ended by then. */
  advance(now: Micros, out: Tick[]): void {
    if (now < this.nextDue) return;
    const due: string[] = [];
    const kept: string[] = [];
    for (const instrument of this.heldOrder) ((this.windowEnds.get(instrument) as Micros) <= now ? due : kept).push(instrument);
    // Stable sort: equal window ends keep the order of holding.
    due.sort((a, b) => (this.windowEnds.get(a) as Micros) - (this.windowEnds.get(b) as Micros));
    let nextDue = Number.POSITIVE_INFINITY;
    for (const instrument of kept) nextDue = Math.min(nextDue, this.windowEnds.get(instrument) as Micros);
    for (const instrument of due) {
      out.push(this.held.get(instrument) as Tick);
      this.held.delete(instrument);
      this.windowEnds.set(instrument, (this.windowEnds.get(instrument) as Micros) + this.windowMicros);
    }
    this.heldOrder = kept;
    this.nextDue = nextDue;
  }

  /** A new price of a streamed instrument: appends to `out` what goes out now, in order. */
  offer(tick: Tick, out: Tick[]): void {
    this.advance(tick.time, out);
    const end = this.windowEnds.get(tick.instrument);
    if (end === undefined || tick.time >= end) {
      this.windowEnds.set(tick.instrument, tick.time + this.windowMicros);
      out.push(tick);
      return;
    }
    if (!this.held.has(tick.instrument)) {
      this.heldOrder.push(tick.instrument);
      this.nextDue = Math.min(this.nextDue, end);
    }
    this.held.set(tick.instrument, tick);
  }
}

/** v20's window: at most one price per instrument every 250 ms (the description quoted above). */
export const PRICE_STREAM_THROTTLE_MS_DEFAULT = 250;

/** What moves a pricing stream: a quote, or the simulated clock moving without one. */
export type MarketEvent = Tick | Micros;

/**
 * The prices of `instruments` a stream sends, from the engine's quotes and clock advances merged
 * in the order they happen: every one when `windowMicros` is 0, else throttled by PriceThrottle.
 */
export function throttlePrices(windowMicros: Micros, instruments: ReadonlySet<string>): OperatorFunction<MarketEvent, Tick> {
  return (source) =>
    new Observable<Tick>((subscriber) => {
      const throttle = new PriceThrottle(windowMicros);
      const out: Tick[] = [];
      return source.subscribe({
        next(event) {
          if (typeof event === 'number') throttle.advance(event, out);
          else if (instruments.has(event.instrument)) {
            if (windowMicros === 0) out.push(event);
            else throttle.offer(event, out);
          } else throttle.advance(event.time, out);
          for (let i = 0; i < out.length; i += 1) subscriber.next(out[i] as Tick);
          out.length = 0;
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}

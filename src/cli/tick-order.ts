import type { Micros } from '../domain/time.js';
import type { RecordedTick } from './tick-record.js';

/**
 * Puts a stream's prices in time order before they are written. A replay needs a tick file in
 * time order, and a pricing stream with several instruments does not keep it: it opens with the
 * current price of each instrument, each as old as that instrument's last quote, and a throttled
 * stream sends the latest price of each instrument in turn. So a price is held for `holdMs` of
 * wall-clock time after it arrived, and the held ones are written oldest first. A price older than
 * the last one written (it arrived more than `holdMs` after a newer one) cannot go in order and
 * is left out, counted in `late`.
 */
export class TimeOrder {
  private held: { readonly tick: RecordedTick; readonly arrived: number }[] = [];
  private lastWritten: Micros | undefined;
  /** Prices left out: older than a line already written. */
  late = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly holdMs: number,
    private readonly now: () => number,
    /** The time of the last line a continued file already holds. */
    floor?: Micros,
  ) {
    this.lastWritten = floor;
  }

  /** Takes a price to write; false (and counted late) if it is older than what is written already. */
  add(tick: RecordedTick): boolean {
    if (this.lastWritten !== undefined && tick.at < this.lastWritten) {
      this.late += 1;
      return false;
    }
    this.held.push({ tick, arrived: this.now() });
    return true;
  }

  /** Writes, oldest first, the prices held for `holdMs` (all of them with `all`), and what they wait behind. */
  flush(all = false): void {
    if (this.held.length === 0) return;
    const due = this.now() - this.holdMs;
    // Stable: prices of the same time keep the order they came in.
    this.held.sort((a, b) => a.tick.at - b.tick.at);
    let end = 0;
    if (all) end = this.held.length;
    else {
      // Up to the last price that has been held long enough: a newer one that came earlier goes with it.
      for (let i = 0; i < this.held.length; i += 1) if ((this.held[i] as { arrived: number }).arrived <= due) end = i + 1;
    }
    if (end === 0) return;
    const out = this.held.slice(0, end);
    this.held = this.held.slice(end);
    this.write(out.map((h) => `${h.tick.line}\n`).join(''));
    this.lastWritten = (out[out.length - 1] as { tick: RecordedTick }).tick.at;
  }
}

import type { InstrumentSpec } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import { STORED_GRANULARITIES } from '../v3/candles/granularity.js';
import { InstrumentCandles } from '../v3/candles/instrument-candles.js';

/**
 * Candles of quotes from before a server's clock starts: `serve --from` reads the tick files'
 * ticks before its period into them, a generator's past is made for them (generateHistory), and
 * the API's candles continue from them, as a client asking for the last 200 H1 candles when it
 * starts expects. They are only candles: no account
 * sees those quotes, no stream sends them, and pricing starts with the period's first tick.
 */
export class CandleHistory {
  private readonly candles = new Map<string, InstrumentCandles>();
  private readonly sourced = new Set<string>();
  /** Quotes read, of instruments the server knows. */
  count = 0;

  /**
   * `source`: an instrument's past quotes made when its candles are first wanted (a generator's
   * history: making every instrument's at start-up would hold up the server's first answer).
   */
  constructor(
    private readonly catalogue: ReadonlyMap<string, InstrumentSpec>,
    private readonly candlesPerSeriesMax?: number,
    private readonly source?: (instrument: string) => Iterable<Tick>,
  ) {}

  /** Adds a quote; ticks come in time order, as the engine's do; other instruments' are ignored, as the accounts ignore them. */
  add(tick: Tick): void {
    let candles = this.candles.get(tick.instrument);
    if (candles === undefined) {
      const spec = this.catalogue.get(tick.instrument);
      if (spec === undefined) return;
      candles = new InstrumentCandles(STORED_GRANULARITIES, spec.displayPrecision, this.candlesPerSeriesMax);
      this.candles.set(tick.instrument, candles);
    }
    candles.addTick(tick);
    this.count += 1;
  }

  /** The candles built for an instrument, which the market data goes on feeding; undefined without any. */
  of(instrument: string): InstrumentCandles | undefined {
    if (this.source !== undefined && !this.sourced.has(instrument)) {
      this.sourced.add(instrument);
      for (const tick of this.source(instrument)) if (tick.instrument === instrument) this.add(tick);
    }
    return this.candles.get(instrument);
  }
}

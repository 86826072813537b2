import type { InstrumentSpec } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import { STORED_GRANULARITIES, type StoredGranularity } from '../v3/candles/granularity.js';
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
   * history: making every instrument's at start-up would hold up the server's first answer), for
   * the candles of `shortest` and longer (sparse quotes would make a candle of each in the
   * shorter series: 71 MB for a generated week of the seven majors, 14 MB without S5-S30).
   */
  constructor(
    private readonly catalogue: ReadonlyMap<string, InstrumentSpec>,
    private readonly candlesPerSeriesMax?: number,
    private readonly source?: { readonly quotes: (instrument: string) => Iterable<Tick>; readonly shortest: StoredGranularity },
  ) {}

  /** Adds a quote; ticks come in time order, as the engine's do; other instruments' are ignored, as the accounts ignore them. */
  add(tick: Tick): void {
    const candles = this.candlesOf(tick.instrument);
    if (candles === undefined) return;
    candles.addTick(tick);
    this.count += 1;
  }

  /** An instrument's candles, made at its first quote; undefined for an instrument the server does not know. */
  private candlesOf(instrument: string): InstrumentCandles | undefined {
    let candles = this.candles.get(instrument);
    if (candles === undefined) {
      const spec = this.catalogue.get(instrument);
      if (spec === undefined) return undefined;
      candles = new InstrumentCandles(STORED_GRANULARITIES, spec.displayPrecision, this.candlesPerSeriesMax);
      this.candles.set(instrument, candles);
    }
    return candles;
  }

  /** The candles built for an instrument, which the market data goes on feeding; undefined without any. */
  of(instrument: string): InstrumentCandles | undefined {
    const source = this.source;
    if (source !== undefined && !this.sourced.has(instrument)) {
      this.sourced.add(instrument);
      let candles: InstrumentCandles | undefined;
      for (const tick of source.quotes(instrument)) {
        if (tick.instrument !== instrument) continue;
        candles ??= this.candlesOf(instrument);
        if (candles === undefined) break;
        candles.addTickFrom(tick, source.shortest);
        this.count += 1;
      }
    }
    return this.candles.get(instrument);
  }
}

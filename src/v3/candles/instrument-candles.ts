import { scaleOf, toPriceInt } from '../../domain/price.js';
import type { Tick } from '../../domain/tick.js';
import type { Micros } from '../../domain/time.js';
import { STORED_GRANULARITIES, STORED_LENGTH, isStored, type Alignment, type Granularity, type StoredGranularity } from './granularity.js';
import { alignedCandles, selectCandles, type CandleSelection, type CandleWindow } from './select.js';
import { CandleSeries, type CandleList } from './series.js';
import { wholeHourZone } from './zones.js';

/**
 * The candles of one instrument, fed quote by quote: a series per stored granularity it keeps
 * (every one for the API's market data, those a strategy declared in a backtest). Granularities
 * past H1 are folded at query time from H1, or from M15 for a zone whose offset is not whole hours.
 */
export class InstrumentCandles {
  /** By position in STORED_GRANULARITIES; undefined where not kept. */
  private readonly series: (CandleSeries | undefined)[];
  private readonly fed: CandleSeries[];
  /** The instrument's price grid (domain/price.ts scaleOf of its display precision). */
  private readonly scale: number;

  constructor(kept: readonly StoredGranularity[], displayPrecision: number, candlesPerSeriesMax?: number) {
    this.series = STORED_GRANULARITIES.map((g) => (kept.includes(g) ? new CandleSeries(STORED_LENGTH[g], candlesPerSeriesMax) : undefined));
    this.fed = this.series.filter((s): s is CandleSeries => s !== undefined);
    this.scale = scaleOf(displayPrecision);
  }

  /** Adds a quote (grid integers) to every kept series. */
  add(time: Micros, bid: number, ask: number): void {
    const fed = this.fed;
    for (let i = 0; i < fed.length; i += 1) (fed[i] as CandleSeries).add(time, bid, ask);
  }

  /** Adds a tick, its prices put on the instrument's grid. */
  addTick(tick: Tick): void {
    this.add(tick.time, toPriceInt(tick.bid, this.scale), toPriceInt(tick.ask, this.scale));
  }

  /**
   * Adds a tick to the kept series of `shortest` and longer only: a sparse past (a quote every
   * few seconds) would otherwise make a candle per quote in every series shorter than its gaps.
   */
  addTickFrom(tick: Tick, shortest: StoredGranularity): void {
    const bid = toPriceInt(tick.bid, this.scale);
    const ask = toPriceInt(tick.ask, this.scale);
    const min = STORED_LENGTH[shortest];
    for (const series of this.fed) if (series.lengthMicros >= min) series.add(tick.time, bid, ask);
  }

  /** The stored series a granularity is read from at this alignment. */
  static sourceOf(granularity: Granularity, alignment: Alignment): StoredGranularity {
    if (isStored(granularity)) return granularity;
    return wholeHourZone(alignment.timezone) ? 'H1' : 'M15';
  }

  /** Candles by v20's from/to/count rules; a granularity whose series is not kept is a programmer error. */
  candles(granularity: Granularity, alignment: Alignment, window: CandleWindow): CandleSelection {
    const source = InstrumentCandles.sourceOf(granularity, alignment);
    const series = this.series[STORED_GRANULARITIES.indexOf(source)];
    if (series === undefined) throw new Error(`no ${source} series kept for ${granularity} candles`);
    const list: CandleList = isStored(granularity) ? series : alignedCandles(series, granularity, alignment, window);
    return selectCandles(list, window, series.intactFrom);
  }
}

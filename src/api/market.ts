import type { Subscription } from 'rxjs';
import type { InstrumentSpec } from '../domain/instruments.js';
import { MarketCalendar } from '../domain/market-hours.js';
import { scaleOf, toPriceInt } from '../domain/price.js';
import type { Tick } from '../domain/tick.js';
import type { Engine } from '../engine/engine.js';
import type { CandleHistory } from './candle-history.js';
import type { Quote, QuoteSource } from '../v3/price.js';
import { STORED_GRANULARITIES } from '../v3/candles/granularity.js';
import { InstrumentCandles } from '../v3/candles/instrument-candles.js';
import { ArrayCandleList } from '../v3/candles/series.js';
import type { CandleSource } from '../v3/candles/query.js';

/** The latest quote of an instrument, with the order in which the market data saw it. */
export interface MarketQuote extends Quote {
  /** Order in which the market data saw the quote, over all instruments (1, 2, ...). */
  readonly seq: number;
}

/**
 * What the API knows of the market beyond the accounts: the latest quote of every instrument and
 * the candles built from the quotes seen. Fed from the engine's price Observable.
 */
export interface MarketData extends QuoteSource, CandleSource {
  /** Stops listening to the engine. */
  close(): void;
  /** The latest quote of an instrument, or undefined before its first one. */
  latest(instrument: string): MarketQuote | undefined;
  /** The quote a tick makes (unknown instruments: undefined), without recording it. */
  quoteOf(tick: Tick, seq?: number): MarketQuote | undefined;
}

interface InstrumentMarket {
  readonly spec: InstrumentSpec;
  readonly scale: number;
  /** When the instrument trades: a quote's `tradeableUntil`. */
  readonly calendar: MarketCalendar;
  latest: MarketQuote | undefined;
  /** Every stored granularity's series. */
  readonly candles: InstrumentCandles;
}

const NO_CANDLES = new ArrayCandleList([]);

export function createMarketData(engine: Engine, candlesPerSeriesMax?: number, history?: CandleHistory): MarketData {
  const markets = new Map<string, InstrumentMarket>();
  let seq = 0;

  function marketOf(instrument: string): InstrumentMarket | undefined {
    let m = markets.get(instrument);
    if (m === undefined) {
      const spec = engine.instruments.get(instrument);
      if (spec === undefined) return undefined;
      // Candles from before the clock started go on from where they are.
      const candles = history?.of(instrument) ?? new InstrumentCandles(STORED_GRANULARITIES, spec.displayPrecision, candlesPerSeriesMax);
      m = { spec, scale: scaleOf(spec.displayPrecision), calendar: new MarketCalendar(spec.marketHours), latest: undefined, candles };
      markets.set(instrument, m);
    }
    return m;
  }

  function quoteIn(m: InstrumentMarket, tick: Tick, n: number): MarketQuote {
    const bid = toPriceInt(tick.bid, m.scale);
    const ask = toPriceInt(tick.ask, m.scale);
    return {
      instrument: tick.instrument,
      time: tick.time,
      seq: n,
      precision: m.spec.displayPrecision,
      bid,
      ask,
      closeoutBid: tick.closeoutBid === undefined ? bid : toPriceInt(tick.closeoutBid, m.scale),
      closeoutAsk: tick.closeoutAsk === undefined ? ask : toPriceInt(tick.closeoutAsk, m.scale),
      tradeableUntil: m.calendar.tradeableUntil(tick.time),
    };
  }

  function onTick(tick: Tick): void {
    const m = marketOf(tick.instrument);
    if (m === undefined) return; // the accounts ignore it too
    seq += 1;
    const quote = quoteIn(m, tick, seq);
    m.latest = quote;
    m.candles.add(tick.time, quote.bid, quote.ask);
  }

  const subscription: Subscription = engine.prices$.subscribe({ next: onTick });

  return {
    close: () => subscription.unsubscribe(),
    latest: (instrument) => markets.get(instrument)?.latest,
    quoteOf(tick, n = 0) {
      const m = marketOf(tick.instrument);
      return m === undefined ? undefined : quoteIn(m, tick, n);
    },
    candles(instrument, granularity, alignment, window) {
      // Made here too: candles of the history are there before the instrument's first quote.
      const m = marketOf(instrument);
      if (m === undefined) return { list: NO_CANDLES, first: 0, last: 0, intactFrom: Number.NEGATIVE_INFINITY };
      return m.candles.candles(granularity, alignment, window);
    },
  };
}

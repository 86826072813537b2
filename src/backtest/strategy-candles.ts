/**
 * Candles for a strategy: the v20 candles of the quotes the run has seen so far, as GET
 * /v3/instruments/{instrument}/candles answers them at the simulated time (getCandles, the API's
 * own operation), so a strategy written against OANDA's candles endpoint runs unchanged. A
 * strategy declares the candles it reads (`candles: ['EUR_USD:M5']` in its definition): only those
 * series are kept, fed from the engine's quotes, and a run that declares none pays nothing.
 */
import type { InstrumentSpec } from '../domain/instruments.js';
import type { Engine } from '../engine/engine.js';
import { DEFAULT_ALIGNMENT, GRANULARITIES, type Alignment, type Granularity, type StoredGranularity } from '../v3/candles/granularity.js';
import { InstrumentCandles } from '../v3/candles/instrument-candles.js';
import { getCandles, type CandleQueryValues, type CandleSource } from '../v3/candles/query.js';
import { CandleViewCache } from '../v3/candles/view-cache.js';
import type { CandleSelection, CandleWindow } from '../v3/candles/select.js';
import type { V20CandlesQuery, V20CandlesResponse } from './v20.js';

/** `INSTRUMENT:GRANULARITY`, as a strategy declares the candles it reads. */
const SPEC_RE = /^([A-Za-z0-9]+_[A-Za-z0-9]+):([A-Z0-9]+)$/;

/** Why a declared candle specification is not one, or null when it is. */
export function candleSpecProblem(spec: unknown): string | null {
  const m = typeof spec === 'string' ? SPEC_RE.exec(spec) : null;
  if (m === null) return `${JSON.stringify(spec)} is not INSTRUMENT:GRANULARITY (e.g. "EUR_USD:M5")`;
  if (!(GRANULARITIES as readonly string[]).includes(m[2] as string))
    return `${JSON.stringify(spec)}: granularity must be one of ${GRANULARITIES.join(', ')}`;
  return null;
}

/** The stored series a declared granularity needs: itself, or H1 and M15 for one folded at an alignment. */
function seriesFor(granularity: Granularity): StoredGranularity[] {
  const whole = InstrumentCandles.sourceOf(granularity, DEFAULT_ALIGNMENT);
  return whole === granularity ? [whole] : ['H1', 'M15'];
}

export class StrategyCandles implements CandleSource {
  private readonly markets = new Map<string, { readonly candles: InstrumentCandles; readonly declared: Set<string> }>();
  /** Complete candles' views, printed once: a strategy asks for mostly the same candles each time. */
  private readonly views = new CandleViewCache();

  constructor(
    private readonly engine: Engine,
    specs: readonly string[],
  ) {
    const declared = new Map<string, Set<string>>();
    for (const spec of specs) {
      const [instrument, granularity] = spec.split(':') as [string, Granularity];
      if (engine.instruments.get(instrument) === undefined) throw new Error(`candles: unknown instrument in ${JSON.stringify(spec)}`);
      let set = declared.get(instrument);
      if (set === undefined) declared.set(instrument, (set = new Set()));
      set.add(granularity);
    }
    for (const [instrument, granularities] of declared) {
      const kept = [...new Set([...granularities].flatMap((g) => seriesFor(g as Granularity)))];
      const precision = (engine.instruments.get(instrument) as InstrumentSpec).displayPrecision;
      this.markets.set(instrument, { candles: new InstrumentCandles(kept, precision), declared: granularities });
    }
    // For the engine's life, which is the run's.
    engine.prices$.subscribe((tick) => {
      this.markets.get(tick.instrument)?.candles.addTick(tick);
    });
  }

  candles(instrument: string, granularity: Granularity, alignment: Alignment, window: CandleWindow): CandleSelection {
    const m = this.markets.get(instrument);
    // A declared granularity's series are all kept (seriesFor): H1 and M15 for any alignment of a folded one.
    if (m === undefined || !m.declared.has(granularity))
      throw new Error(
        `candles of ${instrument} ${granularity} were not declared: add '${instrument}:${granularity}' to the strategy's candles`,
      );
    return m.candles.candles(granularity, alignment, window);
  }

  /** GET /v3/instruments/{instrument}/candles with `query`, at the simulated time; a refused query throws its v20 message. */
  read(instrument: string, query: V20CandlesQuery = {}): V20CandlesResponse {
    const values: CandleQueryValues = {};
    for (const [key, value] of Object.entries(query)) if (value !== undefined) (values as Record<string, string>)[key] = String(value);
    const response = getCandles({ engine: this.engine, source: this, now: this.engine.now, views: this.views }, instrument, values);
    if (response.status !== 200) {
      const message = (response.body as { errorMessage?: string }).errorMessage ?? `status ${response.status}`;
      throw new Error(`candles(${JSON.stringify(instrument)}): ${message}`);
    }
    return response.body as unknown as V20CandlesResponse;
  }
}

import type { Observable } from 'rxjs';
import { buildCatalogue, type InstrumentSpec, isInstrumentName } from '../../domain/instruments.js';
import { MarketCalendar } from '../../domain/market-hours.js';
import { createRandom, type Random } from '../../domain/random.js';
import type { Tick } from '../../domain/tick.js';
import type { Micros } from '../../domain/time.js';
import { fromIterable$ } from './observable.js';
import { pairProfile } from './pair-profiles.js';

/**
 * Synthetic ticks for users without data. Each instrument's fair price follows a geometric random
 * walk scaled by the real time between its ticks (so volatility per day does not depend on the
 * tick rate); the quoted mid adds small independent noise on top, which makes ticks move as
 * real ones do without inflating the daily range. Spreads vary around the pair's typical width
 * and now and then widen for a short burst, as around news. Ticks arrive as a Poisson stream,
 * only while the instrument trades (its `marketHours` in the catalogue, default the FX week).
 */
export interface GeneratorOptions {
  readonly seed: number | string;
  /** Default ['EUR_USD']. Each tick belongs to one of them, chosen uniformly. */
  readonly instruments?: readonly string[];
  /** Time of the walk's start; the first tick comes one interval later. Default 2024-01-02T00:00:00Z. */
  readonly start?: Micros;
  /** Stop after this many ticks. At least one of count and end is required. */
  readonly count?: number;
  /** Stop before the first tick later than this. */
  readonly end?: Micros;
  /** Mean gap between consecutive ticks of the whole stream. Default 250 ms. */
  readonly meanIntervalMicros?: number;
  /** Source of displayPrecision and pipLocation. Default buildCatalogue(). */
  readonly catalogue?: ReadonlyMap<string, InstrumentSpec>;
}

export const DEFAULT_GENERATOR_START: Micros = Date.UTC(2024, 0, 2) * 1000;
const DEFAULT_MEAN_INTERVAL: Micros = 250_000;
const MICROS_PER_YEAR = 365.25 * 86_400 * 1_000_000;
const NOISE_PIPS = 0.3;
const BURST_PROBABILITY = 0.002;

interface WalkState {
  readonly instrument: string;
  readonly scale: number;
  readonly pipUnits: number; // one pip in units of the last displayed digit
  readonly spreadPips: number;
  readonly volPerRootMicro: number;
  readonly noise: number;
  /** The instrument's trading hours: no quote falls in closed hours. */
  readonly calendar: MarketCalendar;
  fair: number;
  lastTime: Micros;
  burstLeft: number;
  burstFactor: number;
}

function initialState(instrument: string, catalogue: ReadonlyMap<string, InstrumentSpec>, start: Micros): WalkState {
  const spec = catalogue.get(instrument);
  const precision = spec?.displayPrecision ?? 5;
  const pipLocation = spec?.pipLocation ?? -4;
  const profile = pairProfile(instrument);
  return {
    instrument,
    scale: 10 ** precision,
    pipUnits: 10 ** (precision + pipLocation),
    spreadPips: profile.spreadPips,
    volPerRootMicro: profile.volatility / Math.sqrt(MICROS_PER_YEAR),
    noise: (NOISE_PIPS * 10 ** pipLocation) / profile.mid,
    calendar: new MarketCalendar(spec?.marketHours),
    fair: profile.mid,
    lastTime: start,
    burstLeft: 0,
    burstFactor: 1,
  };
}

function spreadFactor(state: WalkState, random: Random): number {
  const u = random.nextFloat();
  if (state.burstLeft > 0) {
    state.burstLeft -= 1;
    return state.burstFactor;
  }
  if (random.nextFloat() < BURST_PROBABILITY) {
    state.burstLeft = 5 + random.nextInt(20);
    state.burstFactor = 2.5 + 5 * u;
    return state.burstFactor;
  }
  return 0.8 + 0.7 * u;
}

function nextTick(state: WalkState, time: Micros, random: Random): Tick {
  const elapsed = time - state.lastTime;
  state.lastTime = time;
  const step = state.volPerRootMicro * Math.sqrt(elapsed) * random.nextGaussian();
  state.fair *= Math.max(0.5, 1 + step); // the floor only guards against absurd inputs
  return quoteAt(state, time, random);
}

/** A quote around the walk's fair price: a little noise on the mid, the spread of the moment. */
function quoteAt(state: WalkState, time: Micros, random: Random): Tick {
  const mid = state.fair * (1 + state.noise * random.nextGaussian());
  const spreadUnits = Math.max(1, Math.round(state.spreadPips * spreadFactor(state, random) * state.pipUnits));
  const bidUnits = Math.max(1, Math.round(mid * state.scale - spreadUnits / 2));
  return { instrument: state.instrument, time, bid: bidUnits / state.scale, ask: (bidUnits + spreadUnits) / state.scale };
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`generateTicks: ${message}`);
}

function validate(opts: GeneratorOptions): void {
  const instruments = opts.instruments ?? ['EUR_USD'];
  check(instruments.length > 0, 'instruments must not be empty');
  for (const name of instruments) check(isInstrumentName(name), `instrument must look like BASE_QUOTE, got ${JSON.stringify(name)}`);
  check(opts.count !== undefined || opts.end !== undefined, 'give count or end (or both)');
  check(opts.count === undefined || (Number.isSafeInteger(opts.count) && opts.count >= 0), 'count must be a non-negative integer');
  check(opts.start === undefined || Number.isSafeInteger(opts.start), 'start must be integer microseconds');
  check(opts.end === undefined || Number.isSafeInteger(opts.end), 'end must be integer microseconds');
  const mean = opts.meanIntervalMicros ?? DEFAULT_MEAN_INTERVAL;
  check(Number.isFinite(mean) && mean > 0, 'meanIntervalMicros must be a positive number');
  createRandom(opts.seed); // throws early for a bad seed
}

function* walk(opts: GeneratorOptions): Generator<Tick> {
  const random = createRandom(opts.seed);
  const start = opts.start ?? DEFAULT_GENERATOR_START;
  const catalogue = opts.catalogue ?? buildCatalogue();
  const states = (opts.instruments ?? ['EUR_USD']).map((name) => initialState(name, catalogue, start));
  const mean = opts.meanIntervalMicros ?? DEFAULT_MEAN_INTERVAL;
  const count = opts.count ?? Number.POSITIVE_INFINITY;
  const end = opts.end ?? Number.POSITIVE_INFINITY;
  let time = start;
  for (let n = 0; n < count; n += 1) {
    // Exponential gaps rounded to whole microseconds: zero gaps happen, as in real feeds.
    time += Math.round(-mean * Math.log(1 - random.nextFloat()));
    const state = states.length === 1 ? (states[0] as WalkState) : (states[random.nextInt(states.length)] as WalkState);
    // A tick that would fall in closed hours comes at the reopening instead; the walk runs on
    // through the closed time, so the first quote of a session gaps as real ones do.
    time = state.calendar.nextOpen(time);
    if (time > end) return;
    yield nextTick(state, time, random);
  }
}

/** The same options (and seed) always give the same ticks. Re-iterable: each pass restarts. */
export function generateTicks(opts: GeneratorOptions): Iterable<Tick> {
  validate(opts);
  return { [Symbol.iterator]: () => walk(opts) };
}

export interface HistoryOptions {
  readonly seed: number | string;
  readonly instrument: string;
  /** Where the generator's walk starts: the history ends before it, at the walk's starting price. */
  readonly start: Micros;
  readonly days: number;
  /** Mean gap between the history's quotes, each gap between half and one and a half times it. Default 20 s. */
  readonly meanIntervalMicros?: number;
  readonly catalogue?: ReadonlyMap<string, InstrumentSpec>;
}

/** A history's default gap between quotes: at most 30 s, so every minute of trading hours has an M1 candle. */
export const HISTORY_MEAN_INTERVAL: Micros = 20_000_000;
const DAY: Micros = 86_400_000_000;
/** Steps back through closed hours: a quote lands at most this long before a close. */
const CLOSED_STEP: Micros = 60_000_000;

/**
 * One instrument's quotes of the `days` before a generator's start, in time order: the same walk
 * run backwards from the price generateTicks starts at (its pair's typical mid), so the past joins
 * the generated prices without a jump; fewer quotes than live (candles of a minute and up need no
 * more), which keeps making a week of them quick. Its own random numbers (the seed and the instrument), so
 * generateTicks' ticks are the same with or without it. Only in the instrument's trading hours.
 */
export function generateHistory(opts: HistoryOptions): Tick[] {
  check(Number.isFinite(opts.days) && opts.days >= 0, 'days must be a non-negative number');
  const random = createRandom(`${String(opts.seed)}/history/${opts.instrument}`);
  const state = initialState(opts.instrument, opts.catalogue ?? buildCatalogue(), opts.start);
  const mean = opts.meanIntervalMicros ?? HISTORY_MEAN_INTERVAL;
  const from = opts.start - Math.round(opts.days * DAY);
  const ticks: Tick[] = [];
  let time = opts.start;
  for (;;) {
    // Gaps of bounded length, not the live ticks' exponential ones: no minute of the past is empty.
    time -= Math.max(1, Math.round(mean * (0.5 + random.nextFloat())));
    while (time >= from && !state.calendar.openAt(time)) time -= CLOSED_STEP;
    if (time < from) break;
    // Back in time: the fair price before a step is the one after it undone.
    const step = state.volPerRootMicro * Math.sqrt(state.lastTime - time) * random.nextGaussian();
    state.lastTime = time;
    state.fair /= Math.max(0.5, 1 + step);
    ticks.push(quoteAt(state, time, random));
  }
  return ticks.reverse();
}

export function generatedTicks$(opts: GeneratorOptions): Observable<Tick> {
  const ticks = generateTicks(opts);
  return fromIterable$(() => ticks);
}

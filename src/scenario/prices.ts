import type { InstrumentSpec } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import { PeekableTicks, generateTicks, makeTick, mergeByTime, readTicks, type FeedOptions } from '../engine/feeds/index.js';
import type { FileSpec, PriceSourceSpec, TickSpec } from './model.js';

function feedOptions(spec: FileSpec): FeedOptions {
  // A tick that goes back in time is refused where it is, with the file and line.
  const options: { format?: NonNullable<FileSpec['format']>; instrument?: string; inTimeOrder: true } = { inTimeOrder: true };
  if (spec.format !== undefined) options.format = spec.format;
  if (spec.instrument !== undefined) options.instrument = spec.instrument;
  return options;
}

/** The ticks of a file within [from, to], read lazily; reading stops at the first tick after `to`. */
export function fileTicks(spec: FileSpec): Iterable<Tick> {
  const ticks = readTicks(spec.path, feedOptions(spec));
  const from = spec.from ?? Number.NEGATIVE_INFINITY;
  const to = spec.to ?? Number.POSITIVE_INFINITY;
  return {
    *[Symbol.iterator]() {
      for (const tick of ticks) {
        if (tick.time < from) continue;
        if (tick.time > to) return;
        yield tick;
      }
    },
  };
}

export function firstTickOf(spec: FileSpec): Tick | undefined {
  for (const tick of fileTicks(spec)) return tick;
  return undefined;
}

export function tickOf(spec: TickSpec, time: number): Tick {
  return makeTick(spec.instrument, time, spec.bid, spec.ask, spec.closeoutBid, spec.closeoutAsk);
}

function sourceTicks(spec: PriceSourceSpec, catalogue: ReadonlyMap<string, InstrumentSpec>): Iterable<Tick> {
  switch (spec.kind) {
    case 'ticks':
      return spec.ticks.map((t) => tickOf(t, t.time as number));
    case 'file':
      return fileTicks(spec);
    case 'generator': {
      const options: Parameters<typeof generateTicks>[0] & { count?: number; end?: number; meanIntervalMicros?: number } = {
        seed: spec.seed,
        instruments: spec.instruments,
        start: spec.start,
        catalogue,
        ...(spec.count === undefined ? {} : { count: spec.count }),
        ...(spec.end === undefined ? {} : { end: spec.end }),
        ...(spec.meanIntervalMicros === undefined ? {} : { meanIntervalMicros: spec.meanIntervalMicros }),
      };
      return generateTicks(options);
    }
  }
}

/** The scenario's price sources merged by time, pulled one tick at a time as the timeline advances. */
export class TickFeed extends PeekableTicks {
  constructor(sources: readonly PriceSourceSpec[], catalogue: ReadonlyMap<string, InstrumentSpec>) {
    super(mergeByTime(sources.map((s) => sourceTicks(s, catalogue))));
  }
}

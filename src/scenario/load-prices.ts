/** Price sources of a scenario file: inline ticks, tick files and the generator, resolved to specs. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Micros } from '../domain/time.js';
import type { FeedFormat } from '../engine/feeds/index.js';
import { isObject, type Json } from './json.js';
import type { LoadContext } from './load-context.js';
import { DEFAULT_START, type FileSpec, type GeneratorSpec, type PriceSourceSpec, type TickSpec } from './model.js';
import { fileTicks, firstTickOf } from './prices.js';

/** Without config.start: the earliest first tick of the sources (a generator's start), else the default. */
export function defaultStart(ctx: LoadContext, rawSources: readonly Json[], sourcePointer: (i: number) => string): Micros {
  let first: Micros | undefined;
  const consider = (t: Micros | undefined): void => {
    if (t !== undefined && (first === undefined || t < first)) first = t;
  };
  rawSources.forEach((raw, i) => {
    const pointer = sourcePointer(i);
    if (Array.isArray(raw['ticks'])) {
      const tick = raw['ticks'][0] as unknown;
      const time = Array.isArray(tick) ? tick[0] : isObject(tick) ? tick['time'] : undefined;
      if (typeof time === 'string') consider(ctx.time(time, `${pointer}/ticks/0`, undefined));
      else if (tick !== undefined) ctx.problem(`${pointer}/ticks/0`, 'a tick of a price source needs a time');
    } else if (typeof raw['file'] === 'string') {
      const path = resolve(ctx.dir, raw['file']);
      if (!existsSync(path)) return; // reported by source()
      const spec = fileSpecOf(path, raw);
      if (typeof raw['from'] === 'string') {
        const from = ctx.time(raw['from'], `${pointer}/from`, undefined);
        if (from === undefined) return;
        spec.from = from;
      }
      try {
        consider(firstTickOf(spec)?.time);
      } catch (err) {
        ctx.problem(`${pointer}/file`, `cannot read the ticks: ${(err as Error).message}`);
      }
    } else if (isObject(raw['generator'])) {
      const text = raw['generator']['start'];
      consider(typeof text === 'string' ? ctx.time(text, `${pointer}/generator/start`, undefined) : DEFAULT_START);
    }
  });
  return first ?? DEFAULT_START;
}

/** The file, format and instrument of a file source (the path resolved and known to exist). */
function fileSpecOf(path: string, raw: Json): { -readonly [K in keyof FileSpec]: FileSpec[K] } {
  const spec: { -readonly [K in keyof FileSpec]: FileSpec[K] } = { kind: 'file', path };
  if (raw['format'] !== undefined) spec.format = raw['format'] as FeedFormat;
  if (raw['instrument'] !== undefined) spec.instrument = raw['instrument'] as string;
  return spec;
}

/** Inline ticks: each needs a time, in time order. */
function inlineTicks(ctx: LoadContext, raw: Json, pointer: string, start: Micros): PriceSourceSpec {
  const fallback = raw['instrument'] as string | undefined;
  const ticks: TickSpec[] = [];
  const list = raw['ticks'] as unknown[];
  for (let i = 0; i < list.length; i += 1) {
    const p = `${pointer}/ticks/${i}`;
    const tick = tickSpec(ctx, list[i], p, fallback, start);
    if (tick === undefined) continue;
    if (tick.time === undefined) {
      ctx.problem(p, 'a tick of a price source needs a time');
      continue;
    }
    const previous = ticks[ticks.length - 1];
    if (previous?.time !== undefined && tick.time < previous.time) ctx.problem(p, 'ticks must be in time order');
    ticks.push(tick);
  }
  return { kind: 'ticks', ticks };
}

function fileSource(ctx: LoadContext, raw: Json, pointer: string, start: Micros): FileSpec | undefined {
  const path = resolve(ctx.dir, raw['file'] as string);
  if (!existsSync(path)) {
    ctx.problem(`${pointer}/file`, `tick file not found: ${raw['file'] as string} (looked for ${path})`);
    return undefined;
  }
  const spec = fileSpecOf(path, raw);
  for (const key of ['from', 'to'] as const) {
    const text = raw[key];
    if (typeof text !== 'string') continue;
    const t = ctx.time(text, `${pointer}/${key}`, start);
    if (t !== undefined) spec[key] = t;
  }
  // The scenario begins at its start: earlier ticks of a file are not fed.
  if (spec.from === undefined || spec.from < start) spec.from = start;
  if (ctx.readTickFiles) readWhole(ctx, spec, pointer);
  return spec;
}

/** Reads every tick a run would take from the file, reporting the first bad line (with its number) as a problem. */
function readWhole(ctx: LoadContext, spec: FileSpec, pointer: string): void {
  try {
    for (const tick of fileTicks(spec)) void tick;
  } catch (err) {
    ctx.problem(`${pointer}/file`, `cannot read the ticks: ${(err as Error).message}`);
  }
}

function generatorSource(ctx: LoadContext, g: Json, pointer: string, start: Micros, seed: number | string): GeneratorSpec | undefined {
  const startText = g['start'] as string | undefined;
  const genStart = startText === undefined ? start : ctx.time(startText, `${pointer}/generator/start`, start);
  if (genStart === undefined) return undefined;
  const spec: { -readonly [K in keyof GeneratorSpec]: GeneratorSpec[K] } = {
    kind: 'generator',
    seed: (g['seed'] as number | string | undefined) ?? seed,
    instruments: (g['instruments'] as string[] | undefined) ?? ['EUR_USD'],
    start: genStart,
  };
  if (g['count'] !== undefined) spec.count = g['count'] as number;
  if (typeof g['end'] === 'string') {
    const end = ctx.time(g['end'], `${pointer}/generator/end`, start);
    if (end !== undefined) spec.end = end;
  }
  if (g['meanIntervalMs'] !== undefined) spec.meanIntervalMicros = Math.round((g['meanIntervalMs'] as number) * 1000);
  return spec;
}

/** One entry of `prices` (the schema has checked it has exactly one of ticks, file, generator). */
export function priceSource(
  ctx: LoadContext,
  raw: Json,
  pointer: string,
  start: Micros,
  seed: number | string,
): PriceSourceSpec | undefined {
  if (Object.hasOwn(raw, 'ticks')) return inlineTicks(ctx, raw, pointer, start);
  if (Object.hasOwn(raw, 'file')) return fileSource(ctx, raw, pointer, start);
  return generatorSource(ctx, raw['generator'] as Json, pointer, start, seed);
}

/** A tick in object or array form. */
export function tickSpec(
  ctx: LoadContext,
  raw: unknown,
  pointer: string,
  fallbackInstrument: string | undefined,
  start: Micros,
): TickSpec | undefined {
  let time: string | undefined;
  let instrument: unknown;
  let bid: unknown;
  let ask: unknown;
  let closeoutBid: unknown;
  let closeoutAsk: unknown;
  if (Array.isArray(raw)) {
    time = raw[0] as string;
    if (raw.length === 4) [, instrument, bid, ask] = raw;
    else [, bid, ask] = raw;
  } else if (isObject(raw)) {
    ({ time, instrument, bid, ask, closeoutBid, closeoutAsk } = raw as {
      time?: string;
      instrument?: unknown;
      bid?: unknown;
      ask?: unknown;
      closeoutBid?: unknown;
      closeoutAsk?: unknown;
    });
  } else {
    return undefined;
  }
  instrument ??= fallbackInstrument;
  if (typeof instrument !== 'string' || !/^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/.test(instrument)) {
    ctx.problem(
      pointer,
      instrument === undefined
        ? 'the tick needs an instrument ([time, instrument, bid, ask], or instrument: on the source)'
        : `not an instrument name: ${JSON.stringify(instrument)}`,
    );
    return undefined;
  }
  if (typeof bid !== 'number' || typeof ask !== 'number' || !(bid > 0) || !(ask > 0)) {
    ctx.problem(pointer, 'bid and ask must be positive numbers');
    return undefined;
  }
  if ((closeoutBid === undefined) !== (closeoutAsk === undefined)) {
    ctx.problem(pointer, 'closeoutBid and closeoutAsk go together');
    return undefined;
  }
  let t: Micros | undefined;
  if (time !== undefined) {
    t = ctx.time(time, Array.isArray(raw) ? `${pointer}/0` : `${pointer}/time`, start);
    if (t === undefined) return undefined;
  }
  const tick: { -readonly [K in keyof TickSpec]: TickSpec[K] } = { time: t, instrument, bid, ask };
  if (typeof closeoutBid === 'number' && typeof closeoutAsk === 'number') {
    tick.closeoutBid = closeoutBid;
    tick.closeoutAsk = closeoutAsk;
  }
  return tick;
}

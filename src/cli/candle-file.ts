/**
 * The lines of a downloaded candle file (NDJSON or CSV) and where an interrupted download resumes.
 * Prices stay the strings v20 printed (facts sheet: every price is a JSON string); `volume` stays
 * v20's integer. Lines are in time order across instruments (ties in --instrument order), so the
 * last line alone says how far the download got.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { parseDateTime, type Micros } from '../domain/time.js';
import { RemoteError } from './v20-http.js';

export type CandleFileFormat = 'ndjson' | 'csv';
export const CANDLE_FILE_FORMATS: readonly CandleFileFormat[] = ['ndjson', 'csv'];

/** v20 CandlestickData: open, high, low, close as printed. */
export interface Ohlc {
  readonly o: string;
  readonly h: string;
  readonly l: string;
  readonly c: string;
}

/** One candle as written: v20's Candlestick plus its instrument and granularity. */
export interface CandleLine {
  readonly instrument: string;
  readonly granularity: string;
  readonly time: string;
  /** `time` parsed, for ordering only (not written). */
  readonly at: Micros;
  readonly bid: Ohlc;
  readonly ask: Ohlc;
  readonly mid?: Ohlc;
  readonly volume: number;
  readonly complete: boolean;
}

const OHLC = ['o', 'h', 'l', 'c'] as const;

/** The CSV header for a file with or without mid prices. */
export function csvHeader(withMid: boolean): string {
  const sides = withMid ? ['bid', 'ask', 'mid'] : ['bid', 'ask'];
  return ['instrument', 'granularity', 'time', ...sides.flatMap((side) => OHLC.map((k) => `${side}_${k}`)), 'volume', 'complete'].join(',');
}

export function formatCandleLine(candle: CandleLine, format: CandleFileFormat, withMid: boolean): string {
  if (format === 'ndjson') {
    const { instrument, granularity, time, bid, ask, mid, volume, complete } = candle;
    return JSON.stringify({ instrument, granularity, time, bid, ask, ...(withMid && mid !== undefined ? { mid } : {}), volume, complete });
  }
  const sides = withMid ? [candle.bid, candle.ask, candle.mid] : [candle.bid, candle.ask];
  return [
    candle.instrument,
    candle.granularity,
    candle.time,
    ...sides.flatMap((side) => OHLC.map((k) => side?.[k] ?? '')),
    String(candle.volume),
    String(candle.complete),
  ].join(',');
}

/** Where the file's lines stop: the last candle written (its instrument and time). */
export interface ResumePoint {
  readonly instrument: string;
  readonly at: Micros;
  readonly time: string;
  readonly lines: number;
}

interface LastLine {
  readonly instrument: string;
  readonly granularity: string;
  readonly time: string;
  readonly complete: boolean;
}

function parseLastLine(line: string, format: CandleFileFormat, header: string): LastLine | undefined {
  if (format === 'ndjson') {
    try {
      const record = JSON.parse(line) as Record<string, unknown>;
      const { instrument, granularity, time, complete } = record;
      if (typeof instrument === 'string' && typeof granularity === 'string' && typeof time === 'string')
        return { instrument, granularity, time, complete: complete !== false };
    } catch {
      return undefined;
    }
    return undefined;
  }
  const columns = header.split(',');
  const fields = line.split(',');
  if (fields.length !== columns.length) return undefined;
  const field = (name: string): string => fields[columns.indexOf(name)] ?? '';
  return {
    instrument: field('instrument'),
    granularity: field('granularity'),
    time: field('time'),
    complete: field('complete') !== 'false',
  };
}

const TAIL_CHUNK = 64 * 1024;

/** Reads backwards from `end` to the start of the line that ends there (exclusive of its '\n'). */
function lineStartBefore(fd: number, end: number): number {
  let pos = end;
  const buffer = Buffer.alloc(TAIL_CHUNK);
  while (pos > 0) {
    const size = Math.min(TAIL_CHUNK, pos);
    readSync(fd, buffer, 0, size, pos - size);
    const nl = buffer.subarray(0, size).lastIndexOf(0x0a);
    if (nl >= 0) return pos - size + nl + 1;
    pos -= size;
  }
  return 0;
}

function readRange(fd: number, start: number, end: number): string {
  const buffer = Buffer.alloc(end - start);
  readSync(fd, buffer, 0, end - start, start);
  return buffer.toString('utf8');
}

/**
 * Prepares `partial` for appending and says where to continue: cuts a last line without its
 * newline (a write the interruption cut short) and trailing incomplete candles (they may have
 * changed since), checks the header (CSV) and that the file is this download's. Undefined when
 * the file holds no candle yet (a CSV file keeps its header).
 */
export function prepareResume(
  partial: string,
  format: CandleFileFormat,
  header: string,
  granularity: string,
  instruments: readonly string[],
): ResumePoint | undefined {
  const fd = openSync(partial, 'r+');
  try {
    let end = fstatSync(fd).size;
    // A write cut short: everything after the last newline goes.
    end = end === 0 ? 0 : lineStartBefore(fd, end);
    if (format === 'csv') {
      const firstEnd = end === 0 ? 0 : readRange(fd, 0, Math.min(end, header.length + 1)).indexOf('\n');
      const first = firstEnd < 0 ? '' : readRange(fd, 0, firstEnd);
      if (end > 0 && first !== header)
        throw new RemoteError(`${partial}: its header is not ${header} (another format or price option?); delete it to start again`);
    }
    const headerEnd = format === 'csv' && end > 0 ? header.length + 1 : 0;
    let lines = 0;
    let point: ResumePoint | undefined;
    while (end > headerEnd) {
      const start = lineStartBefore(fd, end - 1);
      const text = readRange(fd, start, end - 1);
      const last = parseLastLine(text, format, header);
      if (last === undefined) throw new RemoteError(`${partial}: its last complete line is not a candle line: ${text.slice(0, 120)}`);
      if (last.granularity !== granularity)
        throw new RemoteError(`${partial}: holds ${last.granularity} candles, not ${granularity}; delete it to start again`);
      if (!instruments.includes(last.instrument))
        throw new RemoteError(`${partial}: holds ${last.instrument}, which is not among --instrument; delete it to start again`);
      const at = parseDateTime(last.time, 'RFC3339');
      if (at === null) throw new RemoteError(`${partial}: bad time on its last line: ${last.time}`);
      if (!last.complete) {
        end = start;
        continue;
      }
      point = { instrument: last.instrument, at, time: last.time, lines };
      break;
    }
    ftruncateSync(fd, end);
    if (point === undefined) return undefined;
    // Lines before the resume point, for the progress count.
    lines = countNewlines(fd, end) - (format === 'csv' ? 1 : 0);
    return { ...point, lines };
  } finally {
    closeSync(fd);
  }
}

function countNewlines(fd: number, end: number): number {
  const buffer = Buffer.alloc(TAIL_CHUNK);
  let count = 0;
  for (let pos = 0; pos < end; pos += TAIL_CHUNK) {
    const size = Math.min(TAIL_CHUNK, end - pos);
    readSync(fd, buffer, 0, size, pos);
    for (let i = 0; i < size; i += 1) if (buffer[i] === 0x0a) count += 1;
  }
  return count;
}

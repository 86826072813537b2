import { MICROS_PER_DAY, MICROS_PER_SECOND, type Micros } from '../../domain/time.js';
import { parseDigits } from './numbers.js';

/**
 * Timestamp parsing on spans of a line. Calendar arithmetic is done in integers (no Date, no
 * regex, no substrings) because it runs once per tick and dominates parse time otherwise.
 * Every function returns NaN for text it does not accept.
 */

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : (MONTH_DAYS[month - 1] ?? 0);
}

/** Micros of a UTC wall-clock time, or NaN when a field is out of range. */
export function utcMicros(year: number, month: number, day: number, hour: number, minute: number, second: number, micros: number): Micros {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  if (hour > 23 || minute > 59 || second > 59) return Number.NaN;
  return daysFromCivil(year, month, day) * MICROS_PER_DAY + ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + micros;
}

/**
 * The first `width` digits of a fraction as an integer, right-padded (`.5` at width 6 is
 * 500000); digits past `width` are below the engine's resolution and truncated, as in
 * parseDateTime.
 */
function fractionUnits(text: string, start: number, end: number, width: number): number {
  if (parseDigits(text, start, end) < 0) return Number.NaN;
  const used = Math.min(end - start, width);
  const value = parseDigits(text, start, start + used);
  let scaled = value;
  for (let i = used; i < width; i += 1) scaled *= 10;
  return scaled;
}

function charAt(text: string, i: number): number {
  return text.charCodeAt(i);
}

const DASH = 45;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const SPACE = 32;
const UPPER_T = 84;
const UPPER_Z = 90;

/**
 * RFC3339 `2014-05-01T00:00:00.292Z` or with an offset `+00:00`; a space may stand for the `T`
 * (RFC3339 section 5.6 allows it and TrueFX files use it). Up to nine fractional digits. The
 * zone is required: a time without one is ambiguous.
 */
export function parseRfc3339Span(text: string, start: number, end: number): Micros {
  if (end - start < 20) return Number.NaN;
  const s = start;
  if (charAt(text, s + 4) !== DASH || charAt(text, s + 7) !== DASH || charAt(text, s + 13) !== COLON || charAt(text, s + 16) !== COLON)
    return Number.NaN;
  const sep = charAt(text, s + 10);
  if (sep !== UPPER_T && sep !== SPACE) return Number.NaN;
  const year = parseDigits(text, s, s + 4);
  const month = parseDigits(text, s + 5, s + 7);
  const day = parseDigits(text, s + 8, s + 10);
  const hour = parseDigits(text, s + 11, s + 13);
  const minute = parseDigits(text, s + 14, s + 16);
  const second = parseDigits(text, s + 17, s + 19);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return Number.NaN;
  let p = s + 19;
  let micros = 0;
  if (charAt(text, p) === DOT) {
    const fracStart = p + 1;
    p = fracStart;
    while (p < end && charAt(text, p) >= 48 && charAt(text, p) <= 57) p += 1;
    if (p === fracStart || p - fracStart > 9) return Number.NaN;
    micros = fractionUnits(text, fracStart, p, 6);
  }
  let offsetMinutes = 0;
  const zone = charAt(text, p);
  if (zone === UPPER_Z) {
    if (p + 1 !== end) return Number.NaN;
  } else if (zone === PLUS || zone === DASH) {
    if (p + 6 !== end || charAt(text, p + 3) !== COLON) return Number.NaN;
    const oh = parseDigits(text, p + 1, p + 3);
    const om = parseDigits(text, p + 4, p + 6);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return Number.NaN;
    offsetMinutes = (zone === DASH ? -1 : 1) * (oh * 60 + om);
  } else {
    return Number.NaN;
  }
  const local = utcMicros(year, month, day, hour, minute, second, micros);
  return local - offsetMinutes * 60 * MICROS_PER_SECOND;
}

function splitAtDot(text: string, start: number, end: number): number {
  for (let i = start; i < end; i += 1) if (charAt(text, i) === DOT) return i;
  return end;
}

/** `1491201560` or `1491201560.123456789`: UNIX seconds with up to nine decimals. */
export function parseUnixSecondsSpan(text: string, start: number, end: number): Micros {
  const dot = splitAtDot(text, start, end);
  if (dot - start > 12) return Number.NaN;
  const seconds = parseDigits(text, start, dot);
  if (seconds < 0) return Number.NaN;
  if (dot === end) return seconds * MICROS_PER_SECOND;
  if (end - dot - 1 < 1 || end - dot - 1 > 9) return Number.NaN;
  return seconds * MICROS_PER_SECOND + fractionUnits(text, dot + 1, end, 6);
}

/**
 * Below this a numeric time is UNIX seconds, at or above it epoch milliseconds (from 1973-03-03
 * on). Seconds past about 9.0e9 (year 2255) fall outside the engine's exact microsecond range
 * and are rejected, so no value is ever read in the wrong unit.
 */
export const EPOCH_MILLIS_THRESHOLD = 100_000_000_000;

/**
 * A numeric time whose unit is told by its size: UNIX seconds below EPOCH_MILLIS_THRESHOLD,
 * epoch milliseconds at or above it. Either may carry decimals (kept to the microsecond).
 */
export function parseEpochNumberSpan(text: string, start: number, end: number): Micros {
  const dot = splitAtDot(text, start, end);
  const whole = parseDigits(text, start, dot);
  if (whole < 0) return Number.NaN;
  const fracLength = dot === end ? 0 : end - dot - 1;
  if (dot !== end && (fracLength < 1 || fracLength > 9)) return Number.NaN;
  const millis = whole >= EPOCH_MILLIS_THRESHOLD;
  const width = millis ? 3 : 6;
  const fraction = fracLength === 0 ? 0 : fractionUnits(text, dot + 1, end, width);
  const result = millis ? whole * 1000 + fraction : whole * MICROS_PER_SECOND + fraction;
  return Number.isSafeInteger(result) ? result : Number.NaN;
}

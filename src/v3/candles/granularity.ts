import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, type Micros } from '../../domain/time.js';
import { toLocal, toUtc } from './zones.js';

/** v20 CandlestickGranularity, finest first. */
export const GRANULARITIES = [
  'S5',
  'S10',
  'S15',
  'S30',
  'M1',
  'M2',
  'M4',
  'M5',
  'M10',
  'M15',
  'M30',
  'H1',
  'H2',
  'H3',
  'H4',
  'H6',
  'H8',
  'H12',
  'D',
  'W',
  'M',
] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/**
 * Granularities kept per tick, as fixed-length buckets counted from the UNIX epoch. Each divides
 * an hour and are laid out in UTC; aligned granularities fold from them (H1, or M15 in a zone whose
 * offset is not a whole number of hours: zones.ts wholeHourZone).
 */
export const STORED_GRANULARITIES = ['S5', 'S10', 'S15', 'S30', 'M1', 'M2', 'M4', 'M5', 'M10', 'M15', 'M30', 'H1'] as const;
export type StoredGranularity = (typeof STORED_GRANULARITIES)[number];

const S = MICROS_PER_SECOND;
const MIN = MICROS_PER_MINUTE;
const H = MICROS_PER_HOUR;
const DAY = MICROS_PER_DAY;
const WEEK = 7 * DAY;

export const STORED_LENGTH: Readonly<Record<StoredGranularity, Micros>> = {
  S5: 5 * S,
  S10: 10 * S,
  S15: 15 * S,
  S30: 30 * S,
  M1: MIN,
  M2: 2 * MIN,
  M4: 4 * MIN,
  M5: 5 * MIN,
  M10: 10 * MIN,
  M15: 15 * MIN,
  M30: 30 * MIN,
  H1: H,
};

/** Hours of the granularities built from H1 candles at the daily alignment (D = 24). */
const ALIGNED_HOURS: Readonly<Record<string, number>> = { H2: 2, H3: 3, H4: 4, H6: 6, H8: 8, H12: 12, D: 24 };

/** Nominal length of a candle, for the "more than 5000 candles" check of a from/to span. */
export function nominalLength(g: Granularity): Micros {
  if (isStored(g)) return STORED_LENGTH[g];
  if (g === 'W') return WEEK;
  if (g === 'M') return 30 * DAY;
  return (ALIGNED_HOURS[g] as number) * H;
}

export function isStored(g: Granularity): g is StoredGranularity {
  return (STORED_GRANULARITIES as readonly string[]).includes(g);
}

/** An IANA time zone name that isAlignmentTimezone (zones.ts) accepts. */
export type AlignmentTimezone = string;

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Alignment {
  /** Hour of the day (0-23, local to the timezone) a trading day starts. */
  readonly dailyAlignment: number;
  readonly timezone: AlignmentTimezone;
  /** Day a week starts on, at the daily alignment hour. */
  readonly weeklyAlignment: Weekday;
}

/** v20's defaults: trading days start 17:00 New York, weeks on Friday at 17:00. */
export const DEFAULT_ALIGNMENT: Alignment = { dailyAlignment: 17, timezone: 'America/New_York', weeklyAlignment: 'Friday' };

export interface Bucket {
  readonly start: Micros;
  readonly end: Micros;
}

function floorTo(value: Micros, step: Micros): Micros {
  return Math.floor(value / step) * step;
}

/** Local start of the first trading day of a month (month may be 12: January of the next year). */
function monthStartLocal(year: number, month0: number, hour: number): Micros {
  // A trading day belongs to the date its middle falls on: starting at 17:00 on the 31st, it is
  // the 1st's; starting at 00:00 on the 1st, also the 1st's.
  return Date.UTC(year, month0, 1) * 1000 + hour * H - (hour >= 12 ? DAY : 0);
}

/** 1970-01-01 was a Thursday: days from a Thursday to each weekday. */
function daysAfterThursday(day: Weekday): number {
  return (WEEKDAYS.indexOf(day) - 3 + 7) % 7;
}

/**
 * The candle of an aligned granularity (H2 to H12, D, W, M) that contains instant `t`. Buckets are
 * laid out in local wall-clock time, so a day that gains or loses an hour to summer time has 25
 * or 23 hours, and the candle times move between 21:00 and 22:00 UTC with New York's offset.
 */
export function alignedBucket(g: Exclude<Granularity, StoredGranularity>, t: Micros, alignment: Alignment): Bucket {
  const tz = alignment.timezone;
  const hour = alignment.dailyAlignment;
  const local = toLocal(t, tz);
  let startLocal: Micros;
  let endLocal: Micros;
  if (g === 'W') {
    const anchor = daysAfterThursday(alignment.weeklyAlignment) * DAY + hour * H;
    startLocal = anchor + floorTo(local - anchor, WEEK);
    endLocal = startLocal + WEEK;
  } else if (g === 'M') {
    const dayStart = floorTo(local - hour * H, DAY) + hour * H;
    const date = new Date((dayStart + 12 * H) / 1000);
    const year = date.getUTCFullYear();
    const month0 = date.getUTCMonth();
    startLocal = monthStartLocal(year, month0, hour);
    endLocal = monthStartLocal(year, month0 + 1, hour);
  } else {
    const length = (ALIGNED_HOURS[g] as number) * H;
    startLocal = floorTo(local - hour * H, length) + hour * H;
    endLocal = startLocal + length;
  }
  return { start: toUtc(startLocal, tz), end: toUtc(endLocal, tz) };
}

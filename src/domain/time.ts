/**
 * Simulated time: integer microseconds since the UNIX epoch, held in a plain number (exact up to
 * year 2255). Time is always an argument in the core; nothing here reads a clock.
 */
export type Micros = number;

export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
export const MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
export const MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

export type DatetimeFormat = 'RFC3339' | 'UNIX';

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** "00" .. "99" and "000" .. "999". */
const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const SECONDS_PER_DAY = 86_400;
/** Days from 0000-03-01 to 1970-01-01, and the days of one 400-year Gregorian era. */
const EPOCH_SHIFT_DAYS = 719_468;
const DAYS_PER_ERA = 146_097;

/**
 * The year of a day counted from 1970-01-01 in a calendar whose years begin on March 1 (so the
 * leap day ends a year), and the day of that year (0 = March 1): the first half of the civil date
 * of a day count (the proleptic Gregorian calendar, as Date uses), which dayText and utcYear share.
 */
function marchYearOf(day: number): { marchYear: number; doy: number } {
  const z = day + EPOCH_SHIFT_DAYS;
  const era = Math.floor(z / DAYS_PER_ERA);
  const doe = z - era * DAYS_PER_ERA;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  return { marchYear: yoe + era * 400, doy: doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)) };
}

/**
 * "yyyy-mm-ddT" of a day counted from 1970-01-01, by calendar arithmetic (the proleptic Gregorian
 * calendar, as Date uses); null outside years 0000..9999, which ISO prints with six digits.
 */
function dayText(day: number): string | null {
  const { marchYear, doy } = marchYearOf(day);
  const mp = Math.floor((5 * doy + 2) / 153);
  const date = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = marchYear + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return null;
  const y = year >= 1000 ? String(year) : String(year).padStart(4, '0');
  return `${y}-${TWO_DIGITS[month] as string}-${TWO_DIGITS[date] as string}T`;
}

/**
 * `2016-10-24T21:48:18.593753000Z`: nine fractional digits, as v20 prints them. Built from three
 * flat strings, each under V8's shortest rope (13 characters), joined by two rope nodes: a template
 * literal of its ten parts leaves a chain of nine (about 290 bytes where the text needs 48), and
 * times are kept on every transaction, order and trade.
 */
export function formatRfc3339(t: Micros): string {
  const ms = Math.floor(t / 1000);
  const micros = t - ms * 1000;
  const second = Math.floor(ms / 1000);
  const day = Math.floor(second / SECONDS_PER_DAY);
  const date = dayText(day);
  // Years outside 0000..9999 print with six digits and a sign: no shortcut for those.
  if (date === null) return `${new Date(ms).toISOString().slice(0, 23)}${pad(micros, 3)}000Z`;
  const inDay = second - day * SECONDS_PER_DAY;
  const hour = Math.floor(inDay / 3600);
  const minute = Math.floor((inDay - hour * 3600) / 60);
  const sec = inDay - hour * 3600 - minute * 60;
  const clock = (TWO_DIGITS[hour] as string) + ':' + (TWO_DIGITS[minute] as string) + ':' + (TWO_DIGITS[sec] as string) + '.';
  const fraction = (THREE_DIGITS[ms - second * 1000] as string) + (THREE_DIGITS[micros] as string) + '000Z';
  return date + clock + fraction;
}

/** `1491201560.000000000`: seconds since epoch with nine decimals. */
export function formatUnix(t: Micros): string {
  // Sign and magnitude: flooring a negative time would print -0.5 s as "-1.500000000".
  const sign = t < 0 ? '-' : '';
  const magnitude = Math.abs(t);
  const seconds = Math.floor(magnitude / MICROS_PER_SECOND);
  const micros = magnitude - seconds * MICROS_PER_SECOND;
  return `${sign}${seconds}.${pad(micros, 6)}000`;
}

export function formatDateTime(t: Micros, format: DatetimeFormat): string {
  return format === 'UNIX' ? formatUnix(t) : formatRfc3339(t);
}

const RFC3339_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const UNIX_RE = /^(\d{1,12})(?:\.(\d{1,9}))?$/;

function fractionToMicros(fraction: string | undefined): number {
  if (fraction === undefined) return 0;
  // Digits past the sixth (nanoseconds) are below the engine's resolution: truncated.
  return Number(fraction.slice(0, 6).padEnd(6, '0'));
}

/** Parses an RFC3339 DateTime (any offset) or, when allowed, a UNIX seconds string. */
export function parseDateTime(value: string, format: DatetimeFormat | 'ANY' = 'ANY'): Micros | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  if (format !== 'UNIX') {
    const m = RFC3339_RE.exec(value);
    if (m) {
      const [, y, mo, d, h, mi, s, frac, zone] = m;
      const year = Number(y),
        month = Number(mo),
        day = Number(d);
      const hour = Number(h),
        minute = Number(mi),
        second = Number(s);
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
      if (hour > 23 || minute > 59 || second > 59) return null;
      let ms = utcMs(year, month, day, hour, minute, second);
      if (zone !== 'Z' && zone !== undefined) {
        const sign = zone.startsWith('-') ? -1 : 1;
        const oh = Number(zone.slice(1, 3)),
          om = Number(zone.slice(4, 6));
        if (oh > 23 || om > 59) return null;
        ms -= sign * (oh * 60 + om) * 60_000;
      }
      return ms * 1000 + fractionToMicros(frac);
    }
    if (format === 'RFC3339') return null;
  }
  const u = UNIX_RE.exec(value);
  if (!u) return null;
  return Number(u[1]) * MICROS_PER_SECOND + fractionToMicros(u[2]);
}

const ZONELESS_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;

/**
 * A DateTime without a zone designator read as America/New_York local time, as real v20 reads
 * one: `"gtdTime": "2018-07-02T00:00:00"` came back as `"2018-07-02T04:00:00.000000000Z"`
 * (oandapyV20's jupyter/orders.ipynb, a practice-server response; facts sheet, "Zoneless
 * DateTime"). In the repeated hour of November the first (daylight) reading is taken; a time in
 * the skipped hour of March is read with the standard offset. Null when it is not such a text.
 */
export function parseNewYorkLocal(value: string): Micros | null {
  const m = typeof value === 'string' && value.length <= 40 ? ZONELESS_RE.exec(value) : null;
  if (m === null) return null;
  const local = parseDateTime(`${value}Z`, 'RFC3339');
  return local === null ? null : localToUtc(local, (t) => newYorkOffsetHours(t) * MICROS_PER_HOUR);
}

/**
 * Local wall-clock time (counted in micros from the epoch as if it were UTC) back to the UTC
 * instant, given the zone's offset at any instant (local = UTC + offset). A time that exists twice
 * (clocks set back) is the earlier instant; one that does not exist (clocks set forward) is read
 * at the offset before the change. The one rule for request DateTimes and candle alignment.
 */
export function localToUtc(local: Micros, offsetAt: (t: Micros) => Micros): Micros {
  const before = offsetAt(local - MICROS_PER_DAY);
  const after = offsetAt(local + MICROS_PER_DAY);
  const early = local - before;
  const late = local - after;
  const earlyValid = offsetAt(early) === before;
  const lateValid = offsetAt(late) === after;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (lateValid && !earlyValid) return late;
  return early;
}

/** 400 Gregorian years are exactly 146097 days. */
const MS_PER_400_YEARS = 146_097 * 86_400_000;

/**
 * Date.UTC for a 1-based month, also for years 0-99 (which Date.UTC alone maps to 1900-1999):
 * computed 400 years later, where the calendar repeats, and shifted back.
 */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  return Date.UTC(year + 400, month - 1, day, hour, minute, second) - MS_PER_400_YEARS;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Weekday (0 = Sunday) of a UTC day given by its first millisecond: 1970-01-01 was a Thursday. */
function weekdayAt(ms: number): number {
  return (((Math.floor(ms / 86_400_000) + 4) % 7) + 7) % 7;
}

/** Day of month of the n-th `weekday` (0 = Sunday) in a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  const first = weekdayAt(Date.UTC(year, month - 1, 1));
  return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
}

function lastWeekday(year: number, month: number, weekday: number): number {
  const days = daysInMonth(year, month);
  const last = weekdayAt(Date.UTC(year, month - 1, days));
  return days - ((last - weekday + 7) % 7);
}

/** The UTC year of an instant in milliseconds, by calendar arithmetic (dayText's). */
function utcYear(ms: number): number {
  const { marchYear, doy } = marchYearOf(Math.floor(ms / 86_400_000));
  // January and February (doy 306 on) belong to the next calendar year.
  return marchYear + (doy >= 306 ? 1 : 0);
}

/**
 * UTC offset of America/New_York in hours at a UTC instant, by the US rules (2007 on: second
 * Sunday of March to first Sunday of November; before: first Sunday of April to last Sunday of
 * October; changes at 02:00 local). Computed, not looked up, so no tz database is needed.
 */
export function newYorkOffsetHours(t: Micros): -4 | -5 {
  // Called for every candle bucket and market-hours check: no Date object, no array.
  const ms = Math.floor(t / 1000);
  const year = utcYear(ms);
  const start = year >= 2007 ? Date.UTC(year, 2, nthWeekday(year, 3, 0, 2), 7) : Date.UTC(year, 3, nthWeekday(year, 4, 0, 1), 7); // 02:00 EST
  const end = year >= 2007 ? Date.UTC(year, 10, nthWeekday(year, 11, 0, 1), 6) : Date.UTC(year, 9, lastWeekday(year, 10, 0), 6); // 02:00 EDT
  return ms >= start && ms < end ? -4 : -5;
}

/** The first 17:00 America/New_York strictly after `t`: the end of a trading day (GFD, financing). */
export function nextNewYorkFivePm(t: Micros): Micros {
  const ms = Math.floor(t / 1000);
  const day = new Date(ms);
  for (let i = -1; i <= 2; i += 1) {
    const candidateDay = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + i);
    // 17:00 local is 21:00 or 22:00 UTC; take the offset that holds at that instant.
    const guess = (candidateDay + 22 * 3_600_000) * 1000;
    const offset = newYorkOffsetHours(guess - MICROS_PER_HOUR);
    const at = (candidateDay + (17 - offset) * 3_600_000) * 1000;
    if (at > t) return at;
  }
  throw new Error('unreachable: a 17:00 New York always falls within two days');
}

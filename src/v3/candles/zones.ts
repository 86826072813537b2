import { MICROS_PER_HOUR, localToUtc, newYorkOffsetHours, type Micros } from '../../domain/time.js';

/**
 * The time zones `alignmentTimezone` may name: any IANA zone Node's ICU knows (v20 takes a tz
 * database name). America/New_York (the default) keeps its computed US rules and UTC is fixed;
 * other zones read their offsets from Intl, whose data is part of the Node build, so the same
 * Node version aligns the same way on every machine (no wall clock is read).
 */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat | undefined {
  let f = FORMATTERS.get(tz);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      return undefined; // RangeError: not a time zone
    }
    FORMATTERS.set(tz, f);
  }
  return f;
}

/** Whether `tz` names a zone candles can be aligned in. */
export function isAlignmentTimezone(tz: string): boolean {
  return tz === 'UTC' || tz === 'America/New_York' || (tz.length <= 64 && formatter(tz) !== undefined);
}

/** The zone's UTC offset at instant `t`, in micros (local = UTC + offset). */
export function zoneOffset(tz: string, t: Micros): Micros {
  if (tz === 'UTC') return 0;
  if (tz === 'America/New_York') return newYorkOffsetHours(t) * MICROS_PER_HOUR;
  const ms = Math.floor(t / 1000 / 60_000) * 60_000; // offsets are whole minutes
  const parts = (formatter(tz) as Intl.DateTimeFormat).formatToParts(new Date(ms));
  const field = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? '0');
  const local = Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
  return (local - ms) * 1000;
}

/** A UTC instant as local wall-clock time (still counted in micros from the epoch). */
export function toLocal(t: Micros, tz: string): Micros {
  return t + zoneOffset(tz, t);
}

/** Local wall-clock time back to UTC, by the one rule for repeated and skipped hours (domain/time.ts localToUtc). */
export function toUtc(local: Micros, tz: string): Micros {
  return tz === 'UTC' ? local : localToUtc(local, (t) => zoneOffset(tz, t));
}

const WHOLE_HOURS = new Map<string, boolean>();

/**
 * Whether the zone's offset has been a whole number of hours on the first of every month from
 * 1970 to 2040: then its aligned candles (H2 to M) start on the hour and fold from H1 candles;
 * otherwise (Asia/Kolkata, Australia/Adelaide, ...) they fold from M15 candles, which every
 * offset in the tz database divides.
 */
export function wholeHourZone(tz: string): boolean {
  let whole = WHOLE_HOURS.get(tz);
  if (whole === undefined) {
    whole = true;
    for (let year = 1970; year <= 2040 && whole; year += 1) {
      for (let month = 0; month < 12; month += 1) {
        if (zoneOffset(tz, Date.UTC(year, month, 1) * 1000) % MICROS_PER_HOUR !== 0) {
          whole = false;
          break;
        }
      }
    }
    WHOLE_HOURS.set(tz, whole);
  }
  return whole;
}

import { newYorkOffsetHours, parseDateTime, type Micros } from './time.js';

/**
 * When an instrument trades. FX trades from Sunday 17:00 to Friday 17:00 America/New_York
 * (OANDA help, "Market hours": "Sunday 5 p.m. ET to Friday 5 p.m. ET"; the same 17:00 New York
 * that ends the trading day for financing, facts sheet section 10). Outside these hours OANDA's
 * prices are `tradeable: false` (ClientPrice.tradeable, oanda-v20-openapi.json) and a MARKET order
 * is created and cancelled with reason MARKET_HALTED (facts sheet sections 5 and 11).
 *
 * A calendar is a weekly session in New York local time plus closures (holidays, outages): closed
 * intervals in UTC. Configs give it per instrument (`marketHours` of an instrument override) or
 * per run (the engine's `marketHours`).
 */
export interface MarketHoursSpec {
  /**
   * The weekly session in New York local time, e.g. {open: "SUNDAY 17:00", close: "FRIDAY 17:00"};
   * "ALWAYS" for an instrument without a weekly close. Default: the FX week.
   */
  readonly weekly?: { readonly open: string; readonly close: string } | 'ALWAYS';
  /** Closed intervals [from, to) as RFC 3339 DateTimes, e.g. a holiday. */
  readonly closures?: readonly { readonly from: string; readonly to: string; readonly name?: string }[];
}

export const FX_MARKET_HOURS: MarketHoursSpec = { weekly: { open: 'SUNDAY 17:00', close: 'FRIDAY 17:00' } };

const WEEKDAYS: readonly string[] = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
const MS_PER_WEEK = 7 * MS_PER_DAY;
/** 1970-01-01 was a Thursday. */
const EPOCH_WEEKDAY = 4;
const WEEKLY_RE = /^(SUNDAY|MONDAY|TUESDAY|WEDNESDAY|THURSDAY|FRIDAY|SATURDAY) ([01]\d|2[0-3]):([0-5]\d)$/;
/** A calendar with only closures and no weekly session could loop through many; no real one has this many. */
const MAX_STEPS = 100_000;

/** "FRIDAY 17:00" -> minutes from Sunday 00:00 local. */
function weekMinute(text: string, field: string): number {
  const m = WEEKLY_RE.exec(text);
  if (m === null) throw new Error(`marketHours.weekly.${field} must look like "FRIDAY 17:00" (New York time), got ${JSON.stringify(text)}`);
  return WEEKDAYS.indexOf(m[1] as string) * 1440 + Number(m[2]) * 60 + Number(m[3]);
}

/** The UTC instant (ms) of a New York wall-clock time (ms as if it were UTC). */
function newYorkToUtcMs(localMs: number): number {
  const edt = localMs + 4 * 3_600_000;
  return newYorkOffsetHours(edt * 1000) === -4 ? edt : localMs + 5 * 3_600_000;
}

function compileClosures(spec: MarketHoursSpec): Micros[] {
  const intervals: [Micros, Micros][] = [];
  for (const [i, c] of (spec.closures ?? []).entries()) {
    const from = parseDateTime(c.from, 'RFC3339');
    const to = parseDateTime(c.to, 'RFC3339');
    if (from === null || to === null || !(from < to))
      throw new Error(`marketHours.closures[${i}] needs RFC 3339 "from" before "to", got ${JSON.stringify(c)}`);
    intervals.push([from, to]);
  }
  intervals.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // Merged, so that an open stretch always ends at a closure's start.
  const flat: Micros[] = [];
  for (const [from, to] of intervals) {
    const last = flat.length - 1;
    if (last > 0 && from <= (flat[last] as Micros)) flat[last] = Math.max(flat[last] as Micros, to);
    else flat.push(from, to);
  }
  return flat;
}

/**
 * A compiled calendar. `openAt`/`changeAfter` answer from the stretch computed last, so a caller
 * moving forward in time pays a compare per question and a computation per session boundary.
 * One instance per consumer (an account's price slot, a generator): the cache is its own.
 */
export class MarketCalendar {
  /** Minutes from Sunday 00:00 New York of the weekly open and close; null: no weekly close. */
  private readonly openMinute: number | null;
  private readonly closeMinute: number;
  /** Closed intervals, merged and sorted: from0, to0, from1, to1, ... */
  private readonly closures: readonly Micros[];
  private from: Micros = 0;
  private until: Micros = 0;
  private open = false;

  constructor(spec: MarketHoursSpec = FX_MARKET_HOURS) {
    const weekly = spec.weekly ?? FX_MARKET_HOURS.weekly;
    if (weekly === 'ALWAYS' || weekly === undefined) {
      this.openMinute = null;
      this.closeMinute = 0;
    } else {
      this.openMinute = weekMinute(weekly.open, 'open');
      this.closeMinute = weekMinute(weekly.close, 'close');
      if (this.openMinute === this.closeMinute) throw new Error('marketHours.weekly: open and close must differ (use "ALWAYS")');
    }
    this.closures = compileClosures(spec);
  }

  /** Throws the message of a malformed spec (a config check before the run starts). */
  static check(spec: MarketHoursSpec | undefined): void {
    new MarketCalendar(spec).openAt(0);
  }

  /** Whether the instrument trades at `t`. */
  openAt(t: Micros): boolean {
    if (t < this.from || t >= this.until) this.compute(t);
    return this.open;
  }

  /**
   * The first time after `t` at which the state may change. For an open `t` it is exactly the end
   * of its session (the weekly close or the next closure, whichever is first).
   */
  changeAfter(t: Micros): Micros {
    if (t < this.from || t >= this.until) this.compute(t);
    return this.until;
  }

  /** Until when a quote at `t` is a tradeable price: its session's end, or -Infinity in closed hours. */
  tradeableUntil(t: Micros): Micros {
    return this.openAt(t) ? this.until : Number.NEGATIVE_INFINITY;
  }

  /** `t` itself when open, else the reopening: the start of the next session. */
  nextOpen(t: Micros): Micros {
    let at = t;
    for (let i = 0; i < MAX_STEPS; i += 1) {
      if (this.openAt(at)) return at;
      at = this.until;
    }
    throw new Error('marketHours: no session opens after the closures');
  }

  private compute(t: Micros): void {
    const weekly = this.weekly(t);
    let open = weekly.open;
    let from = weekly.from;
    let until = weekly.until;
    const c = this.closures;
    for (let i = 0; i < c.length; i += 2) {
      const cFrom = c[i] as Micros;
      const cTo = c[i + 1] as Micros;
      if (cTo <= t) {
        from = Math.max(from, cTo);
        continue;
      }
      if (cFrom <= t) {
        open = false;
        from = Math.max(from, cFrom);
        until = Math.min(until, cTo);
      } else {
        until = Math.min(until, cFrom);
      }
      break;
    }
    this.open = open;
    this.from = from;
    this.until = until;
  }

  /** The weekly session's state at `t` and the transitions around it. */
  private weekly(t: Micros): { open: boolean; from: Micros; until: Micros } {
    if (this.openMinute === null) return { open: true, from: Number.NEGATIVE_INFINITY, until: Number.POSITIVE_INFINITY };
    const ms = Math.floor(t / 1000);
    const local = ms + newYorkOffsetHours(t) * 3_600_000;
    const day = Math.floor(local / MS_PER_DAY);
    const weekStart = (day - ((((day + EPOCH_WEEKDAY) % 7) + 7) % 7)) * MS_PER_DAY;
    // Transitions of the previous, this and the next week in time order; they alternate.
    let lastTime = Number.NEGATIVE_INFINITY;
    let lastOpen = false;
    let next = Number.POSITIVE_INFINITY;
    for (let w = -1; w <= 1; w += 1) {
      for (const [minute, opens] of [
        [this.openMinute, true],
        [this.closeMinute, false],
      ] as const) {
        const at = newYorkToUtcMs(weekStart + w * MS_PER_WEEK + minute * MS_PER_MINUTE) * 1000;
        if (at <= t && at > lastTime) {
          lastTime = at;
          lastOpen = opens;
        } else if (at > t && at < next) {
          next = at;
        }
      }
    }
    return { open: lastOpen, from: lastTime, until: next };
  }
}

import { isDecimalString } from '../../domain/decimal.js';
import { SIM_LIMITS } from '../../domain/limits.js';
import type { Tick } from '../../domain/tick.js';
import { formatRfc3339, MICROS_PER_SECOND, parseDateTime, type Micros } from '../../domain/time.js';
import type { Engine } from '../../engine/engine.js';
import { checkBalance } from '../../v3/account-config.js';
import { V20Error, invalidValue } from '../../v3/errors.js';

/** The control API's request bodies, checked whole before anything changes. */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function invalid(field: string, why?: string): V20Error {
  if (why === undefined) return invalidValue(field);
  return new V20Error(400, { errorMessage: `Invalid value specified for '${field}': ${why}` });
}

function parsePrice(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  if (isDecimalString(value) && !value.startsWith('-')) {
    const n = Number(value);
    if (Number.isFinite(n) && n > 0) return n;
  }
  throw invalid(field, 'must be a positive price (a decimal string or a number)');
}

function parseTime(value: unknown, field: string): Micros {
  let t: Micros | null = null;
  if (typeof value === 'number') t = Number.isFinite(value) && value >= 0 ? Math.round(value * MICROS_PER_SECOND) : null;
  else if (typeof value === 'string') t = parseDateTime(value, 'ANY');
  // Micros are exact in a double up to year 2255; the clock stops well before.
  if (t === null || t > SIM_LIMITS.latestTime) throw invalid(field, 'must be an RFC3339 DateTime or UNIX seconds (before 2200)');
  return t;
}

/** Every tick of a push, checked before any is applied: one bad tick and none is. */
export function parseTicks(body: unknown, engine: Engine, stamp: Micros): Tick[] {
  if (!isObject(body) || !Array.isArray(body['ticks']))
    throw invalid('ticks', 'expected {"ticks": [{"instrument", "time", "bid", "ask"}, ...]}');
  const list = body['ticks'] as unknown[];
  if (list.length > SIM_LIMITS.ticksPerPush)
    throw invalid('ticks', `at most ${SIM_LIMITS.ticksPerPush} ticks per push, got ${list.length}`);
  let previous = engine.now;
  const ticks: Tick[] = [];
  list.forEach((raw, i) => {
    const at = `ticks[${i}]`;
    if (!isObject(raw)) throw invalid(at, 'must be an object');
    for (const key of Object.keys(raw)) {
      if (!['instrument', 'time', 'bid', 'ask', 'closeoutBid', 'closeoutAsk'].includes(key)) throw invalid(`${at}.${key}`, 'unknown field');
    }
    const instrument = raw['instrument'];
    if (typeof instrument !== 'string' || !engine.instruments.has(instrument))
      throw invalid(`${at}.instrument`, 'not an instrument of this server');
    const time = raw['time'] === undefined ? Math.max(stamp, previous) : parseTime(raw['time'], `${at}.time`);
    if (time < previous) {
      const what = i === 0 ? 'the simulated clock' : 'the previous tick';
      throw invalid(`${at}.time`, `${formatRfc3339(time)} is before ${what} (${formatRfc3339(previous)}); ticks must come in time order`);
    }
    const bid = parsePrice(raw['bid'], `${at}.bid`);
    const ask = parsePrice(raw['ask'], `${at}.ask`);
    if (bid > ask) throw invalid(`${at}.ask`, 'must not be below bid');
    const tick: { -readonly [K in keyof Tick]: Tick[K] } = { instrument, time, bid, ask };
    if (raw['closeoutBid'] !== undefined) tick.closeoutBid = parsePrice(raw['closeoutBid'], `${at}.closeoutBid`);
    if (raw['closeoutAsk'] !== undefined) tick.closeoutAsk = parsePrice(raw['closeoutAsk'], `${at}.closeoutAsk`);
    ticks.push(tick);
    previous = time;
  });
  return ticks;
}

function bodyObject(body: unknown): Json {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw invalid('body', 'must be a JSON object');
  return body;
}

/** The body of POST /sim/clock/advance: `{to}` or `{seconds}`, never back in time. */
export function parseAdvance(input: unknown, now: Micros): Micros {
  const body = bodyObject(input);
  for (const key of Object.keys(body)) if (key !== 'to' && key !== 'seconds') throw invalid(key, 'unknown field');
  let to: Micros;
  if (body['to'] !== undefined && body['seconds'] !== undefined) throw invalid('to', 'give either to or seconds, not both');
  if (body['to'] !== undefined) {
    to = parseTime(body['to'], 'to');
    if (to < now) throw invalid('to', `${formatRfc3339(to)} is before the simulated clock (${formatRfc3339(now)})`);
  } else if (body['seconds'] !== undefined) {
    const s = body['seconds'];
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > SIM_LIMITS.advanceSecondsMax) {
      throw invalid('seconds', `must be a number of seconds from 0 to ${SIM_LIMITS.advanceSecondsMax}`);
    }
    to = now + Math.round(s * MICROS_PER_SECOND);
    if (to > SIM_LIMITS.latestTime) throw invalid('seconds', 'would move the clock past 2200-01-01T00:00:00Z');
  } else {
    throw invalid('to', 'give {"to": DateTime} or {"seconds": n}');
  }
  return to;
}

/** The body of POST /sim/accounts/{id}/reset: an optional balance (default: the opening deposit). */
export function parseResetBalance(input: unknown): string | undefined {
  const body = bodyObject(input);
  for (const key of Object.keys(body)) if (key !== 'balance') throw invalid(key, 'unknown field');
  if (body['balance'] === undefined) return undefined;
  const text = checkBalance(body['balance']);
  if (text === null) throw invalid('balance', 'must be a non-negative decimal with at most 4 decimals');
  return text;
}

/** The body of POST /sim/accounts/{id}/deposit: an amount (negative to withdraw) and a comment. */
export function parseDeposit(input: unknown): { amount: string; comment: string | undefined } {
  const body = bodyObject(input);
  for (const key of Object.keys(body)) if (key !== 'amount' && key !== 'comment') throw invalid(key, 'unknown field');
  const raw = body['amount'];
  if (raw === undefined) throw invalid('amount', 'required');
  const amount = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (!isDecimalString(amount)) throw invalid('amount', 'must be a decimal string (negative to withdraw)');
  const comment = body['comment'];
  if (comment !== undefined && (typeof comment !== 'string' || comment.length > SIM_LIMITS.commentLength)) {
    throw invalid('comment', `must be a string of at most ${SIM_LIMITS.commentLength} characters`);
  }
  return { amount, comment: typeof comment === 'string' ? comment : undefined };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { isAccountId } from '../account/state.js';
import { accountSummaryView } from '../account/views.js';
import { isDecimalString } from '../domain/decimal.js';
import { LIMITS } from '../domain/limits.js';
import type { Tick } from '../domain/tick.js';
import { formatRfc3339, MICROS_PER_SECOND, parseDateTime, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import type { AccountView } from '../engine/engine.js';
import { serializeTransaction } from '../journal/journal.js';
import { checkAccountConfig, checkBalance } from '../v3/account-config.js';
import { transferFundsCommand } from '../v3/commands.js';
import { NO_ACCOUNT, UNAUTHORIZED, V20Error, invalidValue } from '../v3/errors.js';
import type { V3Call } from '../v3/call.js';
import { resetAccount } from '../v3/reset.js';
import { outcomeResponse } from '../v3/response.js';
import type { ApiContext } from './context.js';
import { parseDatetimeFormat } from './datetime.js';
import { sendV20 } from './http-call.js';

/** Limits of the control API (candidates for domain/limits.ts). */
export const SIM_LIMITS = {
  /** Ticks in one POST /sim/ticks. */
  ticksPerPush: LIMITS.ticksPerPush,
  /** Body of POST /sim/ticks: 10,000 ticks with closeout prices fit with room to spare. */
  ticksBodyBytes: 4 * 1024 * 1024,
  /** Largest single clock step of POST /sim/clock/advance: ten years. */
  advanceSecondsMax: 10 * 366 * 86_400,
  /** Transactions per chunk of the NDJSON journal export. */
  exportChunk: 512,
  commentLength: 128,
  /** The latest simulated time the control API accepts: 2200-01-01T00:00:00Z. */
  latestTime: 7_258_118_400 * 1_000_000,
} as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(field: string, why?: string): V20Error {
  if (why === undefined) return invalidValue(field);
  return new V20Error(400, { errorMessage: `Invalid value specified for '${field}': ${why}` });
}

function conflict(message: string): V20Error {
  return new V20Error(409, { errorMessage: message });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
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
function parseTicks(body: unknown, context: ApiContext): Tick[] {
  if (!isObject(body) || !Array.isArray(body['ticks'])) throw invalid('ticks', 'expected {"ticks": [{"instrument", "time", "bid", "ask"}, ...]}');
  const list = body['ticks'] as unknown[];
  if (list.length > SIM_LIMITS.ticksPerPush) throw invalid('ticks', `at most ${SIM_LIMITS.ticksPerPush} ticks per push, got ${list.length}`);
  const engine = context.engine;
  const stamp = context.now();
  let previous = engine.now;
  const ticks: Tick[] = [];
  list.forEach((raw, i) => {
    const at = `ticks[${i}]`;
    if (!isObject(raw)) throw invalid(at, 'must be an object');
    for (const key of Object.keys(raw)) {
      if (!['instrument', 'time', 'bid', 'ask', 'closeoutBid', 'closeoutAsk'].includes(key)) throw invalid(`${at}.${key}`, 'unknown field');
    }
    const instrument = raw['instrument'];
    if (typeof instrument !== 'string' || !engine.instruments.has(instrument)) throw invalid(`${at}.instrument`, 'not an instrument of this server');
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

function accountParam(context: ApiContext, request: FastifyRequest): AccountView {
  const id = (request.params as { accountID?: string }).accountID ?? '';
  if (!isAccountId(id)) throw invalidValue('accountID');
  const account = context.engine.account(id);
  if (account === undefined) throw NO_ACCOUNT();
  return account;
}

function bodyObject(body: unknown): Json {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw invalid('body', 'must be a JSON object');
  return body;
}

function timeBody(context: ApiContext): Json {
  return { time: formatRfc3339(context.engine.now) };
}

/** A v3 call on an account named in a /sim path. */
function simCall(context: ApiContext, request: FastifyRequest, accountID: string): V3Call {
  return {
    engine: context.engine,
    accountID,
    requestID: request.v20RequestId,
    get now() {
      return context.now();
    },
  };
}

function* exportLines(log: readonly Transaction[]): Generator<string> {
  const end = log.length;
  for (let i = 0; i < end; i += SIM_LIMITS.exportChunk) {
    let chunk = '';
    for (let j = i; j < Math.min(end, i + SIM_LIMITS.exportChunk); j += 1) chunk += `${serializeTransaction(log[j] as Transaction)}\n`;
    yield chunk;
  }
}

/**
 * The control API outside /v3 (admin token): push ticks, drive the clock, manage accounts. Errors
 * are v20-style `{errorMessage}` bodies; every change goes through the engine, so it is journaled
 * like any other.
 */
export const simRoutes = (context: ApiContext): FastifyPluginAsyncTypebox => async (app) => {
  const admin = digest(context.options.adminToken ?? '');

  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer (\S{1,512})$/.exec(header) : null;
    if (match === null || context.options.adminToken === undefined || !timingSafeEqual(digest(match[1] as string), admin)) throw UNAUTHORIZED();
    const format = parseDatetimeFormat(request.headers['accept-datetime-format']);
    if (format === null) throw invalidValue('Accept-Datetime-Format');
    request.v20Format = format;
  });

  app.post('/ticks', { bodyLimit: SIM_LIMITS.ticksBodyBytes }, async (request) => {
    const ticks = parseTicks(request.body, context);
    for (const tick of ticks) context.engine.pushTick(tick);
    return { pushed: ticks.length, ...timeBody(context) };
  });

  app.get('/clock', async () => timeBody(context));

  app.post('/clock/advance', async (request) => {
    const body = bodyObject(request.body);
    for (const key of Object.keys(body)) if (key !== 'to' && key !== 'seconds') throw invalid(key, 'unknown field');
    const engine = context.engine;
    let to: Micros;
    if (body['to'] !== undefined && body['seconds'] !== undefined) throw invalid('to', 'give either to or seconds, not both');
    if (body['to'] !== undefined) {
      to = parseTime(body['to'], 'to');
      if (to < engine.now) throw invalid('to', `${formatRfc3339(to)} is before the simulated clock (${formatRfc3339(engine.now)})`);
    } else if (body['seconds'] !== undefined) {
      const s = body['seconds'];
      if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > SIM_LIMITS.advanceSecondsMax) {
        throw invalid('seconds', `must be a number of seconds from 0 to ${SIM_LIMITS.advanceSecondsMax}`);
      }
      to = engine.now + Math.round(s * MICROS_PER_SECOND);
      if (to > SIM_LIMITS.latestTime) throw invalid('seconds', 'would move the clock past 2200-01-01T00:00:00Z');
    } else {
      throw invalid('to', 'give {"to": DateTime} or {"seconds": n}');
    }
    engine.advanceTo(to);
    return timeBody(context);
  });

  app.post('/accounts', async (request, reply) => {
    const engine = context.engine;
    const checked = checkAccountConfig(request.body, engine.instruments);
    if ('why' in checked) throw invalid(checked.field === '' ? 'body' : checked.field, checked.why);
    if (engine.account(checked.id) !== undefined || engine.journal.accountIds().includes(checked.id)) {
      throw conflict(`The Account ${checked.id} already exists`);
    }
    if (engine.accountIds().length >= LIMITS.accountsPerEngine) throw conflict(`This server holds the maximum of ${LIMITS.accountsPerEngine} accounts`);
    const now = context.now();
    if (now > engine.now) engine.advanceTo(now);
    const account = engine.openAccount(checked);
    return reply.code(201).send({ account: accountSummaryView(account.state), lastTransactionID: String(account.state.lastTransactionID) });
  });

  app.post('/accounts/:accountID/reset', async (request, reply) => {
    const account = accountParam(context, request);
    const body = bodyObject(request.body);
    for (const key of Object.keys(body)) if (key !== 'balance') throw invalid(key, 'unknown field');
    let balance: string | undefined;
    if (body['balance'] !== undefined) {
      const text = checkBalance(body['balance']);
      if (text === null) throw invalid('balance', 'must be a non-negative decimal with at most 4 decimals');
      balance = text;
    }
    return sendV20(reply, resetAccount(simCall(context, request, account.id), balance));
  });

  app.post('/accounts/:accountID/deposit', async (request, reply) => {
    const account = accountParam(context, request);
    const body = bodyObject(request.body);
    for (const key of Object.keys(body)) if (key !== 'amount' && key !== 'comment') throw invalid(key, 'unknown field');
    const raw = body['amount'];
    if (raw === undefined) throw invalid('amount', 'required');
    const amount = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
    if (!isDecimalString(amount)) throw invalid('amount', 'must be a decimal string (negative to withdraw)');
    const comment = body['comment'];
    if (comment !== undefined && (typeof comment !== 'string' || comment.length > SIM_LIMITS.commentLength)) {
      throw invalid('comment', `must be a string of at most ${SIM_LIMITS.commentLength} characters`);
    }
    const outcome = transferFundsCommand(simCall(context, request, account.id), amount, typeof comment === 'string' ? comment : undefined);
    return sendV20(reply, outcomeResponse(account.state.lastTransactionID, outcome, { successStatus: 200, notFoundIs404: false }));
  });

  app.get('/journal/:accountID', async (request, reply) => {
    const account = accountParam(context, request);
    void reply.header('Content-Type', 'application/x-ndjson; charset=utf-8');
    return reply.send(Readable.from(exportLines(account.log)));
  });
};

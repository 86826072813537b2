import { createHash, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { isAccountId } from '../../account/state.js';
import { formatRfc3339 } from '../../domain/time.js';
import type { TransactionLog } from '../../account/transaction-log.js';
import type { AccountView } from '../../engine/engine.js';
import { serializeTransaction } from '../../journal/journal.js';
import type { V3Call } from '../../v3/call.js';
import { transferFundsCommand } from '../../v3/commands.js';
import { NO_ACCOUNT, UNAUTHORIZED, invalidValue } from '../../v3/errors.js';
import { openAccount } from '../../v3/open-account.js';
import { resetAccount } from '../../v3/reset.js';
import { outcomeResponse } from '../../v3/response.js';
import type { ApiContext } from '../context.js';
import { parseDatetimeFormat } from '../../v3/datetime.js';
import { answerV20 } from '../http-call.js';
import { sharedScope } from '../plugins/shared-scope.js';
import { AccountBody, ClockBody, OutcomeBody, PushedBody, ResetBody, ok } from '../responses.js';
import { SIM_LIMITS } from '../../domain/limits.js';
import { parseAdvance, parseDeposit, parseResetBalance, parseTicks } from '../sim/input.js';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The admin token (401) and Accept-Datetime-Format (400) of every control API request. */
const adminAuth = (context: ApiContext): FastifyPluginCallback =>
  sharedScope('v20sim-admin-auth', (app, _options, done) => {
    const admin = digest(context.options.adminToken ?? '');
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer (\S{1,512})$/.exec(header) : null;
      if (match === null || context.options.adminToken === undefined || !timingSafeEqual(digest(match[1] as string), admin))
        throw UNAUTHORIZED();
      const format = parseDatetimeFormat(request.headers['accept-datetime-format']);
      if (format === null) throw invalidValue('Accept-Datetime-Format');
      request.v20Format = format;
    });
    done();
  });

function accountParam(context: ApiContext, request: FastifyRequest): AccountView {
  const id = (request.params as { accountID?: string }).accountID ?? '';
  if (!isAccountId(id)) throw invalidValue('accountID');
  const account = context.engine.account(id);
  if (account === undefined) throw NO_ACCOUNT();
  return account;
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

function timeBody(context: ApiContext): { time: string } {
  return { time: formatRfc3339(context.engine.now) };
}

/** The log up to its last transaction now, in chunks; IDs below the in-memory window are read from the journal as sent. */
function* exportLines(log: TransactionLog): Generator<string> {
  let chunk = '';
  let lines = 0;
  for (const tx of log.from(1, log.length)) {
    chunk += `${serializeTransaction(tx)}\n`;
    lines += 1;
    if (lines === SIM_LIMITS.exportChunk) {
      yield chunk;
      chunk = '';
      lines = 0;
    }
  }
  if (lines > 0) yield chunk;
}

/**
 * The control API outside /v3 (admin token): push ticks, drive the clock, manage accounts. Errors
 * are v20-style `{errorMessage}` bodies; every change goes through the engine, so it is journaled
 * like any other.
 */
export const simRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(adminAuth(context));
    // Every control request changes or reads the market or an account: the orders queued before it run first (turn-queue.ts).
    app.addHook('preHandler', (_request, _reply, done) => {
      context.turn.drain();
      done();
    });

    app.post('/ticks', { bodyLimit: SIM_LIMITS.ticksBodyBytes, schema: { response: ok(PushedBody) } }, async (request) => {
      const ticks = parseTicks(request.body, context.engine, context.now());
      for (const tick of ticks) context.engine.pushTick(tick);
      return { pushed: ticks.length, ...timeBody(context) };
    });

    app.get('/clock', { schema: { response: ok(ClockBody) } }, async () => timeBody(context));

    app.post('/clock/advance', { schema: { response: ok(ClockBody) } }, async (request) => {
      context.engine.advanceTo(parseAdvance(request.body, context.engine.now));
      return timeBody(context);
    });

    app.post('/accounts', { schema: { response: ok(AccountBody, 201) } }, (request, reply) =>
      answerV20(context, reply, () => openAccount(context.engine, request.body, context.now())),
    );

    app.post('/accounts/:accountID/reset', { schema: { response: ok(ResetBody) } }, (request, reply) =>
      answerV20(context, reply, () => {
        const account = accountParam(context, request);
        return resetAccount(simCall(context, request, account.id), parseResetBalance(request.body));
      }),
    );

    app.post('/accounts/:accountID/deposit', { schema: { response: ok(OutcomeBody) } }, (request, reply) =>
      answerV20(context, reply, () => {
        const account = accountParam(context, request);
        const { amount, comment } = parseDeposit(request.body);
        const outcome = transferFundsCommand(simCall(context, request, account.id), amount, comment);
        return outcomeResponse(account.state.lastTransactionID, outcome, { successStatus: 200, notFoundIs404: false });
      }),
    );

    app.get('/journal/:accountID', async (request, reply) => {
      const account = accountParam(context, request);
      void reply.header('Content-Type', 'application/x-ndjson; charset=utf-8');
      return reply.send(Readable.from(exportLines(account.log)));
    });
  };

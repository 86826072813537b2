import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { accountChangesStateView, accountChangesView, accountSummaryView, accountView, instrumentView } from '../../account/views.js';
import type { InstrumentSpec } from '../../domain/instruments.js';
import { LIMITS } from '../../domain/limits.js';
import { accountOf, baseUrlOf, lastTransactionID } from '../app.js';
import type { ApiContext } from '../context.js';
import { RANGE_NOT_SATISFIABLE, invalidValue } from '../errors.js';
import { replyWithOutcome } from '../outcome.js';
import { AccountParams, TransactionId } from '../schemas.js';

export const accountRoutes = (context: ApiContext): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/accounts', async (request) => {
    const grant = context.options.tokens.find((t) => t.token === request.v20Token);
    const ids = context.engine.accountIds().filter((id) => grant?.accounts === '*' || grant?.accounts.includes(id) === true);
    return { accounts: ids.map((id) => ({ id, tags: [] })) };
  });

  app.get('/accounts/:accountID', { schema: { params: AccountParams } }, async (request) => {
    const account = accountOf(request);
    return { account: accountView(account.state), lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/summary', { schema: { params: AccountParams } }, async (request) => {
    const account = accountOf(request);
    return { account: accountSummaryView(account.state), lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/instruments', {
    schema: { params: AccountParams, querystring: Type.Object({ instruments: Type.Optional(Type.String({ maxLength: 10_000 })) }) },
  }, async (request) => {
    const account = accountOf(request);
    const catalogue = context.engine.instruments;
    const query = request.query.instruments;
    let specs: InstrumentSpec[];
    if (query === undefined) {
      specs = [...catalogue.values()];
    } else {
      specs = [];
      for (const name of query.split(',')) {
        const spec = catalogue.get(name);
        if (spec === undefined) throw invalidValue('instruments');
        specs.push(spec);
      }
    }
    return { instruments: specs.map(instrumentView), lastTransactionID: lastTransactionID(account) };
  });

  app.patch('/accounts/:accountID/configuration', {
    schema: {
      params: AccountParams,
      body: Type.Object({ alias: Type.Optional(Type.String({ maxLength: 10_000 })), marginRate: Type.Optional(Type.String({ maxLength: 64 })) }),
    },
  }, async (request, reply) => {
    const account = accountOf(request);
    const body = request.body;
    const outcome = context.engine.execute(account.id, { type: 'CONFIGURE', alias: body.alias, marginRate: body.marginRate }, { requestID: request.v20RequestId as string, now: context.now() });
    return replyWithOutcome(reply, account, outcome, { successStatus: 200, notFoundIs404: false, location: `${baseUrlOf(context, request)}/v3/accounts/${account.id}` });
  });

  app.get('/accounts/:accountID/changes', {
    schema: { params: AccountParams, querystring: Type.Object({ sinceTransactionID: Type.Optional(TransactionId) }) },
  }, async (request) => {
    const account = accountOf(request);
    const last = account.state.lastTransactionID;
    const sinceText = request.query.sinceTransactionID;
    const body: Record<string, unknown> = {};
    if (sinceText !== undefined) {
      const since = Number(sinceText);
      if (since > last) throw RANGE_NOT_SATISFIABLE(`sinceTransactionID ${since} is beyond the last transaction ${last}`);
      if (last - since > LIMITS.sinceIdMax) throw RANGE_NOT_SATISFIABLE(`More than ${LIMITS.sinceIdMax} transactions since ${since}; read them with transactions/sinceid`);
      body['changes'] = accountChangesView(account.state, account.log.slice(since));
    }
    body['state'] = accountChangesStateView(account.state);
    body['lastTransactionID'] = String(last);
    return body;
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  configureAccount,
  getAccount,
  getAccountChanges,
  getAccountInstruments,
  getAccountSummary,
  listAccounts,
} from '../../v3/accounts.js';
import type { ApiContext } from '../context.js';
import { answerV20, callOf, sendV20 } from '../http-call.js';
import { AccountBody, AccountsBody, ChangesBody, InstrumentsBody, OutcomeBody, ok } from '../responses.js';
import { TransactionId } from '../schemas.js';

const ConfigurationBody = Type.Object({
  alias: Type.Optional(Type.String({ maxLength: 10_000 })),
  marginRate: Type.Optional(Type.String({ maxLength: 64 })),
});

/** Account endpoints of the v3 API. */
export const accountRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/accounts', { schema: { response: ok(AccountsBody) } }, (request, reply) => {
      const grant = context.options.tokens.find((t) => t.token === request.v20Token);
      sendV20(reply, listAccounts(context.engine, grant?.accounts ?? []));
    });

    app.get('/accounts/:accountID', { schema: { response: ok(AccountBody) } }, (request, reply) =>
      sendV20(reply, getAccount(callOf(context, request))),
    );

    app.get('/accounts/:accountID/summary', { schema: { response: ok(AccountBody) } }, (request, reply) =>
      sendV20(reply, getAccountSummary(callOf(context, request))),
    );

    app.get(
      '/accounts/:accountID/instruments',
      {
        schema: {
          querystring: Type.Object({ instruments: Type.Optional(Type.String({ maxLength: 10_000 })) }),
          response: ok(InstrumentsBody),
        },
      },
      (request, reply) => sendV20(reply, getAccountInstruments(callOf(context, request), request.query.instruments)),
    );

    app.patch('/accounts/:accountID/configuration', { schema: { body: ConfigurationBody, response: ok(OutcomeBody) } }, (request, reply) =>
      answerV20(context, reply, () => configureAccount(callOf(context, request), request.body)),
    );

    app.get(
      '/accounts/:accountID/changes',
      {
        schema: {
          querystring: Type.Object({ sinceTransactionID: Type.Optional(TransactionId) }),
          response: ok(ChangesBody),
        },
      },
      (request, reply) => sendV20(reply, getAccountChanges(callOf(context, request), request.query.sinceTransactionID)),
    );
  };

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getTransaction, getTransactionRange, getTransactionsSince, listTransactionPages } from '../../v3/transactions.js';
import type { ApiContext } from '../context.js';
import { callOf, sendV20 } from '../http-call.js';
import { TransactionBody, TransactionPagesBody, TransactionsBody, ok } from '../responses.js';
import { AccountParams, TransactionId } from '../schemas.js';

const TypeQuery = Type.Optional(Type.String({ maxLength: 10_000 }));

const TransactionsQuery = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  pageSize: Type.Optional(Type.String({ maxLength: 40 })),
  type: TypeQuery,
});

/** Transactions endpoints of the v3 API (the stream is in streams.ts). */
export const transactionRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/accounts/:accountID/transactions',
      { schema: { querystring: TransactionsQuery, response: ok(TransactionPagesBody) } },
      (request, reply) => sendV20(reply, listTransactionPages(callOf(context, request), request.query)),
    );

    app.get(
      '/accounts/:accountID/transactions/idrange',
      {
        schema: {
          querystring: Type.Object({ from: TransactionId, to: TransactionId, type: TypeQuery }),
          response: ok(TransactionsBody),
        },
      },
      (request, reply) => sendV20(reply, getTransactionRange(callOf(context, request), request.query)),
    );

    app.get(
      '/accounts/:accountID/transactions/sinceid',
      {
        schema: {
          querystring: Type.Object({ id: Type.String({ pattern: '^(0|[1-9]\\d{0,15})$' }), type: TypeQuery }),
          response: ok(TransactionsBody),
        },
      },
      (request, reply) => sendV20(reply, getTransactionsSince(callOf(context, request), request.query)),
    );

    app.get(
      '/accounts/:accountID/transactions/:transactionID',
      {
        schema: {
          params: Type.Object({ accountID: AccountParams.properties.accountID, transactionID: TransactionId }),
          response: ok(TransactionBody),
        },
      },
      (request, reply) => sendV20(reply, getTransaction(callOf(context, request), request.params.transactionID)),
    );
  };

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  cancelOrder,
  createOrder,
  getOrder,
  listOrders,
  listPendingOrders,
  replaceOrder,
  setOrderClientExtensions,
} from '../../v3/orders.js';
import type { ApiContext } from '../context.js';
import { answerV20, callOf, sendV20 } from '../http-call.js';
import { OrderBody as OneOrderBody, OrdersBody, OutcomeBody, ok } from '../responses.js';
import {
  AccountParams,
  ClientExtensions,
  CountQuery,
  InstrumentFilter,
  OrderBody,
  OrderStateFilter,
  Specifier,
  TransactionId,
} from '../schemas.js';

const OrderParams = Type.Object({ accountID: AccountParams.properties.accountID, orderSpecifier: Specifier });

const OrdersQuery = Type.Object({
  ids: Type.Optional(Type.String({ pattern: '^[1-9]\\d{0,15}(,[1-9]\\d{0,15})*$', maxLength: 10_000 })),
  state: Type.Optional(OrderStateFilter),
  instrument: Type.Optional(InstrumentFilter),
  count: Type.Optional(CountQuery),
  beforeID: Type.Optional(TransactionId),
});

const ClientExtensionsBody = Type.Object({
  clientExtensions: Type.Optional(ClientExtensions),
  tradeClientExtensions: Type.Optional(ClientExtensions),
});

/** Orders endpoints of the v3 API. */
export const orderRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post('/accounts/:accountID/orders', { schema: { body: OrderBody, response: ok(OutcomeBody, 201) } }, (request, reply) =>
      answerV20(context, reply, () => createOrder(callOf(context, request), request.body.order)),
    );

    app.get('/accounts/:accountID/orders', { schema: { querystring: OrdersQuery, response: ok(OrdersBody) } }, (request, reply) =>
      sendV20(reply, listOrders(callOf(context, request), request.query)),
    );

    app.get('/accounts/:accountID/pendingOrders', { schema: { response: ok(OrdersBody) } }, (request, reply) =>
      sendV20(reply, listPendingOrders(callOf(context, request))),
    );

    app.get(
      '/accounts/:accountID/orders/:orderSpecifier',
      { schema: { params: OrderParams, response: ok(OneOrderBody) } },
      (request, reply) => sendV20(reply, getOrder(callOf(context, request), request.params.orderSpecifier)),
    );

    app.put(
      '/accounts/:accountID/orders/:orderSpecifier',
      { schema: { params: OrderParams, body: OrderBody, response: ok(OutcomeBody, 201) } },
      (request, reply) =>
        answerV20(context, reply, () => replaceOrder(callOf(context, request), request.params.orderSpecifier, request.body.order)),
    );

    app.put(
      '/accounts/:accountID/orders/:orderSpecifier/cancel',
      { schema: { params: OrderParams, response: ok(OutcomeBody) } },
      (request, reply) => answerV20(context, reply, () => cancelOrder(callOf(context, request), request.params.orderSpecifier)),
    );

    app.put(
      '/accounts/:accountID/orders/:orderSpecifier/clientExtensions',
      { schema: { params: OrderParams, body: ClientExtensionsBody, response: ok(OutcomeBody) } },
      (request, reply) =>
        answerV20(context, reply, () => setOrderClientExtensions(callOf(context, request), request.params.orderSpecifier, request.body)),
    );
  };

import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Account } from '../../account/account.js';
import { findOrder } from '../../account/specifiers.js';
import { orderView, pendingOrders } from '../../account/views.js';
import { parseDateTime } from '../../domain/time.js';
import type { OrderRequest } from '../../orders/request.js';
import { accountOf, baseUrlOf, lastTransactionID } from '../app.js';
import type { ApiContext } from '../context.js';
import { listPage } from '../paging.js';
import { ApiError, invalidValue } from '../errors.js';
import { replyWithOutcome } from '../outcome.js';
import { AccountParams, ClientExtensions, CountQuery, InstrumentName, OrderBody, Specifier, TransactionId } from '../schemas.js';

const OrderParams = Type.Object({ accountID: AccountParams.properties.accountID, orderSpecifier: Specifier });

/** Malformed parts the schema cannot see: an instrument we do not trade, a DateTime we cannot read. */
function checkOrderWire(context: ApiContext, order: OrderRequest): void {
  if (typeof order.instrument === 'string' && !context.engine.instruments.has(order.instrument)) throw invalidValue('order.instrument');
  const dated: [string, unknown][] = [
    ['order.gtdTime', order.gtdTime],
    ['order.takeProfitOnFill.gtdTime', (order.takeProfitOnFill as { gtdTime?: unknown } | undefined)?.gtdTime],
    ['order.stopLossOnFill.gtdTime', (order.stopLossOnFill as { gtdTime?: unknown } | undefined)?.gtdTime],
    ['order.trailingStopLossOnFill.gtdTime', (order.trailingStopLossOnFill as { gtdTime?: unknown } | undefined)?.gtdTime],
  ];
  for (const [field, value] of dated) {
    if (typeof value === 'string' && parseDateTime(value) === null) throw invalidValue(field);
  }
}

function noSuchOrder(account: Account): ApiError {
  return new ApiError(404, { errorCode: 'NO_SUCH_ORDER', errorMessage: 'The order ID specified does not exist', lastTransactionID: lastTransactionID(account) });
}

function orderLocation(context: ApiContext, request: FastifyRequest, account: Account, orderId: string | undefined): string | undefined {
  return orderId === undefined ? undefined : `${baseUrlOf(context, request)}/v3/accounts/${account.id}/orders/${orderId}`;
}

export const orderRoutes = (context: ApiContext): FastifyPluginAsyncTypebox => async (app) => {
  app.post('/accounts/:accountID/orders', { schema: { params: AccountParams, body: OrderBody } }, async (request, reply) => {
    const account = accountOf(request);
    const order = request.body.order as OrderRequest;
    checkOrderWire(context, order);
    const outcome = context.engine.execute(account.id, { type: 'CREATE_ORDER', order }, { requestID: request.v20RequestId as string, now: context.now() });
    const created = outcome.response['orderCreateTransaction'];
    return replyWithOutcome(reply, account, outcome, { successStatus: 201, notFoundIs404: false, ...locationOption(orderLocation(context, request, account, created?.id)) });
  });

  app.get('/accounts/:accountID/orders', {
    schema: {
      params: AccountParams,
      querystring: Type.Object({
        ids: Type.Optional(Type.String({ pattern: '^[1-9]\\d{0,15}(,[1-9]\\d{0,15})*$', maxLength: 10_000 })),
        state: Type.Optional(Type.Union([Type.Literal('PENDING'), Type.Literal('FILLED'), Type.Literal('TRIGGERED'), Type.Literal('CANCELLED'), Type.Literal('ALL')])),
        instrument: Type.Optional(InstrumentName),
        count: Type.Optional(CountQuery),
        beforeID: Type.Optional(TransactionId),
      }),
    },
  }, async (request, reply) => {
    const account = accountOf(request);
    const page = listPage(context, request, reply, account, 'orders', account.state.orders.values(), request.query, 'PENDING');
    return { orders: page.map((o) => orderView(account.state, o)), lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/pendingOrders', { schema: { params: AccountParams } }, async (request) => {
    const account = accountOf(request);
    const orders = pendingOrders(account.state).reverse();
    return { orders: orders.map((o) => orderView(account.state, o)), lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/orders/:orderSpecifier', { schema: { params: OrderParams } }, async (request) => {
    const account = accountOf(request);
    const order = findOrder(account.state, request.params.orderSpecifier);
    if (order === undefined) throw noSuchOrder(account);
    return { order: orderView(account.state, order), lastTransactionID: lastTransactionID(account) };
  });

  app.put('/accounts/:accountID/orders/:orderSpecifier', { schema: { params: OrderParams, body: OrderBody } }, async (request, reply) => {
    const account = accountOf(request);
    const order = request.body.order as OrderRequest;
    checkOrderWire(context, order);
    const outcome = context.engine.execute(account.id, { type: 'REPLACE_ORDER', orderSpecifier: request.params.orderSpecifier, order }, { requestID: request.v20RequestId as string, now: context.now() });
    const created = outcome.response['orderCreateTransaction'];
    return replyWithOutcome(reply, account, outcome, { successStatus: 201, notFoundIs404: true, ...locationOption(orderLocation(context, request, account, created?.id)) });
  });

  app.put('/accounts/:accountID/orders/:orderSpecifier/cancel', { schema: { params: OrderParams } }, async (request, reply) => {
    const account = accountOf(request);
    const outcome = context.engine.execute(account.id, { type: 'CANCEL_ORDER', orderSpecifier: request.params.orderSpecifier }, { requestID: request.v20RequestId as string, now: context.now() });
    const cancelled = outcome.response['orderCancelTransaction'];
    const orderId = cancelled?.type === 'ORDER_CANCEL' ? cancelled.orderID : undefined;
    return replyWithOutcome(reply, account, outcome, { successStatus: 200, notFoundIs404: true, ...locationOption(orderLocation(context, request, account, orderId)) });
  });

  app.put('/accounts/:accountID/orders/:orderSpecifier/clientExtensions', {
    schema: {
      params: OrderParams,
      body: Type.Object({ clientExtensions: Type.Optional(ClientExtensions), tradeClientExtensions: Type.Optional(ClientExtensions) }),
    },
  }, async (request, reply) => {
    const account = accountOf(request);
    const outcome = context.engine.execute(account.id, {
      type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: request.params.orderSpecifier,
      clientExtensions: request.body.clientExtensions, tradeClientExtensions: request.body.tradeClientExtensions,
    }, { requestID: request.v20RequestId as string, now: context.now() });
    return replyWithOutcome(reply, account, outcome, { successStatus: 200, notFoundIs404: true });
  });
};

function locationOption(location: string | undefined): { location?: string } {
  return location === undefined ? {} : { location };
}

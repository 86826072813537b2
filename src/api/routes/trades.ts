import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { closeTrade, getTrade, listOpenTrades, listTrades, setTradeClientExtensions, setTradeOrders } from '../../v3/trades.js';
import type { ApiContext } from '../context.js';
import { answerV20, callOf, sendV20 } from '../http-call.js';
import { OutcomeBody, TradeBody, TradesBody, ok } from '../responses.js';
import {
  AccountParams,
  ClientExtensions,
  CountQuery,
  Decimal,
  InstrumentFilter,
  Specifier,
  StopLossDetails,
  TakeProfitDetails,
  TrailingStopLossDetails,
  TransactionId,
} from '../schemas.js';

const TradeParams = Type.Object({ accountID: AccountParams.properties.accountID, tradeSpecifier: Specifier });

const TradesQuery = Type.Object({
  ids: Type.Optional(Type.String({ pattern: '^[1-9]\\d{0,15}(,[1-9]\\d{0,15})*$', maxLength: 10_000 })),
  state: Type.Optional(
    Type.Union([Type.Literal('OPEN'), Type.Literal('CLOSED'), Type.Literal('CLOSE_WHEN_TRADEABLE'), Type.Literal('ALL')]),
  ),
  instrument: Type.Optional(InstrumentFilter),
  count: Type.Optional(CountQuery),
  beforeID: Type.Optional(TransactionId),
});

/** "ALL" or a decimal; the sign and the size are trading rules the core checks (UNITS_INVALID ...). */
const CloseUnits = Type.Union([Type.Literal('ALL'), Decimal]);
/** The body is optional: clients send none to close the whole trade. */
const CloseTradeBody = Type.Union([Type.Object({ units: Type.Optional(CloseUnits) }), Type.Null()]);

/**
 * Each kind: details create or replace the dependent order, null cancels it, absent leaves it.
 * Guaranteed stop losses are disabled on every simulated account: only null (nothing to cancel)
 * is accepted, so a client asking for one hears so instead of being ignored.
 */
const SetTradeOrdersBody = Type.Object({
  takeProfit: Type.Optional(Type.Union([TakeProfitDetails, Type.Null()])),
  stopLoss: Type.Optional(Type.Union([StopLossDetails, Type.Null()])),
  trailingStopLoss: Type.Optional(Type.Union([TrailingStopLossDetails, Type.Null()])),
  guaranteedStopLoss: Type.Optional(Type.Null()),
});

/** Trades endpoints of the v3 API. */
export const tradeRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/accounts/:accountID/trades', { schema: { querystring: TradesQuery, response: ok(TradesBody) } }, (request, reply) =>
      sendV20(reply, listTrades(callOf(context, request), request.query)),
    );

    app.get('/accounts/:accountID/openTrades', { schema: { response: ok(TradesBody) } }, (request, reply) =>
      sendV20(reply, listOpenTrades(callOf(context, request))),
    );

    app.get('/accounts/:accountID/trades/:tradeSpecifier', { schema: { params: TradeParams, response: ok(TradeBody) } }, (request, reply) =>
      sendV20(reply, getTrade(callOf(context, request), request.params.tradeSpecifier)),
    );

    app.put(
      '/accounts/:accountID/trades/:tradeSpecifier/close',
      { schema: { params: TradeParams, body: CloseTradeBody, response: ok(OutcomeBody) } },
      (request, reply) =>
        answerV20(context, reply, () => closeTrade(callOf(context, request), request.params.tradeSpecifier, request.body)),
    );

    app.put(
      '/accounts/:accountID/trades/:tradeSpecifier/clientExtensions',
      {
        schema: {
          params: TradeParams,
          body: Type.Object({ clientExtensions: Type.Optional(ClientExtensions) }),
          response: ok(OutcomeBody),
        },
      },
      (request, reply) =>
        answerV20(context, reply, () => setTradeClientExtensions(callOf(context, request), request.params.tradeSpecifier, request.body)),
    );

    app.put(
      '/accounts/:accountID/trades/:tradeSpecifier/orders',
      { schema: { params: TradeParams, body: SetTradeOrdersBody, response: ok(OutcomeBody) } },
      (request, reply) =>
        answerV20(context, reply, () => setTradeOrders(callOf(context, request), request.params.tradeSpecifier, request.body)),
    );
  };

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Account } from '../../account/account.js';
import { findTrade } from '../../account/specifiers.js';
import type { TradeRecord } from '../../account/state.js';
import { tradeView } from '../../account/views.js';
import { parseDateTime } from '../../domain/time.js';
import { accountOf, lastTransactionID } from '../app.js';
import type { ApiContext } from '../context.js';
import { listPage } from '../paging.js';
import { ApiError, invalidValue } from '../errors.js';
import { replyWithOutcome } from '../outcome.js';
import {
  AccountParams, ClientExtensions, CountQuery, Decimal, InstrumentName, Specifier, StopLossDetails, TakeProfitDetails,
  TrailingStopLossDetails, TransactionId,
} from '../schemas.js';

const TradeParams = Type.Object({ accountID: AccountParams.properties.accountID, tradeSpecifier: Specifier });

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

const DEPENDENT_KEYS = ['takeProfit', 'stopLoss', 'trailingStopLoss'] as const;

function noSuchTrade(account: Account): ApiError {
  return new ApiError(404, { errorCode: 'NO_SUCH_TRADE', errorMessage: 'The Trade ID specified does not exist', lastTransactionID: lastTransactionID(account) });
}

/** A gtdTime the schema lets through as text but that is not a DateTime. */
function checkDependentWire(body: Record<string, unknown>): void {
  for (const key of DEPENDENT_KEYS) {
    const gtdTime = (body[key] as { gtdTime?: unknown } | null | undefined)?.gtdTime;
    if (typeof gtdTime === 'string' && parseDateTime(gtdTime) === null) throw invalidValue(`${key}.gtdTime`);
  }
}

/** Trades endpoints of the v3 API. */
export const tradeRoutes = (context: ApiContext): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/accounts/:accountID/trades', {
    schema: {
      params: AccountParams,
      querystring: Type.Object({
        ids: Type.Optional(Type.String({ pattern: '^[1-9]\\d{0,15}(,[1-9]\\d{0,15})*$', maxLength: 10_000 })),
        state: Type.Optional(Type.Union([Type.Literal('OPEN'), Type.Literal('CLOSED'), Type.Literal('CLOSE_WHEN_TRADEABLE'), Type.Literal('ALL')])),
        instrument: Type.Optional(InstrumentName),
        count: Type.Optional(CountQuery),
        beforeID: Type.Optional(TransactionId),
      }),
    },
  }, async (request, reply) => {
    const account = accountOf(request);
    // No trade of the simulator waits for a market to open: CLOSE_WHEN_TRADEABLE matches none.
    const page = listPage(context, request, reply, account, 'trades', account.state.trades.values(), request.query, 'OPEN');
    return { trades: page.map((t) => tradeView(account.state, t)), lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/openTrades', { schema: { params: AccountParams } }, async (request) => {
    const account = accountOf(request);
    const open: TradeRecord[] = [];
    for (const trade of account.state.trades.values()) if (trade.state === 'OPEN') open.push(trade);
    open.reverse();
    return { trades: open.map((t) => tradeView(account.state, t)), lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/trades/:tradeSpecifier', { schema: { params: TradeParams } }, async (request) => {
    const account = accountOf(request);
    const trade = findTrade(account.state, request.params.tradeSpecifier);
    if (trade === undefined) throw noSuchTrade(account);
    return { trade: tradeView(account.state, trade), lastTransactionID: lastTransactionID(account) };
  });

  app.put('/accounts/:accountID/trades/:tradeSpecifier/close', { schema: { params: TradeParams, body: CloseTradeBody } }, async (request, reply) => {
    const account = accountOf(request);
    const outcome = context.engine.execute(account.id, {
      type: 'CLOSE_TRADE', tradeSpecifier: request.params.tradeSpecifier, units: request.body?.units,
    }, { requestID: request.v20RequestId as string, now: context.now() });
    return replyWithOutcome(reply, account, outcome, { successStatus: 200, notFoundIs404: true });
  });

  app.put('/accounts/:accountID/trades/:tradeSpecifier/clientExtensions', {
    schema: { params: TradeParams, body: Type.Object({ clientExtensions: Type.Optional(ClientExtensions) }) },
  }, async (request, reply) => {
    const account = accountOf(request);
    const outcome = context.engine.execute(account.id, {
      type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: request.params.tradeSpecifier, clientExtensions: request.body.clientExtensions,
    }, { requestID: request.v20RequestId as string, now: context.now() });
    return replyWithOutcome(reply, account, outcome, { successStatus: 200, notFoundIs404: true });
  });

  app.put('/accounts/:accountID/trades/:tradeSpecifier/orders', { schema: { params: TradeParams, body: SetTradeOrdersBody } }, async (request, reply) => {
    const account = accountOf(request);
    const body = request.body;
    checkDependentWire(body);
    const outcome = context.engine.execute(account.id, {
      type: 'SET_TRADE_ORDERS', tradeSpecifier: request.params.tradeSpecifier,
      takeProfit: body.takeProfit, stopLoss: body.stopLoss, trailingStopLoss: body.trailingStopLoss,
    }, { requestID: request.v20RequestId as string, now: context.now() });
    return replyWithOutcome(reply, account, outcome, { successStatus: 200, notFoundIs404: true });
  });
};

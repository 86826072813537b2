import type { Outcome } from '../account/commands.js';
import { findTrade } from '../account/specifiers.js';
import { openTradeRecords } from '../account/live-records.js';
import { tradeView } from '../account/views.js';
import { accountOf, type V3Call } from './call.js';
import { closeTradeCommand, setTradeOrdersCommand, tradeClientExtensionsCommand, type TradeOrdersBody } from './commands.js';
import { openTradesNewestFirst } from './lists.js';
import { bySpecifier, pagedList, wholeList } from './paging.js';
import { answer, outcomeResponse, type V20Response } from './response.js';

/** Trades endpoints of the v3 API. */

function respond(call: V3Call, outcome: Outcome): V20Response {
  return answer(() => outcomeResponse(accountOf(call).state.lastTransactionID, outcome, { successStatus: 200, notFoundIs404: true }));
}

/** GET trades: default state OPEN. No trade waits for a market to open: CLOSE_WHEN_TRADEABLE matches none. */
export const listTrades = pagedList('trades', 'OPEN', (state) => state.trades.newestFirst(), openTradeRecords, tradeView);

export const listOpenTrades = wholeList('trades', openTradesNewestFirst, tradeView);

export const getTrade = bySpecifier('trade', findTrade, tradeView);

/** PUT trades/{tradeSpecifier}/close; no body closes the whole trade. */
export function closeTrade(call: V3Call, tradeSpecifier: string, body: { readonly units?: unknown } | null | undefined): V20Response {
  return respond(call, closeTradeCommand(call, tradeSpecifier, body?.units));
}

export function setTradeClientExtensions(call: V3Call, tradeSpecifier: string, body: { readonly clientExtensions?: unknown }): V20Response {
  return respond(call, tradeClientExtensionsCommand(call, tradeSpecifier, body.clientExtensions));
}

export function setTradeOrders(call: V3Call, tradeSpecifier: string, body: TradeOrdersBody): V20Response {
  return respond(call, setTradeOrdersCommand(call, tradeSpecifier, body));
}

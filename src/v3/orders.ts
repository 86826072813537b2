import type { Outcome } from '../account/commands.js';
import { findOrder } from '../account/specifiers.js';
import { pendingOrderRecords } from '../account/live-records.js';
import { orderView } from '../account/views.js';
import { accountOf, accountUrl, type V3Call } from './call.js';
import {
  cancelOrderCommand,
  createOrderCommand,
  orderClientExtensionsCommand,
  replaceOrderCommand,
  type OrderClientExtensionsRequest,
} from './commands.js';
import { pendingOrdersNewestFirst } from './lists.js';
import { bySpecifier, pagedList, wholeList } from './paging.js';
import { answer, outcomeResponse, type V20Response } from './response.js';

/** Orders endpoints of the v3 API. */

function orderLocation(call: V3Call, orderID: string | undefined): string | undefined {
  return orderID === undefined ? undefined : accountUrl(call, `/orders/${orderID}`);
}

function respond(call: V3Call, outcome: Outcome, successStatus: 200 | 201, notFoundIs404: boolean, location?: string): V20Response {
  return answer(() => outcomeResponse(accountOf(call).state.lastTransactionID, outcome, { successStatus, notFoundIs404, location }));
}

/** POST orders: 201 with the create (and fill or cancel) transactions, Location of the order. */
export function createOrder(call: V3Call, order: unknown): V20Response {
  const outcome = createOrderCommand(call, order);
  return respond(call, outcome, 201, false, orderLocation(call, outcome.response['orderCreateTransaction']?.id));
}

/** PUT orders/{orderSpecifier}: cancel and replace. */
export function replaceOrder(call: V3Call, orderSpecifier: string, order: unknown): V20Response {
  const outcome = replaceOrderCommand(call, orderSpecifier, order);
  return respond(call, outcome, 201, true, orderLocation(call, outcome.response['orderCreateTransaction']?.id));
}

export function cancelOrder(call: V3Call, orderSpecifier: string): V20Response {
  const outcome = cancelOrderCommand(call, orderSpecifier);
  const cancelled = outcome.response['orderCancelTransaction'];
  return respond(call, outcome, 200, true, orderLocation(call, cancelled?.type === 'ORDER_CANCEL' ? cancelled.orderID : undefined));
}

export function setOrderClientExtensions(call: V3Call, orderSpecifier: string, body: OrderClientExtensionsRequest): V20Response {
  return respond(call, orderClientExtensionsCommand(call, orderSpecifier, body), 200, true);
}

/** GET orders: default state PENDING. */
export const listOrders = pagedList('orders', 'PENDING', (state) => state.orders.newestFirst(), pendingOrderRecords, orderView);

export const listPendingOrders = wholeList('orders', pendingOrdersNewestFirst, orderView);

export const getOrder = bySpecifier('order', findOrder, orderView);

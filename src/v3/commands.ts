import type { AccountCommand, Outcome } from '../account/commands.js';
import type { OrderRequest } from '../orders/request.js';
import { execute, type V3Call } from './call.js';
import { invalidOutcome } from './response.js';
import { instrumentWireError, orderWireError, tradeOrdersWireError, withZonedDateTimes } from './wire.js';

/**
 * The v3 write operations as Outcomes, after the wire checks real v20 makes (a failed check is an
 * `invalid` outcome: 400, no transaction, the clock untouched). The HTTP operations map these to
 * responses; a strategy context hands them to the strategy as they are.
 */

export function createOrderCommand(call: V3Call, sent: unknown): Outcome {
  const order = withZonedDateTimes(sent);
  const error = orderWireError(call.engine.instruments, order);
  return error === undefined ? execute(call, { type: 'CREATE_ORDER', order: order as OrderRequest }) : invalidOutcome(error);
}

export function replaceOrderCommand(call: V3Call, orderSpecifier: string, sent: unknown): Outcome {
  const order = withZonedDateTimes(sent);
  const error = orderWireError(call.engine.instruments, order);
  return error === undefined
    ? execute(call, { type: 'REPLACE_ORDER', orderSpecifier, order: order as OrderRequest })
    : invalidOutcome(error);
}

export function cancelOrderCommand(call: V3Call, orderSpecifier: string): Outcome {
  return execute(call, { type: 'CANCEL_ORDER', orderSpecifier });
}

export interface OrderClientExtensionsRequest {
  readonly clientExtensions?: unknown;
  readonly tradeClientExtensions?: unknown;
}

export function orderClientExtensionsCommand(call: V3Call, orderSpecifier: string, body: OrderClientExtensionsRequest): Outcome {
  return execute(call, {
    type: 'MODIFY_ORDER_CLIENT_EXTENSIONS',
    orderSpecifier,
    clientExtensions: body.clientExtensions,
    tradeClientExtensions: body.tradeClientExtensions,
  });
}

export function closeTradeCommand(call: V3Call, tradeSpecifier: string, units: unknown): Outcome {
  return execute(call, { type: 'CLOSE_TRADE', tradeSpecifier, units });
}

export function tradeClientExtensionsCommand(call: V3Call, tradeSpecifier: string, clientExtensions: unknown): Outcome {
  return execute(call, { type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier, clientExtensions });
}

/** Details create or replace the dependent order, null cancels it, absent leaves it. */
export interface TradeOrdersBody {
  readonly takeProfit?: unknown;
  readonly stopLoss?: unknown;
  readonly trailingStopLoss?: unknown;
}

export function setTradeOrdersCommand(call: V3Call, tradeSpecifier: string, sent: TradeOrdersBody): Outcome {
  const body = withZonedDateTimes(sent);
  const error = tradeOrdersWireError(body as Readonly<Record<string, unknown>>);
  if (error !== undefined) return invalidOutcome(error);
  return execute(call, {
    type: 'SET_TRADE_ORDERS',
    tradeSpecifier,
    takeProfit: body.takeProfit,
    stopLoss: body.stopLoss,
    trailingStopLoss: body.trailingStopLoss,
  });
}

export interface ClosePositionBody {
  readonly longUnits?: unknown;
  readonly shortUnits?: unknown;
  readonly longClientExtensions?: unknown;
  readonly shortClientExtensions?: unknown;
}

export function closePositionCommand(call: V3Call, instrument: string, body: ClosePositionBody): Outcome {
  const error = instrumentWireError(call.engine.instruments, instrument);
  if (error !== undefined) return invalidOutcome(error);
  return execute(call, {
    type: 'CLOSE_POSITION',
    instrument,
    longUnits: body.longUnits,
    shortUnits: body.shortUnits,
    longClientExtensions: body.longClientExtensions,
    shortClientExtensions: body.shortClientExtensions,
  });
}

export function configureCommand(call: V3Call, body: { readonly alias?: unknown; readonly marginRate?: unknown }): Outcome {
  return execute(call, { type: 'CONFIGURE', alias: body.alias, marginRate: body.marginRate });
}

export function transferFundsCommand(call: V3Call, amount: string, comment: string | undefined): Outcome {
  const command: AccountCommand = { type: 'TRANSFER_FUNDS', amount };
  if (comment !== undefined) command.comment = comment;
  return execute(call, command);
}

import type { ClientExtensions } from '../domain/transactions.js';
import type { CheckedOrder } from '../orders/request.js';
import type { AccountState } from './state.js';

/**
 * Accounts tied to a third-party trading terminal (MT4): the client may not set, modify or delete
 * client extensions on them. Sources: v3-interface.md section 2.2 ("For accounts associated with a
 * third-party trading terminal, clients must not set, modify or delete clientExtensions"); in
 * oanda-v20-openapi.json the ClientExtensions definition ("Do not set, modify, or delete this field
 * if your account is associated with MT4"), the two PUT .../clientExtensions operations, and
 * AccountProperties.mt4AccountID, which marks such an account (AccountConfig.mt4AccountID here).
 *
 * The reason. TransactionRejectReason has no value for a terminal or MT4 account (none of its 143
 * values names MT4, a terminal or a forbidden field); the near ones name other faults:
 * CLIENT_EXTENSIONS_DATA_MISSING is for a modify that sends none, and
 * TRADE_ON_FILL_CLIENT_EXTENSIONS_NOT_SUPPORTED speaks of the trade's extensions only. What v20
 * does have is one reason per client extension field, per place it is sent, for a value it will
 * not take: CLIENT_ORDER_ID_INVALID ("The client Order ID specified is invalid"),
 * CLIENT_ORDER_TAG_INVALID, CLIENT_ORDER_COMMENT_INVALID, the CLIENT_TRADE_* three, and the
 * TAKE_PROFIT_ON_FILL_ / STOP_LOSS_ON_FILL_ / TRAILING_STOP_LOSS_ON_FILL_CLIENT_ORDER_* ones. On
 * these accounts no value is valid, so the refusal is the reason of the first field sent, in the
 * order v20 checks them (id, tag, comment; order, trade, then the on-fill orders, as
 * orders/request.ts). The whole member is refused, so an empty object is refused too, with the ID's
 * reason (as orders/client-extensions.ts refuses a member that is not an object).
 *
 * Only the refusal is decided here: the caller records the *_REJECT transaction, which v20 keeps in
 * the account's history, and changes nothing else.
 */

/** Whether the account is tied to a third-party terminal (it has an MT4 account ID). */
export function isTerminalAccount(state: AccountState): boolean {
  return state.mt4AccountID !== undefined;
}

/** `<prefix>_ID_INVALID`, `_TAG_INVALID` or `_COMMENT_INVALID`: the first field of the extensions sent. */
function fieldReason(extensions: ClientExtensions, prefix: string): string {
  if (extensions.id !== undefined) return `${prefix}_ID_INVALID`;
  if (extensions.tag !== undefined) return `${prefix}_TAG_INVALID`;
  if (extensions.comment !== undefined) return `${prefix}_COMMENT_INVALID`;
  return `${prefix}_ID_INVALID`;
}

/** The on-fill details of an entry order with the reason prefix of their client extensions. */
function onFillExtensions(order: CheckedOrder): readonly [ClientExtensions | null | undefined, string][] {
  return [
    [order.takeProfitOnFill?.clientExtensions, 'TAKE_PROFIT_ON_FILL_CLIENT_ORDER'],
    [order.stopLossOnFill?.clientExtensions, 'STOP_LOSS_ON_FILL_CLIENT_ORDER'],
    [order.trailingStopLossOnFill?.clientExtensions, 'TRAILING_STOP_LOSS_ON_FILL_CLIENT_ORDER'],
  ];
}

/**
 * Order create and replace (POST orders, PUT orders/{spec}, PUT trades/{spec}/orders): the reason
 * a terminal account refuses the checked request's client extensions, or null.
 */
export function terminalOrderRefusal(state: AccountState, order: CheckedOrder): string | null {
  if (!isTerminalAccount(state)) return null;
  if (order.clientExtensions !== undefined) return fieldReason(order.clientExtensions, 'CLIENT_ORDER');
  if (order.tradeClientExtensions !== undefined) return fieldReason(order.tradeClientExtensions, 'CLIENT_TRADE');
  if (order.takeProfitOnFill === undefined && order.stopLossOnFill === undefined && order.trailingStopLossOnFill === undefined) return null;
  for (const [extensions, prefix] of onFillExtensions(order)) {
    // An on-fill member of null is absent (orders/client-extensions.ts checkClientExtensions).
    if (extensions !== undefined && extensions !== null) return fieldReason(extensions, prefix);
  }
  return null;
}

/**
 * PUT orders/{spec}/clientExtensions and PUT trades/{spec}/clientExtensions on a terminal account:
 * the reason for the checked extensions sent (the order's, then the trade's), or null when neither
 * was sent (the caller's CLIENT_EXTENSIONS_DATA_MISSING).
 */
export function terminalModifyRefusal(
  extensions: ClientExtensions | undefined,
  extensionsPrefix: 'CLIENT_ORDER' | 'CLIENT_TRADE',
  tradeExtensions?: ClientExtensions,
): string | null {
  if (extensions !== undefined) return fieldReason(extensions, extensionsPrefix);
  if (tradeExtensions !== undefined) return fieldReason(tradeExtensions, 'CLIENT_TRADE');
  return null;
}

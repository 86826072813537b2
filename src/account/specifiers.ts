import type { AccountState, OrderRecord, TradeRecord } from './state.js';

const ID_RE = /^[1-9]\d{0,15}$/;

/** An OrderSpecifier is an order ID or `@` + client order ID (pending orders only for the latter). */
export function findOrder(state: AccountState, specifier: string): OrderRecord | undefined {
  if (typeof specifier !== 'string') return undefined;
  if (specifier.startsWith('@')) {
    const id = state.clientOrderIds.get(specifier.slice(1));
    return id === undefined ? undefined : state.orders.get(id);
  }
  return ID_RE.test(specifier) ? state.orders.get(Number(specifier)) : undefined;
}

/** A TradeSpecifier is a trade ID or `@` + client trade ID (open trades only for the latter). */
export function findTrade(state: AccountState, specifier: string): TradeRecord | undefined {
  if (typeof specifier !== 'string') return undefined;
  if (specifier.startsWith('@')) {
    const id = state.clientTradeIds.get(specifier.slice(1));
    return id === undefined ? undefined : state.trades.get(id);
  }
  return ID_RE.test(specifier) ? state.trades.get(Number(specifier)) : undefined;
}

import type { AccountState } from '../account/state.js';
import { tradeView } from '../account/views.js';
import { type Decimal, ZERO, formatAccountUnits } from '../domain/decimal.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';

/** One trade of the run, from the account's book and transaction log. */
export interface TradeRow {
  readonly id: string;
  readonly instrument: string;
  readonly direction: 'LONG' | 'SHORT';
  /** Initial units, unsigned. */
  readonly units: string;
  readonly openTime: Micros;
  readonly openPrice: string;
  readonly state: 'OPEN' | 'CLOSED';
  /** When the last units were closed; undefined while open. */
  readonly closeTime: Micros | undefined;
  /** v20's averageClosePrice; undefined until some units were closed. */
  readonly closePrice: string | undefined;
  /** v20's realizedPL (price P/L of the closed units, account currency, without financing). */
  readonly realizedPL: string;
  /** Unrealized P/L at the end of the run ("0.0000" once closed). */
  readonly unrealizedPL: string;
  readonly financing: string;
  /** Σ halfSpreadCost of the fills that opened and closed it. */
  readonly spreadCost: string;
  /** The fill reason that closed it last (TAKE_PROFIT_ORDER, STOP_LOSS_ORDER, MARKET_ORDER_TRADE_CLOSE, ...). */
  readonly closeReason: string;
}

function micros(text: string): Micros {
  const t = parseDateTime(text);
  if (t === null) throw new Error(`unreadable DateTime in the account book: ${text}`);
  return t;
}

/** Every trade of the account in ID order (the order they were opened). */
export function tradeRows(state: AccountState, log: readonly Transaction[]): TradeRow[] {
  const spread = new Map<string, Decimal>();
  const add = (id: string, cost: string): void => {
    spread.set(id, (spread.get(id) ?? ZERO).plus(cost));
  };
  for (const tx of log) {
    if (tx.type !== 'ORDER_FILL') continue;
    if (tx.tradeOpened !== undefined) add(tx.tradeOpened.tradeID, tx.tradeOpened.halfSpreadCost);
    if (tx.tradeReduced !== undefined) add(tx.tradeReduced.tradeID, tx.tradeReduced.halfSpreadCost);
    for (const closed of tx.tradesClosed ?? []) add(closed.tradeID, closed.halfSpreadCost);
  }
  const rows: TradeRow[] = [];
  for (const trade of state.trades.values()) {
    const view = tradeView(state, trade);
    const id = String(trade.id);
    const lastClosing = trade.closingTransactionIDs.at(-1);
    const closingTx = lastClosing === undefined ? undefined : log[Number(lastClosing) - 1];
    rows.push({
      id,
      instrument: trade.instrument,
      direction: trade.initialUnits.isNegative() ? 'SHORT' : 'LONG',
      units: trade.initialUnits.abs().toFixed(),
      openTime: micros(trade.openTime),
      openPrice: trade.price,
      state: trade.state,
      closeTime: trade.state === 'CLOSED' && trade.closeTime !== undefined ? micros(trade.closeTime) : undefined,
      closePrice: view['averageClosePrice'] as string | undefined,
      realizedPL: formatAccountUnits(trade.realizedPL),
      unrealizedPL: (view['unrealizedPL'] as string | undefined) ?? '0.0000',
      financing: formatAccountUnits(trade.financing),
      spreadCost: formatAccountUnits(spread.get(id) ?? ZERO),
      closeReason: trade.state === 'CLOSED' && closingTx?.type === 'ORDER_FILL' ? closingTx.reason : '',
    });
  }
  return rows;
}

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

/**
 * What trade rows need from the transactions, gathered one transaction at a time: each trade's
 * Σ halfSpreadCost, and the ID and reason of the last fill that closed or reduced it (a trade's
 * close reason is its last closing transaction's, when that is a fill). A run that streams its
 * journal keeps these per trade instead of the log.
 */
export class TradeCosts {
  private readonly spread = new Map<string, Decimal>();
  private readonly lastFill = new Map<string, { readonly id: string; readonly reason: string }>();

  add(tx: Transaction): void {
    if (tx.type !== 'ORDER_FILL') return;
    const fill = { id: tx.id, reason: tx.reason };
    if (tx.tradeOpened !== undefined) this.addSpread(tx.tradeOpened.tradeID, tx.tradeOpened.halfSpreadCost);
    if (tx.tradeReduced !== undefined) {
      this.addSpread(tx.tradeReduced.tradeID, tx.tradeReduced.halfSpreadCost);
      this.lastFill.set(tx.tradeReduced.tradeID, fill);
    }
    for (const closed of tx.tradesClosed ?? []) {
      this.addSpread(closed.tradeID, closed.halfSpreadCost);
      this.lastFill.set(closed.tradeID, fill);
    }
  }

  private addSpread(id: string, cost: string): void {
    this.spread.set(id, (this.spread.get(id) ?? ZERO).plus(cost));
  }

  spreadCost(id: string): Decimal {
    return this.spread.get(id) ?? ZERO;
  }

  /** The reason of the fill with ID `closingId` if it closed or reduced the trade last, else ''. */
  closeReason(id: string, closingId: string | undefined): string {
    const fill = this.lastFill.get(id);
    return fill !== undefined && fill.id === closingId ? fill.reason : '';
  }
}

/** Every trade of the account in ID order (the order they were opened). */
export function tradeRows(state: AccountState, log: Iterable<Transaction> | TradeCosts): TradeRow[] {
  let costs: TradeCosts;
  if (log instanceof TradeCosts) costs = log;
  else {
    costs = new TradeCosts();
    for (const tx of log) costs.add(tx);
  }
  const rows: TradeRow[] = [];
  for (const trade of state.trades.values()) {
    const view = tradeView(state, trade);
    const id = String(trade.id);
    const lastClosing = trade.closingTransactionIDs.at(-1);
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
      spreadCost: formatAccountUnits(costs.spreadCost(id)),
      closeReason: trade.state === 'CLOSED' ? costs.closeReason(id, lastClosing === undefined ? undefined : String(lastClosing)) : '',
    });
  }
  return rows;
}

import { type Decimal, ZERO } from '../domain/decimal.js';
import type { Transaction } from '../domain/transactions.js';
import { CostCounter, type CostCounts } from './report-costs.js';
import { TradeCosts } from './trades.js';

/** The report's figures of the transactions, summed one transaction at a time. */
export interface TransactionCounts {
  readonly transactions: number;
  readonly fills: number;
  readonly rejects: number;
  /**
   * Reject transactions by rejectReason, and order cancels by reason besides the routine ones
   * (a client's cancel, a replace, a closed trade's dependents, expiry), most frequent first: what
   * a run whose orders never filled has to say about why.
   */
  readonly refusals: ReadonlyArray<readonly [string, number]>;
  /** Σ halfSpreadCost of the fills. */
  readonly spreadCost: Decimal;
  readonly costs: CostCounts;
}

/** Order cancels that say nothing went wrong. */
const ROUTINE_CANCELS: ReadonlySet<string> = new Set([
  'CLIENT_REQUEST',
  'CLIENT_REQUEST_REPLACED',
  'LINKED_TRADE_CLOSED',
  'TIME_IN_FORCE_EXPIRED',
]);

/**
 * Everything the metrics and the trade rows read from a run's transactions, gathered as they are
 * journaled, so a run that streams its journal to disk need not keep the log (or read it back).
 */
export class TransactionStats {
  private transactions = 0;
  private fills = 0;
  private rejects = 0;
  private readonly refusals = new Map<string, number>();
  private spreadCost: Decimal = ZERO;
  private readonly costs = new CostCounter();
  readonly trades = new TradeCosts();

  add(tx: Transaction): void {
    this.transactions += 1;
    if (tx.type === 'ORDER_FILL') {
      this.fills += 1;
      this.spreadCost = this.spreadCost.plus(tx.halfSpreadCost);
    } else if (tx.type.endsWith('_REJECT')) {
      this.rejects += 1;
      this.refuse((tx as { rejectReason?: string }).rejectReason);
    } else if (tx.type === 'ORDER_CANCEL' && !ROUTINE_CANCELS.has(tx.reason)) this.refuse(tx.reason);
    this.costs.add(tx);
    this.trades.add(tx);
  }

  private refuse(reason: string | undefined): void {
    const key = reason ?? 'UNKNOWN';
    this.refusals.set(key, (this.refusals.get(key) ?? 0) + 1);
  }

  counts(): TransactionCounts {
    const { transactions, fills, rejects, spreadCost } = this;
    // Most frequent first, then by name: the same order in every run.
    const refusals = [...this.refusals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { transactions, fills, rejects, refusals, spreadCost, costs: this.costs.counts() };
  }
}

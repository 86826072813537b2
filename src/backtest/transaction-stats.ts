import { type Decimal, ZERO } from '../domain/decimal.js';
import type { Transaction } from '../domain/transactions.js';
import { CostCounter, type CostCounts } from './report-costs.js';
import { TradeCosts } from './trades.js';

/** The report's figures of the transactions, summed one transaction at a time. */
export interface TransactionCounts {
  readonly transactions: number;
  readonly fills: number;
  readonly rejects: number;
  /** Σ halfSpreadCost of the fills. */
  readonly spreadCost: Decimal;
  readonly costs: CostCounts;
}

/**
 * Everything the metrics and the trade rows read from a run's transactions, gathered as they are
 * journaled, so a run that streams its journal to disk need not keep the log (or read it back).
 */
export class TransactionStats {
  private transactions = 0;
  private fills = 0;
  private rejects = 0;
  private spreadCost: Decimal = ZERO;
  private readonly costs = new CostCounter();
  readonly trades = new TradeCosts();

  add(tx: Transaction): void {
    this.transactions += 1;
    if (tx.type === 'ORDER_FILL') {
      this.fills += 1;
      this.spreadCost = this.spreadCost.plus(tx.halfSpreadCost);
    } else if (tx.type.endsWith('_REJECT')) this.rejects += 1;
    this.costs.add(tx);
    this.trades.add(tx);
  }

  counts(): TransactionCounts {
    const { transactions, fills, rejects, spreadCost } = this;
    return { transactions, fills, rejects, spreadCost, costs: this.costs.counts() };
  }
}

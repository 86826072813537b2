import { Decimal } from '../domain/decimal.js';
import type { DailyFinancingTransaction, Transaction } from '../domain/transactions.js';

/**
 * What the home-currency conversion fee cost and how often the margin rules acted, read from the
 * journal. Conversion costs are already inside realized P/L and financing (v20 books net amounts):
 * the report shows them, it does not subtract them again.
 */
export interface CostCounts {
  /** Σ homeConversionCost of the ORDER_FILLs (each fill's is the sum over its closed/reduced trades). */
  readonly conversionCostPL: Decimal;
  /** Σ over DAILY_FINANCING positions of |quoteFinancing| x mid x f (what the fee took). */
  readonly conversionCostFinancing: Decimal;
  /** MARKET_ORDERs with reason MARGIN_CLOSEOUT (one per position side closed out). */
  readonly marginCloseouts: number;
  /** MARGIN_CALL_ENTER transactions. */
  readonly marginCalls: number;
}

const ZERO = new Decimal(0);
const TWO = new Decimal(2);

/**
 * The fee one DAILY_FINANCING took. Gains convert at mid x (1 - f), losses at mid x (1 + f)
 * (account/home-currency.ts; facts sheet §14), so whichever factor a position's quoteFinancing
 * took, the fee is |quoteFinancing| x mid x f = |quoteFinancing| x (loss - gain) / 2. This equals
 * quoteFinancing x mid - financing without the rounding of financing to the account's 4 decimals
 * (which is not a conversion cost, and would show on pairs quoted in the account currency).
 */
function financingConversionCost(tx: DailyFinancingTransaction): Decimal {
  let cost = ZERO;
  for (const p of tx.positionFinancings) {
    const factors = p.homeConversionFactors;
    const halfSpread = new Decimal(factors.lossQuoteHome.factor).minus(factors.gainQuoteHome.factor).dividedBy(TWO);
    cost = cost.plus(new Decimal(p.quoteFinancing).abs().times(halfSpread));
  }
  return cost;
}

/** costCounts over transactions fed one at a time (a run that streams its journal keeps only the sums). */
export class CostCounter {
  private pl = ZERO;
  private financing = ZERO;
  private marginCloseouts = 0;
  private marginCalls = 0;

  add(tx: Transaction): void {
    if (tx.type === 'ORDER_FILL') this.pl = this.pl.plus(tx.homeConversionCost);
    else if (tx.type === 'DAILY_FINANCING') this.financing = this.financing.plus(financingConversionCost(tx));
    else if (tx.type === 'MARGIN_CALL_ENTER') this.marginCalls += 1;
    else if (tx.type === 'MARKET_ORDER' && tx.reason === 'MARGIN_CLOSEOUT') this.marginCloseouts += 1;
  }

  counts(): CostCounts {
    return {
      conversionCostPL: this.pl,
      conversionCostFinancing: this.financing,
      marginCloseouts: this.marginCloseouts,
      marginCalls: this.marginCalls,
    };
  }
}

export function costCounts(transactions: Iterable<Transaction>): CostCounts {
  const counter = new CostCounter();
  for (const tx of transactions) counter.add(tx);
  return counter.counts();
}

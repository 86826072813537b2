import { Decimal, ZERO, formatAccountUnits } from '../domain/decimal.js';
import { newYorkOffsetHours, type Micros } from '../domain/time.js';
import type { DailyFinancingTransaction } from '../domain/transactions.js';
import type { Batch } from './batch.js';
import type { TradeRecord } from './state.js';
import { midDecimal, quoteHomeFactor } from './valuation.js';

const DAYS: readonly string[] = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
const DAYS_PER_YEAR = new Decimal(365);

/** The New York weekday whose trading day ends at this 17:00 rollover. */
export function rolloverWeekday(t: Micros): string {
  const local = Math.floor(t / 1000) + newYorkOffsetHours(t) * 3_600_000;
  return DAYS[new Date(local).getUTCDay()] as string;
}

/**
 * DAILY_FINANCING at a 17:00 New York rollover: every open trade pays or earns its side's annual
 * rate on its value at mid, for the days the instrument charges that weekday (Wednesday counts
 * three, for the weekend), converted to the account currency. Nothing is written when no open
 * trade is charged.
 */
export function decideDailyFinancing(b: Batch, at: Micros): DailyFinancingTransaction | undefined {
  const state = b.state;
  const weekday = rolloverWeekday(at);
  const byInstrument = new Map<string, { total: Decimal; trades: { tradeID: string; financing: string; financingRate: string }[] }>();
  let total = ZERO;
  for (const trade of state.trades.values()) {
    if (trade.state !== 'OPEN') continue;
    const charge = tradeCharge(b, trade, weekday);
    if (charge === undefined) continue;
    let entry = byInstrument.get(trade.instrument);
    if (entry === undefined) {
      entry = { total: ZERO, trades: [] };
      byInstrument.set(trade.instrument, entry);
    }
    entry.total = entry.total.plus(charge.amount);
    entry.trades.push({ tradeID: String(trade.id), financing: formatAccountUnits(charge.amount), financingRate: charge.rate });
    total = total.plus(charge.amount);
  }
  if (byInstrument.size === 0) return undefined;
  const positionFinancings = [...byInstrument].map(([instrument, e]) => ({
    instrument,
    financing: formatAccountUnits(e.total),
    openTradeFinancings: e.trades,
  }));
  return b.emit<DailyFinancingTransaction>({
    type: 'DAILY_FINANCING',
    financing: formatAccountUnits(total),
    accountBalance: formatAccountUnits(state.balance.plus(total)),
    accountFinancingMode: 'DAILY',
    positionFinancings,
  } as never);
}

function tradeCharge(b: Batch, trade: TradeRecord, weekday: string): { amount: Decimal; rate: string } | undefined {
  const state = b.state;
  const spec = state.instruments.get(trade.instrument);
  const slot = state.prices.get(trade.instrument);
  if (spec === undefined || slot === undefined || !slot.known) return undefined;
  const days = spec.financing.financingDaysOfWeek.find((d) => d.dayOfWeek === weekday)?.daysCharged ?? 0;
  if (days === 0) return undefined;
  const factor = quoteHomeFactor(state, trade.instrument);
  if (factor === null) return undefined;
  const rate = trade.currentUnits.isPositive() ? spec.financing.longRate : spec.financing.shortRate;
  const value = trade.currentUnits.abs().times(midDecimal(slot, spec.displayPrecision)).times(factor);
  // Each trade's amount is rounded to the account's precision, and the totals add those amounts.
  const amount = new Decimal(formatAccountUnits(value.times(rate).times(days).dividedBy(DAYS_PER_YEAR)));
  return amount.isZero() ? undefined : { amount, rate };
}

import { Decimal, ZERO, formatAccountUnits, formatFixed } from '../domain/decimal.js';
import { quoteCurrency } from '../domain/instruments.js';
import { newYorkOffsetHours, type Micros } from '../domain/time.js';
import type { DailyFinancingTransaction, HomeConversionFactors, OpenTradeFinancing, PositionFinancing } from '../domain/transactions.js';
import type { Batch } from './batch.js';
import { homeConversionFactors, homeRate, toHome } from './home-currency.js';
import { balanceOf, type TradeRecord } from './state.js';
import { midDecimal } from './valuation.js';
import { openTradeRecords } from './live-records.js';

const DAYS: readonly string[] = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
const DAYS_PER_YEAR = new Decimal(365);

/** The New York weekday whose trading day ends at this 17:00 rollover. */
export function rolloverWeekday(t: Micros): string {
  const local = Math.floor(t / 1000) + newYorkOffsetHours(t) * 3_600_000;
  return DAYS[new Date(local).getUTCDay()] as string;
}

/** Base and quote financing print at 14 decimals, as ORDER_FILL's baseFinancing does (facts sheet §1, §11). */
const FINANCING_DECIMALS = 14;

interface PositionCharges {
  home: Decimal;
  base: Decimal;
  quote: Decimal;
  trades: OpenTradeFinancing[];
}

/**
 * DAILY_FINANCING at a 17:00 New York rollover: every open trade pays or earns its side's annual
 * rate on its value at mid, for the days the instrument charges that weekday (Wednesday counts
 * three, for the weekend). The charge is made in the quote currency (quoteFinancing; in base
 * currency units, baseFinancing) and converted to the account currency with the conversion fee
 * (account/home-currency.ts: a charge paid at the loss rate, one earned at the gain rate). Each
 * position carries its homeConversionFactors (OANDA's PositionFinancing, facts sheet §5.2).
 * Nothing is written when no open trade is charged.
 */
export function decideDailyFinancing(b: Batch, at: Micros): DailyFinancingTransaction | undefined {
  const state = b.state;
  const weekday = rolloverWeekday(at);
  const byInstrument = new Map<string, PositionCharges>();
  let total = ZERO;
  for (const trade of openTradeRecords(state)) {
    const charge = tradeCharge(b, trade, weekday);
    if (charge === undefined) continue;
    let entry = byInstrument.get(trade.instrument);
    if (entry === undefined) {
      entry = { home: ZERO, base: ZERO, quote: ZERO, trades: [] };
      byInstrument.set(trade.instrument, entry);
    }
    entry.home = entry.home.plus(charge.home);
    entry.base = entry.base.plus(charge.base);
    entry.quote = entry.quote.plus(charge.quote);
    entry.trades.push({
      tradeID: String(trade.id),
      financing: formatAccountUnits(charge.home),
      baseFinancing: formatFixed(charge.base, FINANCING_DECIMALS),
      quoteFinancing: formatFixed(charge.quote, FINANCING_DECIMALS),
      financingRate: charge.rate,
    });
    total = total.plus(charge.home);
  }
  if (byInstrument.size === 0) return undefined;
  const positionFinancings: PositionFinancing[] = [];
  for (const [instrument, e] of byInstrument) {
    positionFinancings.push({
      instrument,
      financing: formatAccountUnits(e.home),
      baseFinancing: formatFixed(e.base, FINANCING_DECIMALS),
      quoteFinancing: formatFixed(e.quote, FINANCING_DECIMALS),
      homeConversionFactors: homeConversionFactors(state, instrument) as HomeConversionFactors,
      openTradeFinancings: e.trades,
      accountFinancingMode: 'DAILY',
    });
  }
  return b.emit<DailyFinancingTransaction>({
    type: 'DAILY_FINANCING',
    financing: formatAccountUnits(total),
    accountBalance: formatAccountUnits(balanceOf(state).plus(total)),
    accountFinancingMode: 'DAILY',
    positionFinancings,
  } as never);
}

interface TradeCharge {
  /** In the account currency, rounded to its precision. */
  home: Decimal;
  base: Decimal;
  quote: Decimal;
  rate: string;
}

function tradeCharge(b: Batch, trade: TradeRecord, weekday: string): TradeCharge | undefined {
  const state = b.state;
  const spec = state.instruments.get(trade.instrument);
  const slot = state.prices.get(trade.instrument);
  if (spec === undefined || slot === undefined || !slot.known) return undefined;
  const days = spec.financing.financingDaysOfWeek.find((d) => d.dayOfWeek === weekday)?.daysCharged ?? 0;
  if (days === 0) return undefined;
  const conversion = homeRate(state, quoteCurrency(trade.instrument));
  if (conversion === null) return undefined;
  const rate = trade.currentUnits.isPositive() ? spec.financing.longRate : spec.financing.shortRate;
  const base = trade.currentUnits.abs().times(rate).times(days).dividedBy(DAYS_PER_YEAR);
  const quote = base.times(midDecimal(slot, spec.displayPrecision));
  // Each trade's amount is rounded to the account's precision, and the totals add those amounts.
  const home = new Decimal(formatAccountUnits(toHome(quote, conversion)));
  return home.isZero() ? undefined : { home, base, quote, rate };
}

/**
 * Performance statistics of a backtest, as pure functions of the equity curve and the trades.
 * Definitions (also in the README):
 *
 * - Drawdown at a point: running peak of equity minus equity; as a fraction, divided by the peak.
 *   The maximum drawdown is the point with the largest fraction. Its duration runs from the time of
 *   the peak to the first later point whose equity is back at or above the peak (recovery), or to
 *   the last point when equity never recovered. The longest drawdown is the longest such span of
 *   any episode.
 * - Daily returns: trading days end at 17:00 America/New_York (the FX day and v20's financing
 *   rollover); a point at exactly 17:00 closes its day. A day's equity is its last point; the
 *   return is that over the previous day's (the first day's over the starting equity). Days
 *   without points (weekends) are left out.
 * - Sharpe = mean / sample standard deviation of the daily returns × √252 (no risk-free rate).
 *   Sortino = mean / downside deviation × √252, downside deviation = √(Σ min(r, 0)² / n) over all
 *   n days. Null with fewer than two days or when the deviation is zero.
 * - Trades: closed trades, by v20's realizedPL (financing is reported apart). Win rate = winners /
 *   closed trades; profit factor = gross profit / |gross loss| (null without losing trades);
 *   average win / loss = gross profit / winners, gross loss / losers.
 * - Exposure: the share of the run's time (first to last tick) with at least one trade open.
 * - Conversion cost (report-costs.ts): what the home-currency conversion fee took, already inside
 *   realized P/L and financing. P/L part: Σ homeConversionCost of the fills; financing part: Σ over
 *   DAILY_FINANCING positions of |quoteFinancing| x (loss - gain quote factor) / 2 = |quoteFinancing|
 *   x mid x f (gain = mid x (1 - f), loss = mid x (1 + f)), which is quoteFinancing x mid - financing
 *   without the rounding of financing to 4 decimals. Margin calls: MARGIN_CALL_ENTER
 *   transactions; margin closeouts: MARKET_ORDERs with reason MARGIN_CLOSEOUT (one per position side).
 */
import { nextNewYorkFivePm, type Micros } from '../domain/time.js';
import { utcMonth } from './format.js';

export const TRADING_DAYS_PER_YEAR = 252;

export interface DrawdownStats {
  /** Largest drawdown as a fraction of its peak (0.1 = 10 %). */
  readonly maxDrawdown: number;
  /** The same drawdown in the account currency. */
  readonly maxDrawdownAmount: number;
  readonly peakTime: Micros | null;
  readonly troughTime: Micros | null;
  /** First time equity was back at the peak, or null if it never was. */
  readonly recoveryTime: Micros | null;
  /** Peak to recovery (or to the last point), microseconds. */
  readonly durationMicros: number;
  /** The longest time under water of any drawdown, microseconds. */
  readonly longestMicros: number;
}

/**
 * The drawdown statistics of an equity curve fed one point at a time (points in time order), so a
 * run that streams its curve to disk keeps only these few numbers. The recovery of the largest
 * drawdown is the first later point back at its peak: looked for from its trough on, and looked
 * for again whenever a larger drawdown replaces it.
 */
export class DrawdownTracker {
  private peak = Number.NEGATIVE_INFINITY;
  private peakTime: Micros = 0;
  private fraction = 0;
  private amount = 0;
  private bestPeakTime: Micros | null = null;
  private troughTime: Micros | null = null;
  private peakValue = 0;
  private recoveryTime: Micros | null = null;
  private longest = 0;
  /** Peak time of the current episode under water. */
  private underSince: Micros | null = null;
  private last: Micros = 0;
  private points = 0;

  add(t: Micros, e: number): void {
    this.points += 1;
    this.last = t;
    if (this.recoveryTime === null && this.troughTime !== null && t > this.troughTime && e >= this.peakValue) this.recoveryTime = t;
    if (e >= this.peak) {
      if (this.underSince !== null) this.longest = Math.max(this.longest, t - this.underSince);
      this.underSince = null;
      this.peak = e;
      this.peakTime = t;
      return;
    }
    if (this.underSince === null) this.underSince = this.peakTime;
    const amount = this.peak - e;
    const fraction = this.peak > 0 ? amount / this.peak : 0;
    if (fraction > this.fraction) {
      this.fraction = fraction;
      this.amount = amount;
      this.bestPeakTime = this.peakTime;
      this.troughTime = t;
      this.peakValue = this.peak;
      this.recoveryTime = null;
    }
  }

  stats(): DrawdownStats {
    const last = this.points > 0 ? this.last : 0;
    const longest = this.underSince === null ? this.longest : Math.max(this.longest, last - this.underSince);
    return {
      maxDrawdown: this.fraction,
      maxDrawdownAmount: this.amount,
      peakTime: this.bestPeakTime,
      troughTime: this.troughTime,
      recoveryTime: this.recoveryTime,
      durationMicros: this.bestPeakTime === null ? 0 : (this.recoveryTime ?? last) - this.bestPeakTime,
      longestMicros: longest,
    };
  }
}

export function drawdownStats(time: readonly Micros[], equity: readonly number[]): DrawdownStats {
  const tracker = new DrawdownTracker();
  const n = Math.min(time.length, equity.length);
  for (let i = 0; i < n; i += 1) tracker.add(time[i] as Micros, equity[i] as number);
  return tracker.stats();
}

/** Drawdown as a fraction of the running peak at every point (0 at a new high). */
export function drawdownSeries(equity: readonly number[]): number[] {
  const out: number[] = [];
  let peak = Number.NEGATIVE_INFINITY;
  for (const e of equity) {
    if (e > peak) peak = e;
    out.push(peak > 0 ? (e - peak) / peak : 0);
  }
  return out;
}

export interface DailyReturn {
  /** The 17:00 New York that ends the trading day. */
  readonly dayEnd: Micros;
  readonly equity: number;
  readonly return: number;
}

/** The trading day a point belongs to: the first 17:00 New York at or after it. */
export function tradingDayEnd(t: Micros): Micros {
  return nextNewYorkFivePm(t - 1);
}

/**
 * Closes of consecutive periods (trading days, months) of an equity curve fed one point at a time:
 * a period is the points up to the end of the first point's period; its close is its last point,
 * its return that over the previous close (the first period's over the starting equity).
 */
class PeriodCloser<P> {
  private end: Micros = 0;
  private close = 0;
  private open = false;
  private previous: number;
  private readonly closed: P[] = [];

  constructor(
    startEquity: number,
    /** The end of the period holding `t`, and whether a later point at `u` still belongs to it. */
    private readonly periodEnd: (t: Micros) => Micros,
    private readonly inside: (u: Micros, end: Micros) => boolean,
    private readonly make: (end: Micros, close: number, ret: number) => P,
  ) {
    this.previous = startEquity;
  }

  add(t: Micros, e: number): void {
    if (this.open && this.inside(t, this.end)) {
      this.close = e;
      return;
    }
    if (this.open) this.finish();
    this.end = this.periodEnd(t);
    this.close = e;
    this.open = true;
  }

  private finish(): void {
    const close = this.close;
    this.closed.push(this.make(this.end, close, this.previous !== 0 ? close / this.previous - 1 : 0));
    this.previous = close;
    this.open = false;
  }

  /** Every period's result, the last one closed at the last point. Call once, after the last point. */
  results(): P[] {
    if (this.open) this.finish();
    return this.closed;
  }
}

/** Daily returns of a curve fed one point at a time (see dailyReturns): one entry per trading day. */
export function dailyReturnCloser(startEquity: number): PeriodCloser<DailyReturn> {
  return new PeriodCloser(
    startEquity,
    tradingDayEnd,
    (u, end) => u <= end,
    (dayEnd, equity, ret) => ({ dayEnd, equity, return: ret }),
  );
}

/** Monthly returns of a curve fed one point at a time (see monthlyReturns): one entry per UTC month. */
export function monthlyReturnCloser(startEquity: number): PeriodCloser<MonthlyReturn & { readonly end: Micros }> {
  return new PeriodCloser(
    startEquity,
    (t) => utcMonth(t).end,
    (u, end) => u < end,
    (end, _close, ret) => ({ month: utcMonth(end - 1).month, end, return: ret }),
  );
}

export type { PeriodCloser };

export function dailyReturns(time: readonly Micros[], equity: readonly number[], startEquity: number): DailyReturn[] {
  const closer = dailyReturnCloser(startEquity);
  const n = Math.min(time.length, equity.length);
  for (let i = 0; i < n; i += 1) closer.add(time[i] as Micros, equity[i] as number);
  return closer.results();
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export function sharpeRatio(returns: readonly number[], periodsPerYear = TRADING_DAYS_PER_YEAR): number | null {
  if (returns.length < 2) return null;
  const m = mean(returns);
  let squares = 0;
  for (const r of returns) squares += (r - m) * (r - m);
  const sd = Math.sqrt(squares / (returns.length - 1));
  return sd > 0 ? (m / sd) * Math.sqrt(periodsPerYear) : null;
}

export function sortinoRatio(returns: readonly number[], periodsPerYear = TRADING_DAYS_PER_YEAR): number | null {
  if (returns.length < 2) return null;
  const m = mean(returns);
  let squares = 0;
  for (const r of returns) if (r < 0) squares += r * r;
  const dd = Math.sqrt(squares / returns.length);
  return dd > 0 ? (m / dd) * Math.sqrt(periodsPerYear) : null;
}

export interface TradeStats {
  readonly closedTrades: number;
  readonly winners: number;
  readonly losers: number;
  /** winners / closed trades; null without closed trades. */
  readonly winRate: number | null;
  readonly grossProfit: number;
  /** Σ of the losing trades' P/L (zero or negative). */
  readonly grossLoss: number;
  readonly profitFactor: number | null;
  readonly averageWin: number | null;
  readonly averageLoss: number | null;
  readonly largestWin: number | null;
  readonly largestLoss: number | null;
  /** Mean P/L per closed trade. */
  readonly expectancy: number | null;
}

/** Statistics of closed trades' P/L values (account currency). */
export function tradeStats(pls: readonly number[]): TradeStats {
  let winners = 0,
    losers = 0,
    grossProfit = 0,
    grossLoss = 0;
  let largestWin: number | null = null,
    largestLoss: number | null = null;
  for (const pl of pls) {
    if (pl > 0) {
      winners += 1;
      grossProfit += pl;
      largestWin = largestWin === null ? pl : Math.max(largestWin, pl);
    } else if (pl < 0) {
      losers += 1;
      grossLoss += pl;
      largestLoss = largestLoss === null ? pl : Math.min(largestLoss, pl);
    }
  }
  const n = pls.length;
  return {
    closedTrades: n,
    winners,
    losers,
    winRate: n > 0 ? winners / n : null,
    grossProfit,
    grossLoss,
    profitFactor: grossLoss < 0 ? grossProfit / -grossLoss : null,
    averageWin: winners > 0 ? grossProfit / winners : null,
    averageLoss: losers > 0 ? grossLoss / losers : null,
    largestWin,
    largestLoss,
    expectancy: n > 0 ? (grossProfit + grossLoss) / n : null,
  };
}

/** Share of [start, end] covered by the union of the intervals (open trades). */
export function exposure(intervals: ReadonlyArray<readonly [Micros, Micros]>, start: Micros, end: Micros): number {
  if (end <= start) return 0;
  const sorted = [...intervals].map(([a, b], i) => [Math.max(a, start), Math.min(b, end), i] as const).filter(([a, b]) => b > a);
  sorted.sort((x, y) => x[0] - y[0] || x[2] - y[2]);
  let covered = 0;
  let curStart = Number.NaN,
    curEnd = Number.NaN;
  for (const [a, b] of sorted) {
    if (Number.isNaN(curStart) || a > curEnd) {
      if (!Number.isNaN(curStart)) covered += curEnd - curStart;
      curStart = a;
      curEnd = b;
    } else if (b > curEnd) curEnd = b;
  }
  if (!Number.isNaN(curStart)) covered += curEnd - curStart;
  return covered / (end - start);
}

export interface MonthlyReturn {
  /** YYYY-MM (UTC). */
  readonly month: string;
  readonly return: number;
}

/** Month by month (UTC): last equity of the month over the last of the month before (or the start). */
export function monthlyReturns(time: readonly Micros[], equity: readonly number[], startEquity: number): MonthlyReturn[] {
  const closer = monthlyReturnCloser(startEquity);
  const n = Math.min(time.length, equity.length);
  for (let i = 0; i < n; i += 1) closer.add(time[i] as Micros, equity[i] as number);
  return closer.results().map((m) => ({ month: m.month, return: m.return }));
}

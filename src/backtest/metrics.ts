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

export function drawdownStats(time: readonly Micros[], equity: readonly number[]): DrawdownStats {
  const n = Math.min(time.length, equity.length);
  let peak = Number.NEGATIVE_INFINITY;
  let peakTime: Micros = 0;
  let best = { fraction: 0, amount: 0, peakTime: null as Micros | null, troughTime: null as Micros | null, peakValue: 0 };
  let longest = 0;
  let underSince: Micros | null = null; // peak time of the current episode
  for (let i = 0; i < n; i += 1) {
    const t = time[i] as Micros;
    const e = equity[i] as number;
    if (e >= peak) {
      if (underSince !== null) longest = Math.max(longest, t - underSince);
      underSince = null;
      peak = e;
      peakTime = t;
      continue;
    }
    if (underSince === null) underSince = peakTime;
    const amount = peak - e;
    const fraction = peak > 0 ? amount / peak : 0;
    if (fraction > best.fraction) {
      best = { fraction, amount, peakTime, troughTime: t, peakValue: peak };
    }
  }
  const last = n > 0 ? (time[n - 1] as Micros) : 0;
  if (underSince !== null) longest = Math.max(longest, last - underSince);
  let recoveryTime: Micros | null = null;
  if (best.troughTime !== null) {
    for (let i = 0; i < n; i += 1) {
      if ((time[i] as Micros) > best.troughTime && (equity[i] as number) >= best.peakValue) {
        recoveryTime = time[i] as Micros;
        break;
      }
    }
  }
  const durationMicros = best.peakTime === null ? 0 : (recoveryTime ?? last) - best.peakTime;
  return {
    maxDrawdown: best.fraction,
    maxDrawdownAmount: best.amount,
    peakTime: best.peakTime,
    troughTime: best.troughTime,
    recoveryTime,
    durationMicros,
    longestMicros: longest,
  };
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

export function dailyReturns(time: readonly Micros[], equity: readonly number[], startEquity: number): DailyReturn[] {
  const out: DailyReturn[] = [];
  const n = Math.min(time.length, equity.length);
  let previous = startEquity;
  let i = 0;
  while (i < n) {
    const dayEnd = tradingDayEnd(time[i] as Micros);
    let close = equity[i] as number;
    i += 1;
    while (i < n && (time[i] as Micros) <= dayEnd) {
      close = equity[i] as number;
      i += 1;
    }
    out.push({ dayEnd, equity: close, return: previous !== 0 ? close / previous - 1 : 0 });
    previous = close;
  }
  return out;
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
  const out: MonthlyReturn[] = [];
  const n = Math.min(time.length, equity.length);
  let previous = startEquity;
  let i = 0;
  while (i < n) {
    const { month, end } = utcMonth(time[i] as Micros);
    let close = equity[i] as number;
    i += 1;
    while (i < n && (time[i] as Micros) < end) {
      close = equity[i] as number;
      i += 1;
    }
    out.push({ month, return: previous !== 0 ? close / previous - 1 : 0 });
    previous = close;
  }
  return out;
}

import type { AccountSettings } from './account-settings.js';
import { Decimal } from '../domain/decimal.js';
import { formatRfc3339, MICROS_PER_SECOND, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import type { EquityCurve } from './equity.js';
import type { TickWindow } from '../engine/feeds/window.js';
import { costCounts, type CostCounts } from './report-costs.js';
import {
  dailyReturns,
  drawdownStats,
  exposure,
  sharpeRatio,
  sortinoRatio,
  tradeStats,
  type DrawdownStats,
  type MonthlyReturn,
} from './metrics.js';
import type { TradeRow } from './trades.js';
import type { V20AccountSummary } from './v20.js';

/**
 * The statistics of one run, flat so that sweeps can rank by any of them. Money is in the account
 * currency (rounded to 4 decimals), fractions are fractions (0.05 = 5 %, rounded to 6 decimals),
 * durations are seconds of simulated time. Null where a figure is undefined (no losing trade for
 * the profit factor, fewer than two days for Sharpe).
 */
export interface Metrics {
  readonly startTime: string;
  readonly endTime: string;
  readonly ticks: number;
  readonly initialBalance: number;
  readonly finalBalance: number;
  /** Balance plus unrealized P/L at the end (v20 NAV). */
  readonly finalNAV: number;
  /** finalNAV - initialBalance. */
  readonly netPL: number;
  /** netPL / initialBalance. */
  readonly return: number;
  readonly realizedPL: number;
  readonly unrealizedPL: number;
  readonly maxDrawdown: number;
  readonly maxDrawdownAmount: number;
  readonly maxDrawdownPeakTime: string | null;
  readonly maxDrawdownTroughTime: string | null;
  readonly maxDrawdownRecoveryTime: string | null;
  readonly maxDrawdownDurationSeconds: number;
  readonly longestDrawdownSeconds: number;
  readonly tradingDays: number;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly trades: number;
  readonly closedTrades: number;
  readonly openTrades: number;
  readonly longTrades: number;
  readonly shortTrades: number;
  readonly winners: number;
  readonly losers: number;
  readonly winRate: number | null;
  readonly profitFactor: number | null;
  readonly grossProfit: number;
  readonly grossLoss: number;
  readonly averageWin: number | null;
  readonly averageLoss: number | null;
  readonly largestWin: number | null;
  readonly largestLoss: number | null;
  readonly expectancy: number | null;
  readonly averageTradeSeconds: number | null;
  readonly exposure: number;
  /** Σ financing (DAILY_FINANCING and financing settled on fills), negative when paid. */
  readonly financing: number;
  /** Σ halfSpreadCost of the fills: what crossing the spread cost. */
  readonly spreadCost: number;
  /** Σ homeConversionCost of the fills: what the home-currency conversion fee took from P/L (already in realizedPL). */
  readonly conversionCostPL: number;
  /** What the conversion fee took from DAILY_FINANCING (already in financing). */
  readonly conversionCostFinancing: number;
  /** conversionCostPL + conversionCostFinancing. */
  readonly conversionCost: number;
  /** MARGIN_CALL_ENTER transactions. */
  readonly marginCalls: number;
  /** MARKET_ORDERs with reason MARGIN_CLOSEOUT (one per position side the margin closeout closed). */
  readonly marginCloseouts: number;
  readonly transactions: number;
  readonly fills: number;
  readonly rejects: number;
}

export interface MetricsInput {
  readonly ticks: number;
  readonly firstTickTime: Micros;
  readonly lastTickTime: Micros;
  readonly initialBalance: string;
  readonly equity: EquityCurve;
  readonly trades: readonly TradeRow[];
  readonly summary: V20AccountSummary;
  readonly transactions: readonly Transaction[];
  readonly spreadCost: number;
  readonly financing: number;
}

/** Rounds for the report; -0 becomes 0 so that the text never shows "-0". */
export function round(value: number, decimals: number): number {
  const r = Number(value.toFixed(decimals));
  return r === 0 ? 0 : r;
}

function roundOrNull(value: number | null, decimals: number): number | null {
  return value === null || !Number.isFinite(value) ? null : round(value, decimals);
}

const MONEY = 4;
const RATIO = 6;

type DrawdownMetrics = Pick<
  Metrics,
  | 'maxDrawdown'
  | 'maxDrawdownAmount'
  | 'maxDrawdownPeakTime'
  | 'maxDrawdownTroughTime'
  | 'maxDrawdownRecoveryTime'
  | 'maxDrawdownDurationSeconds'
  | 'longestDrawdownSeconds'
>;

function drawdownMetrics(dd: DrawdownStats): DrawdownMetrics {
  const time = (t: Micros | null): string | null => (t === null ? null : formatRfc3339(t));
  return {
    maxDrawdown: round(dd.maxDrawdown, RATIO),
    maxDrawdownAmount: round(dd.maxDrawdownAmount, MONEY),
    maxDrawdownPeakTime: time(dd.peakTime),
    maxDrawdownTroughTime: time(dd.troughTime),
    maxDrawdownRecoveryTime: time(dd.recoveryTime),
    maxDrawdownDurationSeconds: round(dd.durationMicros / MICROS_PER_SECOND, 3),
    longestDrawdownSeconds: round(dd.longestMicros / MICROS_PER_SECOND, 3),
  };
}

type TradeMetrics = Pick<
  Metrics,
  | 'trades'
  | 'closedTrades'
  | 'openTrades'
  | 'longTrades'
  | 'shortTrades'
  | 'winners'
  | 'losers'
  | 'winRate'
  | 'profitFactor'
  | 'grossProfit'
  | 'grossLoss'
  | 'averageWin'
  | 'averageLoss'
  | 'largestWin'
  | 'largestLoss'
  | 'expectancy'
  | 'averageTradeSeconds'
>;

function tradeMetrics(trades: readonly TradeRow[]): TradeMetrics {
  const closed = trades.filter((t) => t.state === 'CLOSED');
  const stats = tradeStats(closed.map((t) => Number(t.realizedPL)));
  let durations = 0;
  for (const t of closed) durations += (t.closeTime as Micros) - t.openTime;
  return {
    trades: trades.length,
    closedTrades: closed.length,
    openTrades: trades.length - closed.length,
    longTrades: trades.filter((t) => t.direction === 'LONG').length,
    shortTrades: trades.filter((t) => t.direction === 'SHORT').length,
    winners: stats.winners,
    losers: stats.losers,
    winRate: roundOrNull(stats.winRate, RATIO),
    profitFactor: roundOrNull(stats.profitFactor, RATIO),
    grossProfit: round(stats.grossProfit, MONEY),
    grossLoss: round(stats.grossLoss, MONEY),
    averageWin: roundOrNull(stats.averageWin, MONEY),
    averageLoss: roundOrNull(stats.averageLoss, MONEY),
    largestWin: roundOrNull(stats.largestWin, MONEY),
    largestLoss: roundOrNull(stats.largestLoss, MONEY),
    expectancy: roundOrNull(stats.expectancy, MONEY),
    averageTradeSeconds: closed.length === 0 ? null : round(durations / closed.length / MICROS_PER_SECOND, 3),
  };
}

type CostMetrics = Pick<Metrics, 'conversionCostPL' | 'conversionCostFinancing' | 'conversionCost' | 'marginCalls' | 'marginCloseouts'>;

/** Summed in Decimal, rounded once like the other money metrics. */
function costMetrics(c: CostCounts): CostMetrics {
  return {
    conversionCostPL: round(c.conversionCostPL.toNumber(), MONEY),
    conversionCostFinancing: round(c.conversionCostFinancing.toNumber(), MONEY),
    conversionCost: round(c.conversionCostPL.plus(c.conversionCostFinancing).toNumber(), MONEY),
    marginCalls: c.marginCalls,
    marginCloseouts: c.marginCloseouts,
  };
}

/**
 * What the metrics are computed from once the curve and the transactions were summarised: by
 * computeMetrics from whole arrays, or point by point and transaction by transaction while a run
 * streams them to disk (stream-outputs.ts). Both give the same numbers, bit for bit.
 */
export interface MetricsParts {
  readonly ticks: number;
  readonly firstTickTime: Micros;
  readonly lastTickTime: Micros;
  readonly initialBalance: string;
  readonly trades: readonly TradeRow[];
  readonly summary: V20AccountSummary;
  readonly spreadCost: number;
  readonly financing: number;
  /** drawdownStats of the NAV curve. */
  readonly drawdown: DrawdownStats;
  /** The daily returns of the NAV curve (dailyReturns from its first point). */
  readonly dailyReturns: readonly number[];
  readonly transactions: number;
  readonly fills: number;
  readonly rejects: number;
  readonly costs: CostCounts;
}

export function computeMetrics(input: MetricsInput): Metrics {
  const { equity } = input;
  const startEquity = equity.nav[0] ?? new Decimal(input.initialBalance).toNumber();
  let fills = 0,
    rejects = 0;
  for (const tx of input.transactions) {
    if (tx.type === 'ORDER_FILL') fills += 1;
    else if (tx.type.endsWith('_REJECT')) rejects += 1;
  }
  return metricsOf({
    ...input,
    drawdown: drawdownStats(equity.time, equity.nav),
    dailyReturns: dailyReturns(equity.time, equity.nav, startEquity).map((d) => d.return),
    transactions: input.transactions.length,
    fills,
    rejects,
    costs: costCounts(input.transactions),
  });
}

// The members are spread in Metrics' order: report.json prints them in insertion order.
export function metricsOf(input: MetricsParts): Metrics {
  const { trades, summary } = input;
  const initial = new Decimal(input.initialBalance);
  const daily = input.dailyReturns;
  const intervals = trades.map((t) => [t.openTime, t.closeTime ?? input.lastTickTime] as const);
  const netPL = new Decimal(summary.NAV).minus(initial);
  return {
    startTime: formatRfc3339(input.firstTickTime),
    endTime: formatRfc3339(input.lastTickTime),
    ticks: input.ticks,
    initialBalance: round(initial.toNumber(), MONEY),
    finalBalance: round(Number(summary.balance), MONEY),
    finalNAV: round(Number(summary.NAV), MONEY),
    netPL: round(netPL.toNumber(), MONEY),
    return: initial.isZero() ? 0 : round(netPL.dividedBy(initial).toNumber(), RATIO),
    realizedPL: round(Number(summary.pl), MONEY),
    unrealizedPL: round(Number(summary.unrealizedPL), MONEY),
    ...drawdownMetrics(input.drawdown),
    tradingDays: daily.length,
    sharpe: roundOrNull(sharpeRatio(daily), RATIO),
    sortino: roundOrNull(sortinoRatio(daily), RATIO),
    ...tradeMetrics(trades),
    exposure: round(exposure(intervals, input.firstTickTime, input.lastTickTime), RATIO),
    financing: round(input.financing, MONEY),
    spreadCost: round(input.spreadCost, MONEY),
    ...costMetrics(input.costs),
    transactions: input.transactions,
    fills: input.fills,
    rejects: input.rejects,
  };
}

/** report.json: what was run, the metrics, and the monthly returns. No generation time: same run, same bytes. */
/** A run's tick window as report.json and sweep.json print it (RFC3339, the ends given only). */
export interface WindowJson {
  readonly from?: string;
  readonly to?: string;
}

export function windowJson(window: TickWindow): WindowJson {
  return {
    ...(window.from === undefined ? {} : { from: formatRfc3339(window.from) }),
    ...(window.to === undefined ? {} : { to: formatRfc3339(window.to) }),
  };
}

export interface ReportJson {
  readonly report: 'v20sim backtest';
  readonly version: 1;
  readonly run: {
    readonly strategy: string;
    readonly strategyFile: { readonly file: string; readonly sha256: string } | null;
    readonly params: Readonly<Record<string, string | number | boolean>>;
    readonly configDigest: string;
    readonly ticks: ReadonlyArray<{ readonly file: string; readonly sha256: string }>;
    /** The period the ticks were taken from (from inclusive, to exclusive), when the run was given one. */
    readonly window?: WindowJson;
    readonly instruments: Readonly<Record<string, number>>;
    readonly accountID: string;
    readonly accountCurrency: string;
    readonly initialBalance: string;
    /** Hedging and the margin settings the account was opened with (those not set are left out). */
    readonly account: AccountSettings;
    readonly equityIntervalSeconds: number;
  };
  readonly metrics: Metrics;
  readonly monthlyReturns: readonly MonthlyReturn[];
}

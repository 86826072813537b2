/**
 * The metrics' names and how a sweep ranks by them, apart from the report that computes them: the
 * backtest command checks --rank with these before it loads the engine.
 */
import type { Metrics } from './report.js';
import type { SweepRow } from './sweep.js';

/** Every metric name, in report order (the columns of sweep.csv). */
export const METRIC_NAMES = [
  'startTime',
  'endTime',
  'ticks',
  'initialBalance',
  'finalBalance',
  'finalNAV',
  'netPL',
  'return',
  'realizedPL',
  'unrealizedPL',
  'maxDrawdown',
  'maxDrawdownAmount',
  'maxDrawdownPeakTime',
  'maxDrawdownTroughTime',
  'maxDrawdownRecoveryTime',
  'maxDrawdownDurationSeconds',
  'longestDrawdownSeconds',
  'tradingDays',
  'sharpe',
  'sortino',
  'trades',
  'closedTrades',
  'openTrades',
  'longTrades',
  'shortTrades',
  'winners',
  'losers',
  'winRate',
  'profitFactor',
  'grossProfit',
  'grossLoss',
  'averageWin',
  'averageLoss',
  'largestWin',
  'largestLoss',
  'expectancy',
  'averageTradeSeconds',
  'exposure',
  'financing',
  'spreadCost',
  'conversionCostPL',
  'conversionCostFinancing',
  'conversionCost',
  'marginCalls',
  'marginCloseouts',
  'transactions',
  'fills',
  'rejects',
] as const satisfies readonly (keyof Metrics)[];

/** Metrics where smaller is better; every other metric ranks largest first. */
const ASCENDING: ReadonlySet<string> = new Set([
  'maxDrawdown',
  'maxDrawdownAmount',
  'maxDrawdownDurationSeconds',
  'longestDrawdownSeconds',
  'spreadCost',
  'conversionCostPL',
  'conversionCostFinancing',
  'conversionCost',
  'marginCalls',
  'marginCloseouts',
  'rejects',
  'losers',
]);

/** The metrics a sweep can be ranked by: the numeric ones. */
export const RANK_METRICS: readonly string[] = METRIC_NAMES.filter(
  (name) => !['startTime', 'endTime', 'maxDrawdownPeakTime', 'maxDrawdownTroughTime', 'maxDrawdownRecoveryTime'].includes(name),
);

export function checkRankMetric(name: string): keyof Metrics {
  if (!RANK_METRICS.includes(name)) throw new Error(`cannot rank by ${JSON.stringify(name)}; choose one of ${RANK_METRICS.join(', ')}`);
  return name as keyof Metrics;
}

/** Rows by the metric (best first, nulls last), ties by grid position. */
export function rankRows(rows: readonly SweepRow[], metric: keyof Metrics): SweepRow[] {
  const ascending = ASCENDING.has(metric);
  return [...rows].sort((a, b) => {
    const x = a.metrics[metric],
      y = b.metrics[metric];
    const xn = typeof x === 'number' ? x : null;
    const yn = typeof y === 'number' ? y : null;
    if (xn === null || yn === null) return xn === yn ? a.index - b.index : xn === null ? 1 : -1;
    if (xn !== yn) return ascending ? xn - yn : yn - xn;
    return a.index - b.index;
  });
}

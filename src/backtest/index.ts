/**
 * Backtesting: strategies written against the v3 operations, run over recorded or generated ticks,
 * with the transactions, trades, equity curve, statistics and a report page as results.
 */
export {
  defineStrategy,
  type ClosePositionRequest,
  type Frozen,
  type OrderFilter,
  type ParamValue,
  type Strategy,
  type StrategyContext,
  type StrategyDefinition,
  type StrategyParams,
  type TradeFilter,
  type TradeOrdersRequest,
} from './strategy.js';
export type * from './v20.js';
export {
  DEFAULT_ACCOUNT_ID,
  DEFAULT_BALANCE,
  DEFAULT_EQUITY_INTERVAL,
  runBacktest,
  type BacktestAccountOptions,
  type BacktestOptions,
  type BacktestResult,
  type BacktestSummary,
  type TickSourceInfo,
} from './runner.js';
export { DEFAULT_BACKTEST_WINDOW, runBacktestToFiles, type StreamedBacktest } from './stream-outputs.js';
export { EngineStrategyContext } from './context.js';
export { StrategyError } from './hooks.js';
export {
  MarkToMarket,
  POINT_KINDS,
  type EquityCurve,
  type EquityPoints,
  type PointKind,
  type PriceSeries,
  type PricePoints,
} from './equity.js';
export { tradeRows, type TradeRow } from './trades.js';
export {
  TRADING_DAYS_PER_YEAR,
  dailyReturns,
  drawdownSeries,
  drawdownStats,
  exposure,
  monthlyReturns,
  sharpeRatio,
  sortinoRatio,
  tradeStats,
  tradingDayEnd,
  type DailyReturn,
  type DrawdownStats,
  type MonthlyReturn,
  type TradeStats,
} from './metrics.js';
export { computeMetrics, type Metrics, type ReportJson } from './report.js';
export { renderReportHtml, renderReportPage, type ReportPageInput } from './report-html.js';
export {
  OUTPUT_FILES,
  equityCsv,
  outputFiles,
  reportJson,
  reportJsonOf,
  reportJsonText,
  tradesCsv,
  transactionsNdjson,
  writeOutputs,
} from './outputs.js';
export { describeSources, fileSha256, loadStrategy } from './load.js';
export { SAMPLE_TICKS_FILE, openTicks, type TickSourceOptions } from './tick-files.js';
export {
  ParamError,
  buildParamGrid,
  coerceParam,
  expandGrid,
  parseParamValues,
  resolveParams,
  sweptNames,
  type ParamGrid,
} from './params.js';
export { runSweepJob, type SweepJob, type SweepOptions, type SweepRow, type SweepRunner, type SweepSpec } from './sweep.js';
export { runSweep } from './sweep-run.js';
export { METRIC_NAMES, RANK_METRICS, checkRankMetric, rankRows } from './metric-names.js';
export { sweepCsv, sweepReport, sweepTable, writeSweep, type SweepReport } from './sweep-report.js';
export { fmtDuration, fmtNumber, fmtPercent, parseDuration, textTable } from './format.js';

import { fmtDuration, fmtNumber, fmtPercent, textTable, type BacktestSummary, type Metrics } from '../backtest/index.js';

/** A single backtest's metrics as `v20sim backtest` prints them: a two-column table, indented. */
export function summaryTable(result: BacktestSummary): string {
  const m: Metrics = result.metrics;
  const cur = result.currency;
  const rows: [string, string][] = [
    ['net P/L', `${fmtNumber(m.netPL)} ${cur}`],
    ['return', fmtPercent(m.return)],
    ['final NAV', `${fmtNumber(m.finalNAV)} ${cur}`],
    [
      'max drawdown',
      `${fmtPercent(m.maxDrawdown)} (${fmtNumber(m.maxDrawdownAmount)} ${cur}), ${fmtDuration(m.maxDrawdownDurationSeconds)}${m.maxDrawdownRecoveryTime === null && m.maxDrawdown > 0 ? ', not recovered' : ''}`,
    ],
    ['sharpe (daily)', m.sharpe === null ? 'n/a' : m.sharpe.toFixed(2)],
    ['sortino (daily)', m.sortino === null ? 'n/a' : m.sortino.toFixed(2)],
    [
      'trades',
      `${fmtNumber(m.trades, 0)} (${fmtNumber(m.longTrades, 0)} long, ${fmtNumber(m.shortTrades, 0)} short, ${fmtNumber(m.openTrades, 0)} open at the end)`,
    ],
    ['win rate', fmtPercent(m.winRate, 1)],
    ['profit factor', m.profitFactor === null ? 'n/a' : m.profitFactor.toFixed(2)],
    [
      'average win / loss',
      `${m.averageWin === null ? 'n/a' : fmtNumber(m.averageWin)} / ${m.averageLoss === null ? 'n/a' : fmtNumber(m.averageLoss)} ${cur}`,
    ],
    ['exposure', fmtPercent(m.exposure, 1)],
    ['financing', `${fmtNumber(m.financing)} ${cur}`],
    ['spread cost', `${fmtNumber(m.spreadCost)} ${cur}`],
    [
      'conversion cost',
      `${fmtNumber(m.conversionCost, 4)} ${cur} (P/L ${fmtNumber(m.conversionCostPL, 4)}, financing ${fmtNumber(m.conversionCostFinancing, 4)})`,
    ],
    ['margin calls', `${fmtNumber(m.marginCalls, 0)} (${fmtNumber(m.marginCloseouts, 0)} closeout orders)`],
    ['transactions', `${fmtNumber(m.transactions, 0)} (${fmtNumber(m.fills, 0)} fills, ${fmtNumber(m.rejects, 0)} rejects)`],
  ];
  return indented(textTable(['metric', 'value'], rows));
}

function indented(table: string): string {
  return table
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

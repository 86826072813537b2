import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatRfc3339, MICROS_PER_SECOND } from '../domain/time.js';
import type { Micros } from '../domain/time.js';
import { POINT_KINDS } from './equity.js';
import { csvField } from './format.js';
import { monthlyReturns, type MonthlyReturn } from './metrics.js';
import { windowJson, type ReportJson } from './report.js';
import { renderReportHtml } from './report-html.js';
import type { BacktestResult, BacktestSummary } from './runner.js';
import type { TradeRow } from './trades.js';

/** The files of one run, in the order they are written. */
export const OUTPUT_FILES = ['transactions.ndjson', 'trades.csv', 'equity.csv', 'report.json', 'report.html'] as const;

/** The account's transactions, one per line, as the journal and the API's transaction stream write them. */
export function transactionsNdjson(result: BacktestResult): string {
  return result.transactionLines.length === 0 ? '' : `${result.transactionLines.join('\n')}\n`;
}

export const TRADES_CSV_HEADER = [
  'id',
  'instrument',
  'direction',
  'units',
  'openTime',
  'openPrice',
  'closeTime',
  'closePrice',
  'state',
  'realizedPL',
  'unrealizedPL',
  'financing',
  'spreadCost',
  'closeReason',
  'durationSeconds',
] as const;

export function tradesCsv(result: { readonly trades: readonly TradeRow[] }): string {
  const lines = [TRADES_CSV_HEADER.join(',')];
  for (const t of result.trades) {
    const duration = t.closeTime === undefined ? '' : String((t.closeTime - t.openTime) / MICROS_PER_SECOND);
    lines.push(
      [
        t.id,
        t.instrument,
        t.direction,
        t.units,
        formatRfc3339(t.openTime),
        t.openPrice,
        t.closeTime === undefined ? '' : formatRfc3339(t.closeTime),
        t.closePrice ?? '',
        t.state,
        t.realizedPL,
        t.unrealizedPL,
        t.financing,
        t.spreadCost,
        t.closeReason,
        duration,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export const EQUITY_CSV_HEADER = ['time', 'nav', 'balance', 'unrealizedPL', 'drawdown', 'kind'] as const;

/**
 * equity.csv one line at a time, as the points are taken: mark-to-market points (every interval
 * and at every fill); drawdown as a fraction of the running peak, the only state kept.
 */
export class EquityCsvLines {
  private peak = Number.NEGATIVE_INFINITY;
  // The balance changes only at fills and financing, and a flat account has no unrealized P/L:
  // reuse those texts rather than format the same number again.
  private lastBalance = Number.NaN;
  private balanceText = '';

  /** The header line, without its newline. */
  static readonly header = EQUITY_CSV_HEADER.join(',');

  /** One point's line, without its newline. */
  line(time: Micros, nav: number, balance: number, kind: number): string {
    if (balance !== this.lastBalance) {
      this.balanceText = fixed(balance, 4);
      this.lastBalance = balance;
    }
    const balanceText = this.balanceText;
    if (nav > this.peak) this.peak = nav;
    const peak = this.peak;
    const flat = nav === balance;
    const dd = peak > 0 ? (nav - peak) / peak : 0;
    return `${formatRfc3339(time)},${flat ? balanceText : fixed(nav, 4)},${balanceText},${flat ? '0.0000' : fixed(nav - balance, 4)},${dd === 0 ? '0.000000' : fixed(dd, 6)},${POINT_KINDS[kind] ?? ''}`;
  }
}

/** Mark-to-market points: every interval and at every fill; drawdown as a fraction of the running peak. */
export function equityCsv(result: BacktestResult): string {
  const e = result.equity;
  const csv = new EquityCsvLines();
  const lines = [EquityCsvLines.header];
  for (let i = 0; i < e.time.length; i += 1)
    lines.push(csv.line(e.time[i] as number, e.nav[i] as number, e.balance[i] as number, e.kind[i] as number));
  return `${lines.join('\n')}\n`;
}

/** toFixed without "-0.0000". */
function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return text.charCodeAt(0) === 45 && /^-0\.0*$/.test(text) ? text.slice(1) : text;
}

export function reportJson(result: BacktestResult): ReportJson {
  const e = result.equity;
  return reportJsonOf(result, monthlyReturns(e.time, e.nav, e.nav[0] ?? 0));
}

/** report.json of a run whose monthly returns were gathered as its curve was taken (stream-outputs.ts). */
export function reportJsonOf(result: BacktestSummary, months: readonly MonthlyReturn[]): ReportJson {
  return {
    report: 'v20sim backtest',
    version: 1,
    run: {
      strategy: result.strategy,
      strategyFile: result.strategySource === undefined ? null : { file: result.strategySource.file, sha256: result.strategySource.sha256 },
      params: result.params,
      configDigest: result.configDigest,
      ticks: result.sources.map((s) => ({ file: s.file, sha256: s.sha256 })),
      ...(result.window === undefined ? {} : { window: windowJson(result.window) }),
      instruments: Object.fromEntries(result.instruments),
      accountID: result.accountID,
      accountCurrency: result.currency,
      initialBalance: result.initialBalance,
      account: result.accountSettings,
      equityIntervalSeconds: result.equityIntervalMicros / MICROS_PER_SECOND,
    },
    metrics: result.metrics,
    monthlyReturns: months.map((m) => ({ month: m.month, return: Number(m.return.toFixed(6)) || 0 })),
  };
}

export function reportJsonText(result: BacktestResult): string {
  return jsonText(reportJson(result));
}

export function jsonText(report: ReportJson): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Every output file's name and content; `strategy.log` only when the strategy logged. */
export function outputFiles(result: BacktestResult): Array<readonly [string, string]> {
  const files: Array<readonly [string, string]> = [
    ['transactions.ndjson', transactionsNdjson(result)],
    ['trades.csv', tradesCsv(result)],
    ['equity.csv', equityCsv(result)],
    ['report.json', reportJsonText(result)],
    ['report.html', renderReportHtml(result)],
  ];
  if (result.strategyLog.length > 0) files.push(['strategy.log', `${result.strategyLog.join('\n')}\n`]);
  return files;
}

/** Writes the outputs into `dir` (created if needed); returns the paths written. */
export function writeOutputs(dir: string, result: BacktestResult): string[] {
  mkdirSync(dir, { recursive: true });
  // A log left by an earlier run in the same folder would not belong to this one.
  if (result.strategyLog.length === 0) rmSync(path.join(dir, 'strategy.log'), { force: true });
  return outputFiles(result).map(([name, content]) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  });
}

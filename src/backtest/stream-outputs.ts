/**
 * A backtest whose outputs go to disk while it runs, so its memory does not grow with its length:
 * transactions.ndjson is the run's journal (the account keeps the newest `transactionsInMemory`
 * transactions and reads older ones back from this file, as serve does from its journal), the
 * account keeps the newest `recordsInMemory` ended orders and closed trades and pages older ones
 * out to scratch files (read back when the strategy asks for them: account/id-table.ts),
 * equity.csv is written a point at a time, and the curve and price series the report page charts
 * are spilled to temporary files as doubles and read back once, decimated as they are read. The
 * metrics are summed as the points and transactions come (DrawdownTracker, the period closers,
 * TransactionStats). What stays in memory: the account (its pending orders, open trades, a window
 * of its ended ones, the newest transactions), per trade the few figures trades.csv needs, one
 * trading day's and one month's figures per day and month of the run, a chunk of each file, and the
 * strategy's own state and log. The files are byte for byte what writeOutputs writes for the same
 * run held in memory.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { RecordFiles } from '../journal/record-file.js';
import type { Micros } from '../domain/time.js';
import type { RecordsInMemory } from '../engine/engine.js';
import type { Transaction } from '../domain/transactions.js';
import { committedLines } from '../journal/file-lines.js';
import { serializeTransaction, transactionLines } from '../journal/journal.js';
import type { EquityPoints, EquitySink, PricePoints } from './equity.js';
import {
  DrawdownTracker,
  dailyReturnCloser,
  monthlyReturnCloser,
  type DailyReturn,
  type MonthlyReturn,
  type PeriodCloser,
} from './metrics.js';
import { EquityCsvLines, OUTPUT_FILES, jsonText, reportJsonOf, tradesCsv } from './outputs.js';
import { metricsOf, type MetricsParts } from './report.js';
import { renderReportPage } from './report-html.js';
import type { JournalStore } from './run-journal.js';
import { runInto, summaryOf, type BacktestOptions, type BacktestSummary } from './runner.js';
import { Float64Spill } from './spill.js';
import type { StrategyParams } from './strategy.js';
import { tradeRows } from './trades.js';
import { TransactionStats } from './transaction-stats.js';

/** The transactions a streamed backtest keeps in the account's memory by default: serve's default window. */
export const DEFAULT_BACKTEST_WINDOW = 10_000;

/**
 * The ended orders, and the closed trades, a streamed backtest keeps in the account's memory by
 * default; older ones are paged out to a scratch file beside the outputs (account/id-table.ts).
 */
export const DEFAULT_RECORD_WINDOW = 50_000;

/** Text written through a buffer of about this many characters. */
export const TEXT_BUFFER_CHARS = 1 << 16;

/** An output file written in large appends; `size` is what is on disk. */
export class TextFile {
  private readonly fd: number;
  private parts: string[] = [];
  private chars = 0;
  private written = 0;
  private closed = false;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  /** Characters appended and not yet written: what the file holds in memory. */
  get pendingChars(): number {
    return this.chars;
  }

  /** Appends text (a line with its newline). */
  write(text: string): void {
    this.parts.push(text);
    this.chars += text.length;
    if (this.chars >= TEXT_BUFFER_CHARS) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    this.written += writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.chars = 0;
  }

  /** The bytes on disk once everything appended is written. */
  get size(): number {
    this.flush();
    return this.written;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }
}

/** transactions.ndjson as the run's journal: each line as it is journaled, read back for IDs the account no longer keeps. */
export class JournalFile implements JournalStore {
  readonly text: TextFile;
  readonly stats = new TransactionStats();

  constructor(file: string) {
    this.text = new TextFile(file);
  }

  add(tx: Transaction): void {
    this.stats.add(tx);
    this.text.write(`${serializeTransaction(tx)}\n`);
  }

  transactionsFrom(fromId: number): Iterable<Transaction> {
    const file = this.text.file;
    return transactionLines(
      committedLines(file, () => this.text.size),
      fromId,
      file,
    );
  }
}

/** The curve as equity.csv lines, its statistics, and the curve and price series spilled for the page. */
export class StreamedEquity implements EquitySink {
  readonly csv: TextFile;
  private readonly lines = new EquityCsvLines();
  readonly drawdown = new DrawdownTracker();
  private daily: PeriodCloser<DailyReturn> | undefined;
  private monthly: PeriodCloser<MonthlyReturn> | undefined;
  readonly curve: Float64Spill;
  private readonly prices: Float64Spill;
  /** Instruments in the order first seen (their index in the price spill), each one's count and unwritten last point. */
  private readonly instruments = new Map<string, { index: number; count: number; time: Micros; mid: number; held: boolean }>();

  constructor(dir: string, csvFile: string) {
    this.csv = new TextFile(csvFile);
    this.csv.write(`${EquityCsvLines.header}\n`);
    this.curve = new Float64Spill(path.join(dir, '.equity.f64.partial'), 4);
    this.prices = new Float64Spill(path.join(dir, '.prices.f64.partial'), 3);
  }

  point(time: Micros, nav: number, balance: number, kind: number): void {
    this.csv.write(`${this.lines.line(time, nav, balance, kind)}\n`);
    this.drawdown.add(time, nav);
    // Returns are measured from the first point (report.ts computeMetrics, outputs.ts reportJson).
    this.daily ??= dailyReturnCloser(nav);
    this.monthly ??= monthlyReturnCloser(nav);
    this.daily.add(time, nav);
    this.monthly.add(time, nav);
    this.curve.push(time, nav, balance, kind);
  }

  price(instrument: string, time: Micros, mid: number): void {
    let entry = this.instruments.get(instrument);
    if (entry === undefined) {
      entry = { index: this.instruments.size, count: 0, time, mid, held: false };
      this.instruments.set(instrument, entry);
    }
    // The last point is held back until the next one's time is known: one at the same time replaces it.
    if (entry.held && entry.time !== time) this.release(entry);
    if (!entry.held) entry.count += 1;
    entry.time = time;
    entry.mid = mid;
    entry.held = true;
  }

  private release(entry: { index: number; time: Micros; mid: number; held: boolean }): void {
    this.prices.push(entry.index, entry.time, entry.mid);
    entry.held = false;
  }

  /** What is held in memory before it is written: equity.csv characters, curve and price records. */
  pending(): { csvChars: number; curveRecords: number; priceRecords: number } {
    return { csvChars: this.csv.pendingChars, curveRecords: this.curve.pending, priceRecords: this.prices.pending };
  }

  dailyReturns(): number[] {
    return (this.daily?.results() ?? []).map((d) => d.return);
  }

  monthlyReturns(): MonthlyReturn[] {
    return (this.monthly?.results() ?? []).map((m) => ({ month: m.month, return: m.return }));
  }

  curvePoints(): EquityPoints {
    const spill = this.curve;
    return {
      length: spill.length,
      forEach: (f) => spill.forEach((r, at) => f(r[at] as number, r[at + 1] as number, r[at + 2] as number, r[at + 3] as number)),
    };
  }

  priceSeries(): Map<string, PricePoints> {
    for (const entry of this.instruments.values()) if (entry.held) this.release(entry);
    const spill = this.prices;
    const out = new Map<string, PricePoints>();
    for (const [instrument, { index, count }] of this.instruments) {
      out.set(instrument, {
        length: count,
        forEach: (f) =>
          spill.forEach((r, at) => {
            if (r[at] === index) f(r[at + 1] as number, r[at + 2] as number);
          }),
      });
    }
    return out;
  }

  remove(): void {
    this.curve.remove();
    this.prices.remove();
  }
}

/** Writes the small files under their temporary names, then renames every output into place; returns their paths. */
function writeReports(dir: string, partial: (name: string) => string, summary: BacktestSummary, equity: StreamedEquity): string[] {
  const monthlyReturns = equity.monthlyReturns();
  const small: Array<readonly [string, string]> = [
    ['trades.csv', tradesCsv(summary)],
    ['report.json', jsonText(reportJsonOf(summary, monthlyReturns))],
    ['report.html', renderReportPage({ ...summary, curve: equity.curvePoints(), priceSeries: equity.priceSeries(), monthlyReturns })],
  ];
  if (summary.strategyLog.length > 0) small.push(['strategy.log', `${summary.strategyLog.join('\n')}\n`]);
  for (const [name, content] of small) writeFileSync(partial(name), content);
  // A log left by an earlier run in the same folder would not belong to this one.
  if (summary.strategyLog.length === 0) rmSync(path.join(dir, 'strategy.log'), { force: true });
  return [...OUTPUT_FILES, ...small.slice(3).map(([name]) => name)].map((name) => {
    const file = path.join(dir, name);
    renameSync(partial(name), file);
    return file;
  });
}

/** A streamed run: its summary and the files written. */
export interface StreamedBacktest extends BacktestSummary {
  readonly files: readonly string[];
  /** Rejects by rejectReason and unusual order cancels by reason, most frequent first (TransactionCounts.refusals). */
  readonly refusals: ReadonlyArray<readonly [string, number]>;
}

/**
 * Runs a backtest (runBacktest's options) writing its outputs into `dir` as it goes: the same
 * transactions.ndjson, trades.csv, equity.csv, report.json, report.html (and strategy.log when the
 * strategy logged) as writeOutputs(dir, runBacktest(options)), in memory bounded by the account
 * rather than by the ticks (see the top of this file). The files are written under temporary names
 * and renamed when the run has finished: a run that fails leaves the folder's earlier outputs.
 */
export function runBacktestToFiles<P extends StrategyParams>(options: BacktestOptions<P>, dir: string): StreamedBacktest {
  const { summary, refusals, files } = streamInto(dir, ({ journal, equity, recordFiles }) => {
    const records: RecordsInMemory = { window: options.recordsInMemory ?? DEFAULT_RECORD_WINDOW, store: recordFiles.store };
    const stores = { journal, equity, records };
    const { setup, outcome } = runInto(
      { ...options, transactionsInMemory: options.transactionsInMemory ?? DEFAULT_BACKTEST_WINDOW },
      stores,
    );
    const stats = journal.stats.counts();
    const summary = summaryOf(options, setup, outcome, tradeRows(outcome.account.state, journal.stats.trades), (parts) =>
      metricsOf({
        ...parts,
        ticks: outcome.count,
        firstTickTime: outcome.first.time,
        lastTickTime: outcome.last.time,
        initialBalance: setup.balance,
        spreadCost: stats.spreadCost.toNumber(),
        ...streamedMetricParts(equity, stats),
      }),
    );
    return { summary, refusals: stats.refusals };
  });
  return { ...summary, files, refusals };
}

/** What the metrics take from a streamed run's curve and transaction counts (the rest is the run's). */
export function streamedMetricParts(
  equity: StreamedEquity,
  stats: ReturnType<TransactionStats['counts']>,
): Pick<MetricsParts, 'drawdown' | 'dailyReturns' | 'transactions' | 'fills' | 'rejects' | 'costs'> {
  return {
    drawdown: equity.drawdown.stats(),
    dailyReturns: equity.dailyReturns(),
    transactions: stats.transactions,
    fills: stats.fills,
    rejects: stats.rejects,
    costs: stats.costs,
  };
}

/** The open output files of a streamed run, under their temporary names. */
export interface StreamedFiles {
  readonly journal: JournalFile;
  readonly equity: StreamedEquity;
  /** Where accounts page out their ended orders and closed trades (scratch files beside the outputs). */
  readonly recordFiles: RecordFiles;
}

/**
 * Runs `run` with transactions.ndjson and equity.csv open under temporary names in `dir`, then
 * writes the other files from the summary it returns and renames every output into place: a run
 * that fails leaves the folder's earlier outputs and no temporary file. The one path of the
 * streamed backtest and of the report of a served account's journal (journal-report-files.ts).
 */
export function streamInto<T extends { readonly summary: BacktestSummary }>(
  dir: string,
  run: (files: StreamedFiles) => T,
): T & { readonly files: readonly string[] } {
  mkdirSync(dir, { recursive: true });
  const partial = (name: string): string => path.join(dir, `.${name}.partial`);
  const journal = new JournalFile(partial('transactions.ndjson'));
  let equity: StreamedEquity | undefined;
  const temporary = [...OUTPUT_FILES, 'strategy.log'].map(partial);
  const recordFiles = new RecordFiles((_accountId, kind) => partial(`${kind}.records`));
  try {
    equity = new StreamedEquity(dir, partial('equity.csv'));
    const result = run({ journal, equity, recordFiles });
    journal.text.close();
    equity.csv.close();
    const files = writeReports(dir, partial, result.summary, equity);
    return { ...result, files };
  } finally {
    journal.text.close();
    equity?.csv.close();
    equity?.remove();
    recordFiles.remove();
    for (const file of temporary) rmSync(file, { force: true });
  }
}

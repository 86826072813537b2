/**
 * `v20sim report`'s files from a served account's journal file, streamed as a backtest's are
 * (stream-outputs.ts): the journal is read a block of lines at a time and each entry replayed as
 * it is read, transactions.ndjson and equity.csv are written as the replay goes, and the account
 * pages its ended orders and closed trades out beyond a window. Memory is bounded by the
 * account's open positions and the number of trades, not by the journal's length. The files are
 * byte for byte what writeOutputs(dir, reportFromJournal(readJournalFile(file))) writes.
 */
import { Decimal } from '../domain/decimal.js';
import { readLines } from '../engine/feeds/lines.js';
import { journalEntries, journalSummaryParts, replayJournal, type JournalReportOptions } from './journal-report.js';
import { metricsOf } from './report.js';
import type { BacktestSummary } from './runner.js';
import { DEFAULT_RECORD_WINDOW, streamInto, streamedMetricParts } from './stream-outputs.js';
import { tradeRows } from './trades.js';

/** A journal's report as written: its summary, the number of transactions and the files. */
export interface JournalReportFiles extends BacktestSummary {
  readonly transactionCount: number;
  readonly files: readonly string[];
}

export interface JournalFilesOptions extends JournalReportOptions {
  /** The newest this many ended orders, and as many closed trades, stay in memory (default DEFAULT_RECORD_WINDOW). */
  readonly recordsInMemory?: number;
}

/** Reads the journal `file` and writes its report into `dir` (see the top of this file). */
export function reportJournalToFiles(file: string, dir: string, options: JournalFilesOptions = {}): JournalReportFiles {
  const { summary, transactionCount, files } = streamInto(dir, ({ journal, equity, recordFiles }) => {
    // One account per journal: the stores' file names need no account ID.
    const window = options.recordsInMemory ?? DEFAULT_RECORD_WINDOW;
    const paging = { window, orders: recordFiles.store('', 'orders'), trades: recordFiles.store('', 'trades') };
    const replayed = replayJournal(
      journalEntries(readLines(file), file),
      options,
      equity,
      (tx, line) => {
        journal.stats.add(tx);
        journal.text.write(`${line}\n`);
      },
      paging,
    );
    const state = replayed.account.state;
    const parts = journalSummaryParts(replayed, options);
    const stats = journal.stats.counts();
    const trades = tradeRows(state, journal.stats.trades);
    const metrics = metricsOf({
      trades,
      summary: parts.summary,
      financing: new Decimal(state.financing).toNumber(),
      ticks: 0,
      firstTickTime: replayed.first,
      lastTickTime: replayed.last,
      initialBalance: replayed.initialBalance,
      spreadCost: replayed.spreadCost.toNumber(),
      ...streamedMetricParts(equity, stats),
    });
    return { summary: { ...parts, trades, metrics }, transactionCount: stats.transactions };
  });
  return { ...summary, transactionCount, files };
}

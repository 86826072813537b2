/**
 * A journal alone rebuilds the account a run left: the report of a backtest's own transactions
 * has the same trades, summary and trade statistics as the backtest's report. (Its equity curve
 * has a point per transaction instead of per minute, so curve metrics differ.)
 */
import { describe, expect, it } from 'vitest';
import maCrossover from '../../examples/strategies/ma-crossover.js';
import { JournalReportError, parseJournalText, reportFromJournal } from '../../src/backtest/journal-report.js';
import { SAMPLE_TICKS_FILE, openTicks } from '../../src/backtest/load.js';
import { runBacktest } from '../../src/backtest/runner.js';

describe('report from a journal', () => {
  const backtest = runBacktest({ strategy: maCrossover, ticks: openTicks([SAMPLE_TICKS_FILE]) });
  const text = `${backtest.transactionLines.join('\n')}\n`;
  const report = reportFromJournal(parseJournalText(text, 'transactions.ndjson'));

  it('rebuilds the trades, the summary and the trade statistics of the run', () => {
    expect(backtest.trades.length).toBeGreaterThan(20);
    expect(report.trades).toEqual(backtest.trades);
    expect(report.summary).toEqual(backtest.summary);
    expect(report.transactionLines).toEqual(backtest.transactionLines);
    for (const name of ['trades', 'winRate', 'profitFactor', 'netPL', 'fills', 'rejects'] as const)
      expect(report.metrics[name], name).toEqual(backtest.metrics[name]);
  });

  it('marks equity at every transaction, from the opening deposit to the last entry', () => {
    const { equity } = report;
    expect(equity.time.length).toBe(report.transactions.length - 1 + 1); // CREATE has none; END repeats the last time
    expect(equity.nav[0]).toBe(Number(report.initialBalance));
    expect(equity.balance.at(-1)).toBe(Number(backtest.summary.balance));
    for (let i = 1; i < equity.time.length; i += 1) expect(equity.time[i]).toBeGreaterThanOrEqual(equity.time[i - 1] as number);
  });

  it('refuses what is not an account journal, naming the line', () => {
    expect(() => parseJournalText('{"type":"CREATE"}\nnot json\n', 'j.ndjson')).toThrow(/j\.ndjson:2: not a JSON line/);
    expect(() => parseJournalText(`${text}{"id":"9`, 'j.ndjson')).toThrow(/last line is cut/);
    expect(() => parseJournalText('[1]\n', 'j.ndjson')).toThrow(/not a journal entry/);
    const lines = text.split('\n').filter((l) => l !== '');
    expect(() => reportFromJournal(parseJournalText(lines.slice(1).join('\n'), 'j'))).toThrow(JournalReportError);
    expect(() => reportFromJournal(parseJournalText(lines.slice(0, 1).join('\n'), 'j'))).toThrow(/no opening deposit/);
  });
});

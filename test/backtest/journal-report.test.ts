/**
 * A journal alone rebuilds the account a run left: the report of a backtest's own transactions
 * has the same trades, summary and trade statistics as the backtest's report. (Its equity curve
 * has a point per transaction instead of per minute, so curve metrics differ.)
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import maCrossover from '../../examples/strategies/ma-crossover.js';
import { JournalReportError, parseJournalText, readJournalFile, reportFromJournal } from '../../src/backtest/journal-report.js';
import { reportJournalToFiles } from '../../src/backtest/journal-report-files.js';
import { SAMPLE_TICKS_FILE, openTicks } from '../../src/backtest/tick-files.js';
import { writeOutputs } from '../../src/backtest/outputs.js';
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

  it('reads a journal file a block of lines at a time, as the same entries as its text', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-journal-report-'));
    try {
      const file = path.join(dir, 'transactions.ndjson');
      // A comment with a two-byte character: a block boundary never splits it.
      const lines = text.split('\n').filter((l) => l !== '');
      lines.splice(2, 0, '{"type":"NOTE","time":"2024-01-02T00:00:00.000000000Z","comment":"déjà vu"}');
      const withNote = `${lines.join('\n')}\n`;
      writeFileSync(file, withNote);
      const whole = parseJournalText(withNote, file);
      // Blocks far smaller than a line (7 bytes) and about a line: every line crosses a boundary somewhere.
      for (const chunk of [7, 301, 65_536]) expect(readJournalFile(file, chunk)).toEqual(whole);
      expect(whole[2]).toMatchObject({ comment: 'déjà vu' });
      writeFileSync(file, `${text}{"id":"9`);
      expect(() => readJournalFile(file, 64)).toThrow(
        new RegExp(`transactions\\.ndjson:${lines.length}: not a JSON line \\(the last line is cut`),
      );
      writeFileSync(file, `${lines[0] as string}\nnot json\n${lines[1] as string}\n`);
      expect(() => readJournalFile(file, 64)).toThrow(/transactions\.ndjson:2: not a JSON line$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('streams to files byte for byte what the report held in memory writes, records paged out or not', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-journal-files-'));
    try {
      const file = path.join(dir, 'journal.ndjson');
      writeFileSync(file, text);
      const written = writeOutputs(path.join(dir, 'memory'), reportFromJournal(readJournalFile(file), { source: file }));
      // A window of 1: every ended order and closed trade but the newest is read back from disk.
      for (const recordsInMemory of [1, undefined]) {
        const out = path.join(dir, `streamed-${String(recordsInMemory)}`);
        const streamed = reportJournalToFiles(file, out, { source: file, ...(recordsInMemory === undefined ? {} : { recordsInMemory }) });
        expect(streamed.transactionCount).toBe(backtest.transactions.length);
        expect(streamed.metrics).toEqual(report.metrics);
        for (const memory of written) {
          const name = path.basename(memory);
          expect(readFileSync(path.join(out, name), 'utf8'), `${name}, window ${String(recordsInMemory)}`).toBe(
            readFileSync(memory, 'utf8'),
          );
        }
        // Only the report's files: no scratch file left behind.
        expect(readdirSync(out).sort()).toEqual(written.map((f) => path.basename(f)).sort());
      }
      // A journal that fails part way leaves no file and no scratch file behind.
      writeFileSync(file, `${text}not json\n${text}`);
      const failed = path.join(dir, 'failed');
      expect(() => reportJournalToFiles(file, failed, {})).toThrow(JournalReportError);
      expect(readdirSync(failed)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

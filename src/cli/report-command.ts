/**
 * `v20sim report --journal FILE`: a served (paper) account's journal as the report files a
 * backtest writes (backtest/journal-report.ts rebuilds the account). The files are written into a
 * temporary folder beside the target and renamed into place, so a failed run leaves no half-written
 * report file.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { JournalReportError, readJournalFile, reportFromJournal } from '../backtest/journal-report.js';
import type { JournalEntry } from '../domain/journal-entry.js';
import { writeOutputs } from '../backtest/outputs.js';
import { buildCatalogue } from '../domain/instruments.js';
import { ConfigError, loadConfigFile } from './config.js';
import { EXIT, type Parsed } from './program.js';

type RunParsed = Extract<Parsed, { kind: 'run' }>;

export interface ReportIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

function option(parsed: RunParsed, name: string): string | undefined {
  const value = parsed.options[name];
  return typeof value === 'string' ? value : undefined;
}

export function runParsedReport(parsed: RunParsed, io: ReportIo): number {
  const fail = (code: number, message: string): number => {
    io.stderr.write(`v20sim report: ${message}\n`);
    return code;
  };
  if (parsed.operands.length > 0) return fail(EXIT.usage, `unexpected ${parsed.operands.join(' ')} (see v20sim report --help)`);
  const journal = option(parsed, 'journal');
  if (journal === undefined) return fail(EXIT.usage, '--journal FILE is required (see v20sim report --help)');
  const config = option(parsed, 'config');
  let instruments;
  try {
    instruments = config === undefined ? undefined : buildCatalogue(loadConfigFile(config).instruments ?? []);
  } catch (error) {
    return fail(EXIT.usage, error instanceof ConfigError ? error.message : (error as Error).message);
  }
  let entries: JournalEntry[];
  try {
    entries = readJournalFile(journal);
  } catch (error) {
    if (error instanceof JournalReportError) return fail(EXIT.failure, error.message);
    return fail(EXIT.failure, `cannot read ${journal}: ${(error as Error).message}`);
  }
  let result;
  try {
    result = reportFromJournal(entries, { source: journal, ...(instruments === undefined ? {} : { instruments }) });
  } catch (error) {
    if (error instanceof JournalReportError) return fail(EXIT.failure, `${journal}: ${error.message}`);
    throw error;
  }
  const out = path.resolve(option(parsed, 'out') ?? `report-${result.accountID}`);
  const staging = `${out}.partial`;
  try {
    rmSync(staging, { recursive: true, force: true });
    const written = writeOutputs(staging, result);
    // Into an existing folder file by file: only the report's own files are replaced.
    mkdirSync(out, { recursive: true });
    for (const file of written) renameSync(file, path.join(out, path.basename(file)));
    // A strategy log left by a backtest in the same folder does not belong to this report.
    rmSync(path.join(out, 'strategy.log'), { force: true });
    rmSync(staging, { recursive: true, force: true });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    return fail(EXIT.failure, `cannot write ${out}: ${(error as Error).message}`);
  }
  const m = result.metrics;
  io.stdout.write(
    `${result.accountID}: ${result.transactions.length} transactions, ${m.trades} trades, net P/L ${m.netPL} ${result.currency}\n`,
  );
  io.stdout.write(`written ${path.join(out, 'report.html')}\n`);
  return EXIT.ok;
}

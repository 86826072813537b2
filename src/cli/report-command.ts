/**
 * `v20sim report --journal FILE`: a served (paper) account's journal as the report files a
 * backtest writes (backtest/journal-report.ts rebuilds the account, journal-report-files.ts streams
 * it to the files). The files are written under temporary names and renamed into place, so a
 * failed run leaves no half-written report file.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { JournalReportError, journalEntries } from '../backtest/journal-report.js';
import { reportJournalToFiles } from '../backtest/journal-report-files.js';
import { readLines } from '../engine/feeds/lines.js';
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

/** The account of a journal, from its first line (the CREATE transaction); unknown when that does not say. */
function accountOf(journal: string): string {
  try {
    for (const entry of journalEntries(readLines(journal), journal)) return 'accountID' in entry ? String(entry.accountID) : 'unknown';
  } catch {
    // The report itself says what is wrong with the journal.
  }
  return 'unknown';
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
  try {
    if (!statSync(journal).isFile()) return fail(EXIT.failure, `cannot read ${journal}: not a file`);
  } catch (error) {
    return fail(EXIT.failure, `cannot read ${journal}: ${(error as Error).message}`);
  }
  // The output folder is named after the account, which only the journal's first line tells.
  const out = path.resolve(option(parsed, 'out') ?? `report-${accountOf(journal)}`);
  const existed = existsSync(out);
  let result;
  try {
    result = reportJournalToFiles(journal, out, { source: journal, ...(instruments === undefined ? {} : { instruments }) });
  } catch (error) {
    // A folder made for this report alone goes with it: a failed report leaves nothing behind.
    if (!existed) rmSync(out, { recursive: true, force: true });
    if (error instanceof JournalReportError)
      return fail(EXIT.failure, error.message.startsWith(`${journal}:`) ? error.message : `${journal}: ${error.message}`);
    if (typeof (error as { code?: unknown }).code === 'string')
      return fail(EXIT.failure, `cannot read or write: ${(error as Error).message}`);
    throw error;
  }
  const m = result.metrics;
  io.stdout.write(
    `${result.accountID}: ${result.transactionCount} transactions, ${m.trades} trades, net P/L ${m.netPL} ${result.currency}\n`,
  );
  io.stdout.write(`written ${path.join(out, 'report.html')}\n`);
  return EXIT.ok;
}

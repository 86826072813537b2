/**
 * `v20sim report`: options and help text. Parsing only, like program.ts; report-command.ts checks
 * the values and builds the reports.
 */
import { Command } from 'commander';

const REPORT_DESCRIPTION = `Builds the files a backtest writes (transactions.ndjson, trades.csv, equity.csv, report.json,
report.html) from a served account's journal: the file DATA_DIR/<accountID>.ndjson of a
\`v20sim serve --data-dir\`, or what GET /sim/journal/<accountID> returns. The account is rebuilt
from its transactions and marked to market at each fill's own prices (a journal holds no quotes),
so its equity curve has a point per transaction and is flat between them.`;

const REPORT_AFTER = `
Exit codes: 0 written, 1 an unreadable journal or output folder, 2 invalid options.`;

export function reportCommand(): Command {
  return new Command('report')
    .summary("report on a served account's journal")
    .usage('--journal FILE [--out DIR] [--config FILE]')
    .description(REPORT_DESCRIPTION)
    .option('--journal <file>', "the account's journal (NDJSON)")
    .option('--out <dir>', 'folder for the report files (default: report-<accountID>)')
    .option('--config <file>', 'the serve config the session ran with, for its instrument overrides')
    .addHelpText('after', REPORT_AFTER);
}

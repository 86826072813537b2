/**
 * The commands that read a remote v20 server (download candles, record): options and help texts.
 * Parsing only, like program.ts; download-command.ts and record-command.ts check the values.
 */
import { Command, Option } from 'commander';

const DOWNLOAD_CANDLES_DESCRIPTION = `Fetches bid/ask candles from a v20 server (OANDA's or any other, v20sim serve included)
through GET /v3/instruments/{instrument}/candles, a page of at most 5,000 at a time (OANDA's
limit), and writes them in time order (equal times in --instrument order): NDJSON, one candle a
line {instrument, granularity, time, bid{o,h,l,c}, ask{o,h,l,c}, volume, complete}, or CSV with a
header. Prices stay the strings v20 sends. Candles from --from (inclusive) to --to (exclusive),
complete ones only unless --include-incomplete. 429 (after its Retry-After), 5xx and network
errors are retried with exponential backoff.
The file is written as FILE.partial and renamed to FILE when done; run the same command again
after an interruption and it continues after the last complete line of FILE.partial.`;

const DOWNLOAD_CANDLES_AFTER = `
Examples:
  OANDA_TOKEN=... v20sim download candles --instrument EUR_USD --granularity M1 \\
    --from 2024-01-01 --to 2024-02-01 --out eurusd-m1.ndjson
  v20sim download candles --url http://127.0.0.1:8080 --token T --instrument EUR_USD,USD_JPY \\
    --granularity S5 --from 2024-01-02T00:00:00Z --to 2024-01-03T00:00:00Z --out s5.csv

Exit codes: 0 done, 1 the download failed (unreachable server, refused token, bad instrument,
retries exhausted; FILE.partial is kept for a resume), 2 invalid options.`;

const RECORD_DESCRIPTION = `Subscribes to a v20 pricing stream (GET /v3/accounts/{account}/pricing/stream) and writes
every price as an NDJSON tick line {instrument, time, bid, ask, closeoutBid, closeoutAsk, bids,
asks} that v20sim serve --ticks and backtest --ticks replay (bids/asks keep the liquidity levels).
Reconnects with backoff when the connection drops or no line (price or heartbeat) arrives for
--heartbeat-timeout seconds; a price not newer than the last one written for its instrument is
skipped, so a reconnect writes no duplicate. Stops after --duration or --count, or on Ctrl-C.
The file is written as FILE.partial and renamed to FILE at the end; a FILE.partial left by an
interrupted run is continued.`;

const RECORD_AFTER = `
Example:
  OANDA_TOKEN=... v20sim record --account 101-004-1234567-001 --instrument EUR_USD,USD_JPY \\
    --out ticks.ndjson --duration 3600

Exit codes: 0 done (duration, count or a signal), 1 the stream failed (unreachable server,
refused token or account, reconnects exhausted), 2 invalid options.`;

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function downloadCommand(): Command {
  const download = new Command('download').summary('download candles from a v20 server').usage('candles [options]');
  download
    .command('candles')
    .summary('download bid/ask candles into an NDJSON or CSV file')
    .usage('--instrument NAME --granularity G --from DATETIME --to DATETIME --out FILE [options]')
    .description(DOWNLOAD_CANDLES_DESCRIPTION)
    .option('--url <url>', 'v20 REST base URL (default https://api-fxpractice.oanda.com, OANDA practice)')
    .option('--token <token>', 'API token (default: the OANDA_TOKEN or V20_TOKEN environment variable)')
    .option('--instrument <name>', 'instrument, e.g. EUR_USD (repeatable, or a comma-separated list)', collect)
    .option('--granularity <g>', 'S5, S10, S15, S30, M1, M2, M4, M5, M10, M15, M30, H1, H2, H3, H4, H6, H8, H12, D, W or M')
    .option('--from <datetime>', 'first candle time, inclusive (RFC3339 with a zone, YYYY-MM-DD for midnight UTC, or UNIX seconds)')
    .option('--to <datetime>', 'end, exclusive (same forms)')
    .option('--out <file>', 'output file (FILE.partial while downloading)')
    .option('--format <fmt>', 'ndjson or csv (default: csv for a .csv file name, else ndjson)')
    .option('--mid', 'mid prices too (price=MBA)')
    .option('--include-incomplete', 'keep the candle still forming (complete: false) at the end')
    .option('--retries <n>', 'retries of a failed request (429, 5xx, network) before giving up (default 6)')
    .addOption(new Option('--page-size <n>', 'candles per request (default 5000)').hideHelp())
    .addOption(new Option('--retry-base-ms <ms>', 'first backoff wait (default 1000)').hideHelp())
    .addHelpText('after', DOWNLOAD_CANDLES_AFTER);
  return download;
}

export function recordCommand(): Command {
  return new Command('record')
    .summary('record a v20 pricing stream as a tick file')
    .usage('--account ID --instrument NAME --out FILE [--duration SECONDS | --count N] [options]')
    .description(RECORD_DESCRIPTION)
    .option('--url <url>', 'v20 REST base URL; the stream URL when --stream-url is absent (v20sim serves both on one port)')
    .option('--stream-url <url>', 'v20 stream base URL (default: --url, else https://stream-fxpractice.oanda.com)')
    .option('--token <token>', 'API token (default: the OANDA_TOKEN or V20_TOKEN environment variable)')
    .option('--account <id>', 'account ID whose pricing stream to read')
    .option('--instrument <name>', 'instrument, e.g. EUR_USD (repeatable, or a comma-separated list)', collect)
    .option('--out <file>', 'output NDJSON tick file (FILE.partial while recording)')
    .option('--duration <seconds>', 'stop after this many seconds')
    .option('--count <n>', 'stop after this many ticks')
    .option('--heartbeat-timeout <seconds>', 'reconnect when no line arrives for this long (default 15: 3 of v20 heartbeats 5 s apart)')
    .option('--retries <n>', 'reconnect attempts in a row before giving up (default 10)')
    .addOption(new Option('--retry-base-ms <ms>', 'first backoff wait (default 1000)').hideHelp())
    .addHelpText('after', RECORD_AFTER);
}

import { ConfigError, checkFormat, checkSpeed, checkStart, parseSeed, type ClockMode, type ServeArgs, CLOCK_MODES } from './config.js';

export const SERVE_USAGE = `Usage: v20sim serve [options]

Starts an OANDA v20 compatible paper-trading server (REST and streams on one port).
With no options: two demo accounts (USD, EUR), a printed token, seeded prices for the
major pairs paced in real time, on http://127.0.0.1:8080.

Options:
  --config FILE          JSON or YAML config: accounts, tokens, instruments, prices, clock, ...
  --host HOST            interface to listen on (default 127.0.0.1)
  --port N               port (default 8080; 0 picks a free one)
  --data-dir DIR         journal every transaction to DIR and restore from it on start
  --fsync                fdatasync each journal write (survives power loss, slower)
  --ticks FILE...        replay recorded ticks (csv, ndjson, lean, truefx, histdata; .gz/.zip)
  --format FMT           format of the --ticks files (default: detected)
  --instrument NAME      instrument of --ticks files whose lines do not name one
  --generator SEED       seeded generated prices (default in live mode: seed 1, major pairs)
  --no-generator         live mode without generated prices (push ticks via /sim/ticks)
  --clock MODE           live (wall clock), replay (tick times at --speed), or manual
                         (only /sim/clock/advance and /sim/ticks move time); default:
                         replay with --ticks, else live
  --speed N|max          replay speed factor (default 1 = real time)
  --seed SEED            run seed, recorded with the run (default 1)
  --start DATETIME       simulated start time for replay/manual (RFC3339)
  --token TOKEN          API token for every account (default: configured or random)
  --admin-token TOKEN    token of the /sim control API (default: configured or random)
  -h, --help             this help

The first line printed is "listening <base URL>".
Exit codes: 0 stopped by a signal, 1 runtime failure, 2 invalid options or config.`;

export const MAIN_USAGE = `Usage: v20sim <command> [options]

Commands:
  serve       run the v20 paper-trading server (v20sim serve --help)
  backtest    run a strategy over tick files (v20sim backtest --help)
  scenario    run or check scenario files (v20sim scenario --help)

Options:
  -h, --help       this help
  -v, --version    print the version`;

function usageError(flag: string, why: string): ConfigError {
  return new ConfigError(flag, why, 'options');
}

const VALUE_FLAGS = new Set([
  '--config', '--host', '--port', '--data-dir', '--format', '--instrument', '--generator', '--clock', '--speed', '--seed',
  '--start', '--token', '--admin-token',
]);

/** Parses the arguments after `serve`. Accepts `--flag value` and `--flag=value`. */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const out: ServeArgs = {};
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') {
      out.help = true;
      continue;
    }
    if (!arg.startsWith('--')) throw usageError(arg, 'unexpected argument (see v20sim serve --help)');
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    if (seen.has(flag)) throw usageError(flag, 'given twice');
    seen.add(flag);
    if (flag === '--fsync' || flag === '--no-generator') {
      if (inline !== undefined) throw usageError(flag, 'takes no value');
      if (flag === '--fsync') out.fsync = true;
      else out.noGenerator = true;
      continue;
    }
    if (flag === '--ticks') {
      const files: string[] = inline === undefined ? [] : [inline];
      while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('-')) files.push(argv[(i += 1)] as string);
      if (files.length === 0 || files.some((f) => f === '')) throw usageError(flag, 'needs at least one file');
      out.ticks = files;
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) throw usageError(flag, 'unknown option (see v20sim serve --help)');
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw usageError(flag, 'needs a value');
      value = next;
      i += 1;
    }
    try {
      applyValue(out, flag, value);
    } catch (error) {
      if (error instanceof ConfigError) throw usageError(flag, error.why);
      throw error;
    }
  }
  return out;
}

function applyValue(out: ServeArgs, flag: string, value: string): void {
  switch (flag) {
    case '--config': out.config = value; return;
    case '--host':
      if (value === '') throw usageError(flag, 'needs a host name or address');
      out.host = value;
      return;
    case '--port': {
      const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
      if (!(port >= 0 && port <= 65_535)) throw usageError(flag, `must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
      out.port = port;
      return;
    }
    case '--data-dir':
      if (value === '') throw usageError(flag, 'needs a directory');
      out.dataDir = value;
      return;
    case '--format': out.format = checkFormat(value, flag); return;
    case '--instrument': out.instrument = value; return;
    case '--generator':
    case '--seed': {
      const seed = parseSeed(value);
      if (seed === null) throw usageError(flag, `must be an integer or a word, got ${JSON.stringify(value)}`);
      if (flag === '--seed') out.seed = seed;
      else out.generator = seed;
      return;
    }
    case '--clock':
      if (!CLOCK_MODES.includes(value as ClockMode)) throw usageError(flag, `must be one of ${CLOCK_MODES.join(', ')}, got ${JSON.stringify(value)}`);
      out.clock = value as ClockMode;
      return;
    case '--speed': out.speed = checkSpeed(value, flag); return;
    case '--start': out.start = checkStart(value, flag); return;
    case '--token': out.token = value; return;
    case '--admin-token': out.adminToken = value; return;
  }
}

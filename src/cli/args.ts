import { ConfigError, checkFormat, checkSpeed, checkStart, parseSeed, type ClockMode, type ServeArgs, CLOCK_MODES } from './config.js';
import { parseArgv, serveUsageWhy, type Parsed } from './program.js';

type RunParsed = Extract<Parsed, { kind: 'run' }>;

function usageError(flag: string, why: string): ConfigError {
  return new ConfigError(flag, why, 'options');
}

/** Parses the arguments after `serve` (see program.ts for the options); throws ConfigError on bad usage. */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const parsed = parseArgv(['serve', ...argv]);
  if (parsed.kind === 'print') return { help: true };
  if (parsed.kind === 'usage') throw usageError(parsed.flag, serveUsageWhy(parsed));
  return serveArgsOf(parsed);
}

const SERVE_VALUES: readonly [keyof ServeArgs, string][] = [
  ['config', '--config'],
  ['host', '--host'],
  ['port', '--port'],
  ['dataDir', '--data-dir'],
  ['format', '--format'],
  ['instrument', '--instrument'],
  ['generator', '--generator'],
  ['clock', '--clock'],
  ['speed', '--speed'],
  ['seed', '--seed'],
  ['start', '--start'],
  ['token', '--token'],
  ['adminToken', '--admin-token'],
];

/** The checked values of a parsed `serve` command line. */
export function serveArgsOf(parsed: RunParsed): ServeArgs {
  const out: ServeArgs = {};
  const options = parsed.options;
  if (parsed.given.has('--fsync')) out.fsync = true;
  if (parsed.given.has('--no-generator')) {
    // Both set one commander value; the last would win silently.
    if (parsed.given.has('--generator')) throw usageError('--generator', 'give either --generator or --no-generator');
    out.noGenerator = true;
  }
  const ticks = options['ticks'] as string[] | undefined;
  if (ticks !== undefined) {
    if (ticks.length === 0 || ticks.some((f) => f === '')) throw usageError('--ticks', 'needs at least one file');
    out.ticks = ticks;
  }
  for (const [key, flag] of SERVE_VALUES) {
    const value = options[key];
    if (typeof value !== 'string') continue;
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
    case '--config':
      out.config = value;
      return;
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
    case '--format':
      out.format = checkFormat(value, flag);
      return;
    case '--instrument':
      out.instrument = value;
      return;
    case '--generator':
    case '--seed': {
      const seed = parseSeed(value);
      if (seed === null) throw usageError(flag, `must be an integer or a word, got ${JSON.stringify(value)}`);
      if (flag === '--seed') out.seed = seed;
      else out.generator = seed;
      return;
    }
    case '--clock':
      if (!CLOCK_MODES.includes(value as ClockMode))
        throw usageError(flag, `must be one of ${CLOCK_MODES.join(', ')}, got ${JSON.stringify(value)}`);
      out.clock = value as ClockMode;
      return;
    case '--speed':
      out.speed = checkSpeed(value, flag);
      return;
    case '--start':
      out.start = checkStart(value, flag);
      return;
    case '--token':
      out.token = value;
      return;
    case '--admin-token':
      out.adminToken = value;
      return;
  }
}

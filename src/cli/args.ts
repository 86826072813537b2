import { API_LIMIT_NAMES, type ApiLimitName, type ApiLimits } from '../api/limits.js';
import { ENUM_SPELLINGS, type EnumSpelling } from '../domain/enum-spelling.js';
import {
  ConfigError,
  checkFormat,
  checkSpeed,
  checkStart,
  checkTime,
  checkThrottleMs,
  parseSeed,
  type ClockMode,
  type ServeArgs,
  CLOCK_MODES,
} from './config.js';
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

/** The options of `serve` that take a value (the others are flags or a list). */
type ValueKey = Exclude<keyof ServeArgs, 'fsync' | 'recoverTruncated' | 'noGenerator' | 'ticks' | 'help' | 'limit' | 'noLimits'>;

/** Checks an option's text and gives its value; throws ConfigError naming `flag`. */
type ValueCheck<T> = (value: string, flag: string) => T;

function asGiven(value: string): string {
  return value;
}

function nonEmpty(why: string): ValueCheck<string> {
  return (value, flag) => {
    if (value === '') throw usageError(flag, why);
    return value;
  };
}

function portNumber(value: string, flag: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) throw usageError(flag, `must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}

function seedValue(value: string, flag: string): number | string {
  const seed = parseSeed(value);
  if (seed === null) throw usageError(flag, `must be an integer or a word, got ${JSON.stringify(value)}`);
  return seed;
}

function clockMode(value: string, flag: string): ClockMode {
  if (!CLOCK_MODES.includes(value as ClockMode))
    throw usageError(flag, `must be one of ${CLOCK_MODES.join(', ')}, got ${JSON.stringify(value)}`);
  return value as ClockMode;
}

function enumSpelling(value: string, flag: string): EnumSpelling {
  if (!ENUM_SPELLINGS.includes(value as EnumSpelling))
    throw usageError(flag, `must be one of ${ENUM_SPELLINGS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as EnumSpelling;
}

function baseUrl(value: string, flag: string): string {
  if (!/^https?:\/\/[^\s/?#@]+\/?$/.test(value))
    throw usageError(flag, `must be http://host[:port] or https://host[:port], got ${JSON.stringify(value)}`);
  return value.replace(/\/+$/, '');
}

function hostList(value: string, flag: string): readonly string[] | '*' {
  if (value === '*') return '*';
  const names = value.split(',').map((h) => h.trim());
  for (const name of names)
    if (!/^[A-Za-z0-9_.:[\]-]{1,255}$/.test(name))
      throw usageError(flag, `must be * or comma-separated host names, got ${JSON.stringify(value)}`);
  return names;
}

/** `--limit name=value` options, each a limit of api/limits.ts and an integer (0 = none). */
function limitsOf(list: readonly string[]): ApiLimits {
  const out: Partial<Record<ApiLimitName, number>> = {};
  for (const item of list) {
    const [name = '', value = ''] = item.split('=', 2);
    if (!API_LIMIT_NAMES.includes(name as ApiLimitName))
      throw usageError('--limit', `must be name=value with a name of ${API_LIMIT_NAMES.join(', ')}, got ${JSON.stringify(item)}`);
    if (!/^\d{1,7}$/.test(value)) throw usageError('--limit', `${name} must be an integer from 0 to 9999999, got ${JSON.stringify(value)}`);
    out[name as ApiLimitName] = Number(value);
  }
  return out;
}

/** The value options of `serve` (commander's attribute name -> flag and check), checked in this order. */
const SERVE_VALUES: { readonly [K in ValueKey]: readonly [flag: string, check: ValueCheck<NonNullable<ServeArgs[K]>>] } = {
  config: ['--config', asGiven],
  host: ['--host', nonEmpty('needs a host name or address')],
  port: ['--port', portNumber],
  dataDir: ['--data-dir', nonEmpty('needs a directory')],
  format: ['--format', checkFormat],
  instrument: ['--instrument', asGiven],
  generator: ['--generator', seedValue],
  clock: ['--clock', clockMode],
  speed: ['--speed', checkSpeed],
  seed: ['--seed', seedValue],
  start: ['--start', checkStart],
  from: ['--from', checkTime],
  to: ['--to', checkTime],
  token: ['--token', asGiven],
  adminToken: ['--admin-token', asGiven],
  enumSpelling: ['--enum-spelling', enumSpelling],
  priceStreamThrottleMs: ['--price-stream-throttle-ms', checkThrottleMs],
  baseUrl: ['--base-url', baseUrl],
  allowedHosts: ['--allowed-hosts', hostList],
};

/** The checked values of a parsed `serve` command line. */
export function serveArgsOf(parsed: RunParsed): ServeArgs {
  const out: ServeArgs = {};
  const options = parsed.options;
  if (parsed.given.has('--fsync')) out.fsync = true;
  if (parsed.given.has('--recover-truncated')) out.recoverTruncated = true;
  if (parsed.given.has('--no-generator')) {
    // Both set one commander value; the last would win silently.
    if (parsed.given.has('--generator')) throw usageError('--generator', 'give either --generator or --no-generator');
    out.noGenerator = true;
  }
  if (parsed.given.has('--no-limits')) {
    if (parsed.given.has('--limit')) throw usageError('--limit', 'give either --limit or --no-limits');
    out.noLimits = true;
  }
  const limits = options['limit'] as string[] | undefined;
  if (limits !== undefined) out.limit = limitsOf(limits);
  const ticks = options['ticks'] as string[] | undefined;
  if (ticks !== undefined) {
    if (ticks.length === 0 || ticks.some((f) => f === '')) throw usageError('--ticks', 'needs at least one file');
    out.ticks = ticks;
  }
  for (const key of Object.keys(SERVE_VALUES) as ValueKey[]) {
    const value = options[key];
    if (typeof value === 'string') setValue(out, key, value);
  }
  return out;
}

function setValue<K extends ValueKey>(out: ServeArgs, key: K, value: string): void {
  const [flag, check] = SERVE_VALUES[key];
  try {
    out[key] = check(value, flag);
  } catch (error) {
    if (error instanceof ConfigError) throw usageError(flag, error.why);
    throw error;
  }
}

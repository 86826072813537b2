import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { AccountConfig } from '../account/state.js';
import type { TokenGrant } from '../api/context.js';
import type { ApiLimits } from '../api/limits.js';
import type { EnumSpelling } from '../domain/enum-spelling.js';
import { buildCatalogue, type InstrumentOverride, type InstrumentSpec } from '../domain/instruments.js';
import { MarketCalendar } from '../domain/market-hours.js';
import { LIMITS } from '../domain/limits.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import { FEED_FORMATS, type FeedFormat, type TickWindow } from '../engine/feeds/index.js';
import { checkAccountConfig } from '../v3/account-config.js';
import { CONFIG_FIELDS, ServeConfigSchema, type ServeConfigDocument } from './config-schema.js';
import { timeOption } from './remote-options.js';
import { describeValue, schemaChecker } from './schema-check.js';

/**
 * The serve configuration: a JSON (or YAML) file, command-line flags over it, defaults under both. Every
 * check names the field at fault; the CLI refuses to start (exit code 2) on the first one.
 */
export type ClockMode = 'live' | 'replay' | 'manual';
export const CLOCK_MODES: readonly ClockMode[] = ['live', 'replay', 'manual'];

export interface TickSource {
  readonly file: string;
  readonly format?: FeedFormat;
  readonly instrument?: string;
}

export interface GeneratorConfig {
  readonly seed?: number | string;
  readonly instruments?: readonly string[];
  readonly meanIntervalMs?: number;
  readonly historyDays?: number;
}

/** A config file after its checks: every field optional, paths resolved against its folder. */
export interface FileConfig {
  readonly accounts?: readonly AccountConfig[];
  readonly tokens?: readonly TokenGrant[];
  readonly adminToken?: string;
  readonly instruments?: readonly InstrumentOverride[];
  readonly ticks?: readonly TickSource[];
  readonly generator?: GeneratorConfig | false;
  readonly clock?: ClockMode;
  readonly speed?: number;
  readonly seed?: number | string;
  readonly start?: Micros;
  /** A period of the tick files: from (inclusive), to (exclusive). */
  readonly from?: Micros;
  readonly to?: Micros;
  readonly host?: string;
  readonly port?: number;
  readonly dataDir?: string;
  readonly fsync?: boolean;
  readonly recoverTruncated?: boolean;
  readonly heartbeatMs?: number;
  readonly enumSpelling?: EnumSpelling;
  readonly transactionsInMemory?: number;
  readonly recordsInMemory?: number;
  readonly priceStreamThrottleMs?: number;
  readonly baseUrl?: string;
  readonly allowedHosts?: readonly string[] | '*';
  /** false: no limits; an object: these limits over the defaults. */
  readonly limits?: ApiLimits | false;
}

/** Command-line options of `serve` (see args.ts); each overrides the file's field. */
export interface ServeArgs {
  config?: string;
  host?: string;
  port?: number;
  dataDir?: string;
  fsync?: boolean;
  recoverTruncated?: boolean;
  ticks?: string[];
  format?: FeedFormat;
  instrument?: string;
  generator?: number | string;
  noGenerator?: boolean;
  clock?: ClockMode;
  speed?: number;
  seed?: number | string;
  start?: Micros;
  from?: Micros;
  to?: Micros;
  token?: string;
  adminToken?: string;
  enumSpelling?: EnumSpelling;
  priceStreamThrottleMs?: number;
  baseUrl?: string;
  allowedHosts?: readonly string[] | '*';
  limit?: ApiLimits;
  noLimits?: boolean;
  help?: boolean;
}

export interface GeneratorSettings {
  readonly seed: number | string;
  readonly instruments: readonly string[];
  readonly meanIntervalMicros: number;
  /** Days of generated quotes before the start that the candles begin with (GENERATOR_HISTORY_DAYS unless configured). */
  readonly historyDays: number;
}

/** Everything `serve` needs, resolved. */
export interface ServeSettings {
  readonly host: string;
  readonly port: number;
  readonly dataDir?: string;
  readonly fsync: boolean;
  /** Start even if a journal lost acknowledged transactions, recording the loss (recoveries.ndjson). */
  readonly recoverTruncated: boolean;
  readonly accounts: readonly AccountConfig[];
  readonly tokens: readonly TokenGrant[];
  /** Tokens made up at start (printed, since nobody else knows them). */
  readonly generatedTokens: readonly string[];
  readonly adminToken: string;
  readonly adminTokenGenerated: boolean;
  readonly instruments: readonly InstrumentOverride[];
  readonly ticks: readonly TickSource[];
  readonly generator?: GeneratorSettings;
  readonly clock: ClockMode;
  /** Replay speed factor; Infinity replays as fast as the engine goes. */
  readonly speed: number;
  readonly seed: number | string;
  readonly start?: Micros;
  /** The period of the tick files replayed; absent: all of them. */
  readonly window?: TickWindow;
  readonly heartbeatMs?: number;
  /** The newest transactions each account keeps in memory; older ones are read from the journal. */
  readonly transactionsInMemory: number;
  /** With a data dir, the newest ended orders, and closed trades, each account keeps in memory; older ones are paged to DATA_DIR/.records. */
  readonly recordsInMemory: number;
  /** How Order resources spell DEFAULT values (domain/enum-spelling.ts); unset: the interface's. */
  readonly enumSpelling?: EnumSpelling;
  /** The pricing stream's window in simulated ms (ApiOptions.priceStreamThrottleMs). */
  readonly priceStreamThrottleMs?: number;
  readonly baseUrl?: string;
  readonly allowedHosts?: readonly string[] | '*';
  /** The API's limits (api/limits.ts); undefined: none (--no-limits, `"limits": false`). */
  readonly limits?: Required<ApiLimits>;
  readonly configFile?: string;
}

export class ConfigError extends Error {
  constructor(
    readonly field: string,
    readonly why: string,
    readonly source = 'config',
  ) {
    super(`${source}: ${field === '' ? '' : `${field}: `}${why}`);
    this.name = 'ConfigError';
  }
}

/** Days of generated quotes before a generator's start that its candles begin with by default (the API's candles; not traded). */
export const GENERATOR_HISTORY_DAYS = 7;

export const MAJOR_PAIRS: readonly string[] = ['EUR_USD', 'GBP_USD', 'USD_JPY', 'USD_CHF', 'AUD_USD', 'USD_CAD', 'NZD_USD'];

export const DEFAULT_ACCOUNTS: readonly AccountConfig[] = [
  { id: '101-004-1000000-001', currency: 'USD', alias: 'Demo USD', balance: '100000' },
  { id: '101-004-1000000-002', currency: 'EUR', alias: 'Demo EUR', balance: '100000' },
];

export const DEFAULT_HOST = '127.0.0.1';
/**
 * Transactions an account keeps in memory in serve: at 0.5-1 KB each, 10,000 are 5-10 MB an
 * account, and the newest 10,000 cover every read a client makes in practice (sinceid and changes
 * reach back at most 1,000); older ones are read from the journal.
 */
export const DEFAULT_TRANSACTIONS_IN_MEMORY = 10_000;
/** Ended orders, and closed trades, an account of a server with a data dir keeps in memory by default. */
export const DEFAULT_RECORDS_IN_MEMORY = 50_000;
export const DEFAULT_PORT = 8080;
export const TOKEN_RE = /^\S{1,512}$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A seed: a safe integer, or a non-empty string (digits only become a number). */
export function parseSeed(value: unknown): number | string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) return null;
  if (/^-?\d{1,15}$/.test(value)) return Number(value);
  return value;
}

export function checkSpeed(value: unknown, field: string): number {
  if (value === 'max') return Number.POSITIVE_INFINITY;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1e9) {
    throw new ConfigError(field, `must be a positive number (1 = real time) or "max", got ${describeValue(value)}`);
  }
  return value;
}

/** The pricing stream's window: whole simulated milliseconds, 0 to 60,000 (the config schema's range). */
export function checkThrottleMs(value: unknown, field: string): number {
  if (typeof value === 'string' && /^\d{1,6}$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 60_000)
    throw new ConfigError(field, `must be an integer from 0 to 60000 (milliseconds; 0 = every price), got ${describeValue(value)}`);
  return value;
}

export function checkStart(value: unknown, field: string): Micros {
  const t = typeof value === 'string' ? parseDateTime(value, 'RFC3339') : null;
  if (t === null) throw new ConfigError(field, `must be an RFC3339 DateTime such as "2024-01-02T00:00:00Z", got ${describeValue(value)}`);
  return t;
}

/** A period's end as the CLI's --from/--to take it (remote-options.ts timeOption). */
export function checkTime(value: unknown, field: string): Micros {
  const t = typeof value === 'string' ? timeOption(value) : null;
  if (t === null)
    throw new ConfigError(
      field,
      `must be an RFC3339 DateTime with a zone ("2024-01-02T00:00:00Z"), a date ("2024-01-02") or UNIX seconds, got ${describeValue(value)}`,
    );
  return t;
}

export function checkFormat(value: unknown, field: string): FeedFormat {
  if (typeof value !== 'string' || !FEED_FORMATS.includes(value as FeedFormat)) {
    throw new ConfigError(field, `must be one of ${FEED_FORMATS.join(', ')}, got ${describeValue(value)}`);
  }
  return value as FeedFormat;
}

const checkShape = schemaChecker(ServeConfigSchema, (segments) =>
  segments.length === 1 ? `unknown field (expected one of ${CONFIG_FIELDS.join(', ')})` : 'unknown field',
);

/** The instrument overrides (shape checked by the schema) and the catalogue they make. */
function checkInstruments(list: readonly Json[]): { overrides: InstrumentOverride[]; catalogue: ReadonlyMap<string, InstrumentSpec> } {
  list.forEach((value, i) => {
    const rate = value['marginRate'];
    if (typeof rate === 'string' && !(Number(rate) > 0 && Number(rate) <= 1))
      throw new ConfigError(`instruments[${i}].marginRate`, `must be in (0, 1], got ${describeValue(rate)}`);
  });
  const overrides = list as unknown as InstrumentOverride[];
  let catalogue: ReadonlyMap<string, InstrumentSpec>;
  try {
    catalogue = buildCatalogue(overrides);
  } catch (error) {
    throw new ConfigError('instruments', (error as Error).message);
  }
  overrides.forEach((o, i) => {
    try {
      MarketCalendar.check(o.marketHours);
    } catch (error) {
      throw new ConfigError(`instruments[${i}].marketHours`, (error as Error).message);
    }
  });
  if (catalogue.size > LIMITS.instrumentsPerEngine)
    throw new ConfigError('instruments', `at most ${LIMITS.instrumentsPerEngine} instruments`);
  return { overrides, catalogue };
}

/** Account settings are checked where the /sim API checks them (v3/account-config.ts); `hedging` is the config file's name for hedgingEnabled. */
function checkAccounts(list: readonly unknown[], catalogue: ReadonlyMap<string, InstrumentSpec>): AccountConfig[] {
  if (list.length > LIMITS.accountsPerEngine) throw new ConfigError('accounts', `at most ${LIMITS.accountsPerEngine} accounts`);
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const at = `accounts[${i}]`;
    let value = raw;
    const aliased = isObject(raw) && 'hedging' in raw;
    if (aliased) {
      if ('hedgingEnabled' in raw) throw new ConfigError(`${at}.hedging`, 'give hedging or hedgingEnabled, not both');
      const { hedging, ...rest } = raw;
      value = { ...rest, hedgingEnabled: hedging };
    }
    const checked = checkAccountConfig(value, catalogue);
    if ('why' in checked) {
      const field = checked.field === 'hedgingEnabled' && aliased ? 'hedging' : checked.field;
      throw new ConfigError(field === '' ? at : `${at}.${field}`, checked.why);
    }
    if (seen.has(checked.id)) throw new ConfigError(`${at}.id`, `${checked.id} appears twice`);
    seen.add(checked.id);
    return checked;
  });
}

function checkTokens(list: readonly (string | { token: string; accounts?: '*' | string[] })[]): TokenGrant[] {
  const seen = new Set<string>();
  return list.map((entry, i) => {
    const grant = typeof entry === 'string' ? { token: entry } : entry;
    if (seen.has(grant.token)) throw new ConfigError(`tokens[${i}].token`, 'appears twice');
    seen.add(grant.token);
    return { token: grant.token, accounts: grant.accounts ?? '*' };
  });
}

function tickSources(value: string | readonly (string | TickSource)[], base: string): TickSource[] {
  const list = typeof value === 'string' ? [value] : value;
  return list.map((s) => (typeof s === 'string' ? { file: resolve(base, s) } : { ...s, file: resolve(base, s.file) }));
}

function generatorOf(
  value: false | { seed?: number | string; instruments?: string[]; meanIntervalMs?: number; historyDays?: number },
): GeneratorConfig | false {
  if (value === false) return false;
  const { seed, ...rest } = value;
  return seed === undefined ? rest : { ...rest, seed: parseSeed(seed) as number | string };
}

/** Checks a parsed config document; relative paths resolve against `base` (the file's folder). */
export function checkConfig(doc: unknown, base: string): FileConfig {
  const fault = checkShape(doc);
  if (fault !== null) throw new ConfigError(fault.field, fault.why);
  // The schema has checked every field's shape: what is left needs the catalogue or several fields.
  const d = doc as ServeConfigDocument;
  const out: { -readonly [K in keyof FileConfig]: FileConfig[K] } = {};
  let catalogue: ReadonlyMap<string, InstrumentSpec> = buildCatalogue();
  if (d.instruments !== undefined) ({ overrides: out.instruments, catalogue } = checkInstruments(d.instruments));
  if (d.accounts !== undefined) out.accounts = checkAccounts(d.accounts, catalogue);
  if (d.tokens !== undefined) out.tokens = checkTokens(d.tokens);
  if (d.adminToken !== undefined) out.adminToken = d.adminToken;
  if (d.ticks !== undefined) out.ticks = tickSources(d.ticks, base);
  if (d.generator !== undefined) out.generator = generatorOf(d.generator);
  if (d.clock !== undefined) out.clock = d.clock;
  if (d.speed !== undefined) out.speed = checkSpeed(d.speed, 'speed');
  if (d.seed !== undefined) out.seed = parseSeed(d.seed) as number | string;
  if (d.start !== undefined) out.start = checkStart(d.start, 'start');
  if (d.from !== undefined) out.from = checkTime(d.from, 'from');
  if (d.to !== undefined) out.to = checkTime(d.to, 'to');
  if (d.host !== undefined) out.host = d.host;
  if (d.port !== undefined) out.port = d.port;
  if (d.dataDir !== undefined) out.dataDir = resolve(base, d.dataDir);
  if (d.fsync !== undefined) out.fsync = d.fsync;
  if (d.recoverTruncated !== undefined) out.recoverTruncated = d.recoverTruncated;
  if (d.heartbeatMs !== undefined) out.heartbeatMs = d.heartbeatMs;
  if (d.enumSpelling !== undefined) out.enumSpelling = d.enumSpelling;
  if (d.transactionsInMemory !== undefined) out.transactionsInMemory = d.transactionsInMemory;
  if (d.recordsInMemory !== undefined) out.recordsInMemory = d.recordsInMemory;
  if (d.priceStreamThrottleMs !== undefined) out.priceStreamThrottleMs = d.priceStreamThrottleMs;
  if (d.baseUrl !== undefined) out.baseUrl = d.baseUrl.replace(/\/+$/, '');
  if (d.allowedHosts !== undefined) out.allowedHosts = d.allowedHosts;
  if (d.limits !== undefined) out.limits = d.limits;
  return out;
}

/** Reads and checks a config file: JSON, or YAML when it is named *.yaml or *.yml. */
export function loadConfigFile(file: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError('', `cannot read ${file}: ${(error as Error).message}`, 'config');
  }
  const yaml = ['.yaml', '.yml'].includes(extname(file).toLowerCase());
  let doc: unknown;
  try {
    // YAML's core schema: dates and account IDs stay strings, as in JSON.
    doc = yaml ? parseYaml(text, { schema: 'core', uniqueKeys: true }) : JSON.parse(text);
  } catch (error) {
    throw new ConfigError('', `${file} is not valid ${yaml ? 'YAML' : 'JSON'}: ${(error as Error).message}`, 'config');
  }
  try {
    return checkConfig(doc, dirname(resolve(file)));
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(error.field, error.why, `config ${file}`);
    throw error;
  }
}

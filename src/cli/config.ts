import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { AccountConfig } from '../account/state.js';
import type { TokenGrant } from '../api/context.js';
import { checkAccountConfig } from '../v3/account-config.js';
import { isDecimalString } from '../domain/decimal.js';
import { buildCatalogue, isInstrumentName, type InstrumentOverride, type InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import { FEED_FORMATS, type FeedFormat } from '../engine/feeds/index.js';

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
  readonly host?: string;
  readonly port?: number;
  readonly dataDir?: string;
  readonly fsync?: boolean;
  readonly heartbeatMs?: number;
}

/** Command-line options of `serve` (see args.ts); each overrides the file's field. */
export interface ServeArgs {
  config?: string;
  host?: string;
  port?: number;
  dataDir?: string;
  fsync?: boolean;
  ticks?: string[];
  format?: FeedFormat;
  instrument?: string;
  generator?: number | string;
  noGenerator?: boolean;
  clock?: ClockMode;
  speed?: number;
  seed?: number | string;
  start?: Micros;
  token?: string;
  adminToken?: string;
  help?: boolean;
}

export interface GeneratorSettings {
  readonly seed: number | string;
  readonly instruments: readonly string[];
  readonly meanIntervalMicros: number;
}

/** Everything `serve` needs, resolved. */
export interface ServeSettings {
  readonly host: string;
  readonly port: number;
  readonly dataDir?: string;
  readonly fsync: boolean;
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
  readonly heartbeatMs?: number;
  readonly configFile?: string;
}

export class ConfigError extends Error {
  constructor(readonly field: string, readonly why: string, readonly source = 'config') {
    super(`${source}: ${field === '' ? '' : `${field}: `}${why}`);
    this.name = 'ConfigError';
  }
}

export const MAJOR_PAIRS: readonly string[] = ['EUR_USD', 'GBP_USD', 'USD_JPY', 'USD_CHF', 'AUD_USD', 'USD_CAD', 'NZD_USD'];

export const DEFAULT_ACCOUNTS: readonly AccountConfig[] = [
  { id: '101-004-1000000-001', currency: 'USD', alias: 'Demo USD', balance: '100000' },
  { id: '101-004-1000000-002', currency: 'EUR', alias: 'Demo EUR', balance: '100000' },
];

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;
const DEFAULT_MEAN_INTERVAL_MS = 250;
const TOKEN_RE = /^\S{1,512}$/;
const TOP_LEVEL = new Set([
  'accounts', 'tokens', 'adminToken', 'instruments', 'ticks', 'generator', 'clock', 'speed', 'seed', 'start',
  'host', 'port', 'dataDir', 'fsync', 'heartbeatMs',
]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A seed: a safe integer, or a non-empty string (digits only become a number). */
export function parseSeed(value: unknown): number | string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) return null;
  if (/^-?\d{1,15}$/.test(value)) return Number(value);
  return value;
}

function checkInteger(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(field, `must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
  return value;
}

function checkString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new ConfigError(field, `must be a non-empty string, got ${describe(value)}`);
  return value;
}

function checkArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new ConfigError(field, `must be an array, got ${describe(value)}`);
  return value;
}

export function checkSpeed(value: unknown, field: string): number {
  if (value === 'max') return Number.POSITIVE_INFINITY;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1e9) {
    throw new ConfigError(field, `must be a positive number (1 = real time) or "max", got ${describe(value)}`);
  }
  return value;
}

export function checkStart(value: unknown, field: string): Micros {
  const t = typeof value === 'string' ? parseDateTime(value, 'RFC3339') : null;
  if (t === null) throw new ConfigError(field, `must be an RFC3339 DateTime such as "2024-01-02T00:00:00Z", got ${describe(value)}`);
  return t;
}

function checkClock(value: unknown, field: string): ClockMode {
  if (typeof value !== 'string' || !CLOCK_MODES.includes(value as ClockMode)) {
    throw new ConfigError(field, `must be one of ${CLOCK_MODES.join(', ')}, got ${describe(value)}`);
  }
  return value as ClockMode;
}

export function checkFormat(value: unknown, field: string): FeedFormat {
  if (typeof value !== 'string' || !FEED_FORMATS.includes(value as FeedFormat)) {
    throw new ConfigError(field, `must be one of ${FEED_FORMATS.join(', ')}, got ${describe(value)}`);
  }
  return value as FeedFormat;
}

function checkInstrumentName(value: unknown, field: string): string {
  if (!isInstrumentName(value)) throw new ConfigError(field, `must be an instrument name such as EUR_USD, got ${describe(value)}`);
  return value;
}

const DECIMAL_FIELDS = ['minimumTradeSize', 'maximumTrailingStopDistance', 'minimumTrailingStopDistance', 'maximumPositionSize', 'maximumOrderUnits', 'marginRate'] as const;
const INTEGER_FIELDS = { pipLocation: [-10, 10], displayPrecision: [0, 10], tradeUnitsPrecision: [0, 10] } as const;
const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

function checkNonNegativeDecimal(value: unknown, field: string): string {
  if (!isDecimalString(value) || value.startsWith('-')) throw new ConfigError(field, `must be a non-negative decimal string, got ${describe(value)}`);
  return value;
}

function checkInstrument(value: unknown, field: string): InstrumentOverride {
  if (!isObject(value)) throw new ConfigError(field, 'must be an object with at least a name');
  const name = checkInstrumentName(value['name'], `${field}.name`);
  const out: Record<string, unknown> = { name };
  for (const [key, v] of Object.entries(value)) {
    const at = `${field}.${key}`;
    if (key === 'name') continue;
    if (key === 'type') {
      if (v !== 'CURRENCY' && v !== 'CFD' && v !== 'METAL') throw new ConfigError(at, `must be CURRENCY, CFD or METAL, got ${describe(v)}`);
      out[key] = v;
    } else if (key === 'displayName') {
      out[key] = checkString(v, at);
    } else if (key in INTEGER_FIELDS) {
      const [min, max] = INTEGER_FIELDS[key as keyof typeof INTEGER_FIELDS];
      out[key] = checkInteger(v, at, min, max);
    } else if ((DECIMAL_FIELDS as readonly string[]).includes(key)) {
      const text = checkNonNegativeDecimal(v, at);
      if (key === 'marginRate' && (Number(text) <= 0 || Number(text) > 1)) throw new ConfigError(at, `must be in (0, 1], got ${describe(v)}`);
      out[key] = text;
    } else if (key === 'financing') {
      if (!isObject(v)) throw new ConfigError(at, 'must be an object {longRate, shortRate, financingDaysOfWeek}');
      for (const k of Object.keys(v)) if (!['longRate', 'shortRate', 'financingDaysOfWeek'].includes(k)) throw new ConfigError(`${at}.${k}`, 'unknown field');
      for (const k of ['longRate', 'shortRate']) if (!isDecimalString(v[k])) throw new ConfigError(`${at}.${k}`, `must be a decimal string, got ${describe(v[k])}`);
      const days = checkArray(v['financingDaysOfWeek'], `${at}.financingDaysOfWeek`);
      days.forEach((d, i) => {
        const dayAt = `${at}.financingDaysOfWeek[${i}]`;
        if (!isObject(d) || !DAYS.includes(String(d['dayOfWeek']))) throw new ConfigError(`${dayAt}.dayOfWeek`, `must be one of ${DAYS.join(', ')}`);
        checkInteger(d['daysCharged'], `${dayAt}.daysCharged`, 0, 7);
      });
      out[key] = v;
    } else {
      throw new ConfigError(at, 'unknown field');
    }
  }
  return out as InstrumentOverride;
}

function checkTokens(value: unknown): TokenGrant[] {
  const list = checkArray(value, 'tokens');
  const seen = new Set<string>();
  return list.map((entry, i) => {
    const at = `tokens[${i}]`;
    const grant = typeof entry === 'string' ? { token: entry, accounts: '*' } : entry;
    if (!isObject(grant)) throw new ConfigError(at, 'must be a token string or {"token": "...", "accounts": ["101-..."] or "*"}');
    for (const key of Object.keys(grant)) if (key !== 'token' && key !== 'accounts') throw new ConfigError(`${at}.${key}`, 'unknown field');
    const token = grant['token'];
    if (typeof token !== 'string' || !TOKEN_RE.test(token)) throw new ConfigError(`${at}.token`, 'must be 1 to 512 characters without spaces');
    if (seen.has(token)) throw new ConfigError(`${at}.token`, 'appears twice');
    seen.add(token);
    const accounts = grant['accounts'] ?? '*';
    if (accounts === '*') return { token, accounts: '*' };
    const ids = checkArray(accounts, `${at}.accounts`).map((id, j) => checkString(id, `${at}.accounts[${j}]`));
    return { token, accounts: ids };
  });
}

function checkTickSource(value: unknown, field: string, base: string): TickSource {
  if (typeof value === 'string') return { file: resolve(base, checkString(value, field)) };
  if (!isObject(value)) throw new ConfigError(field, 'must be a file name or {"file", "format", "instrument"}');
  for (const key of Object.keys(value)) if (!['file', 'format', 'instrument'].includes(key)) throw new ConfigError(`${field}.${key}`, 'unknown field');
  const source: { file: string; format?: FeedFormat; instrument?: string } = { file: resolve(base, checkString(value['file'], `${field}.file`)) };
  if (value['format'] !== undefined) source.format = checkFormat(value['format'], `${field}.format`);
  if (value['instrument'] !== undefined) source.instrument = checkInstrumentName(value['instrument'], `${field}.instrument`);
  return source;
}

function checkGenerator(value: unknown): GeneratorConfig | false {
  if (value === false) return false;
  if (!isObject(value)) throw new ConfigError('generator', 'must be false or {"seed", "instruments", "meanIntervalMs"}');
  const out: { seed?: number | string; instruments?: string[]; meanIntervalMs?: number } = {};
  for (const [key, v] of Object.entries(value)) {
    const at = `generator.${key}`;
    if (key === 'seed') {
      const seed = parseSeed(v);
      if (seed === null) throw new ConfigError(at, `must be a safe integer or a non-empty string, got ${describe(v)}`);
      out.seed = seed;
    } else if (key === 'instruments') {
      const list = checkArray(v, at).map((name, i) => checkInstrumentName(name, `${at}[${i}]`));
      if (list.length === 0) throw new ConfigError(at, 'must name at least one instrument');
      out.instruments = list;
    } else if (key === 'meanIntervalMs') {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0.001 || v > 3_600_000) throw new ConfigError(at, `must be a number of milliseconds from 0.001 to 3600000, got ${describe(v)}`);
      out.meanIntervalMs = v;
    } else {
      throw new ConfigError(at, 'unknown field');
    }
  }
  return out;
}

/** Checks a parsed config document; relative paths resolve against `base` (the file's folder). */
export function checkConfig(doc: unknown, base: string): FileConfig {
  if (!isObject(doc)) throw new ConfigError('', 'the config must be a JSON object');
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL.has(key) && !key.startsWith('$') && !key.startsWith('//')) throw new ConfigError(key, `unknown field (expected one of ${[...TOP_LEVEL].join(', ')})`);
  }
  const out: { -readonly [K in keyof FileConfig]: FileConfig[K] } = {};
  let catalogue: ReadonlyMap<string, InstrumentSpec> = buildCatalogue();
  if (doc['instruments'] !== undefined) {
    const overrides = checkArray(doc['instruments'], 'instruments').map((v, i) => checkInstrument(v, `instruments[${i}]`));
    try {
      catalogue = buildCatalogue(overrides);
    } catch (error) {
      throw new ConfigError('instruments', (error as Error).message);
    }
    if (catalogue.size > LIMITS.instrumentsPerEngine) throw new ConfigError('instruments', `at most ${LIMITS.instrumentsPerEngine} instruments`);
    out.instruments = overrides;
  }
  if (doc['accounts'] !== undefined) {
    const list = checkArray(doc['accounts'], 'accounts');
    if (list.length > LIMITS.accountsPerEngine) throw new ConfigError('accounts', `at most ${LIMITS.accountsPerEngine} accounts`);
    const seen = new Set<string>();
    out.accounts = list.map((raw, i) => {
      const at = `accounts[${i}]`;
      let value = raw;
      if (isObject(raw) && 'hedging' in raw) {
        if ('hedgingEnabled' in raw) throw new ConfigError(`${at}.hedging`, 'give hedging or hedgingEnabled, not both');
        const { hedging, ...rest } = raw;
        value = { ...rest, hedgingEnabled: hedging };
      }
      const checked = checkAccountConfig(value, catalogue);
      if ('why' in checked) {
        const field = checked.field === 'hedgingEnabled' && isObject(raw) && 'hedging' in raw ? 'hedging' : checked.field;
        throw new ConfigError(field === '' ? at : `${at}.${field}`, checked.why);
      }
      if (seen.has(checked.id)) throw new ConfigError(`${at}.id`, `${checked.id} appears twice`);
      seen.add(checked.id);
      return checked;
    });
  }
  if (doc['tokens'] !== undefined) out.tokens = checkTokens(doc['tokens']);
  if (doc['adminToken'] !== undefined) {
    const token = doc['adminToken'];
    if (typeof token !== 'string' || !TOKEN_RE.test(token)) throw new ConfigError('adminToken', 'must be 1 to 512 characters without spaces');
    out.adminToken = token;
  }
  if (doc['ticks'] !== undefined) {
    const list = typeof doc['ticks'] === 'string' ? [doc['ticks']] : checkArray(doc['ticks'], 'ticks');
    out.ticks = list.map((v, i) => checkTickSource(v, `ticks[${i}]`, base));
  }
  if (doc['generator'] !== undefined) out.generator = checkGenerator(doc['generator']);
  if (doc['clock'] !== undefined) out.clock = checkClock(doc['clock'], 'clock');
  if (doc['speed'] !== undefined) out.speed = checkSpeed(doc['speed'], 'speed');
  if (doc['seed'] !== undefined) {
    const seed = parseSeed(doc['seed']);
    if (seed === null) throw new ConfigError('seed', `must be a safe integer or a non-empty string, got ${describe(doc['seed'])}`);
    out.seed = seed;
  }
  if (doc['start'] !== undefined) out.start = checkStart(doc['start'], 'start');
  if (doc['host'] !== undefined) out.host = checkString(doc['host'], 'host');
  if (doc['port'] !== undefined) out.port = checkInteger(doc['port'], 'port', 0, 65_535);
  if (doc['dataDir'] !== undefined) out.dataDir = resolve(base, checkString(doc['dataDir'], 'dataDir'));
  if (doc['fsync'] !== undefined) {
    if (typeof doc['fsync'] !== 'boolean') throw new ConfigError('fsync', 'must be true or false');
    out.fsync = doc['fsync'];
  }
  if (doc['heartbeatMs'] !== undefined) out.heartbeatMs = checkInteger(doc['heartbeatMs'], 'heartbeatMs', 100, 3_600_000);
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

/**
 * Flags over the file over the defaults, then the rules that tie fields together. `newToken` makes
 * up tokens nobody configured (the CLI passes a random one; tests a fixed one).
 */
export function resolveSettings(file: FileConfig, args: ServeArgs, newToken: () => string, configFile?: string): ServeSettings {
  const source = configFile === undefined ? 'options' : `config ${configFile}`;
  const fail = (field: string, why: string): never => {
    throw new ConfigError(field, why, source);
  };
  if (args.ticks !== undefined && args.generator !== undefined) fail('--ticks', 'give either --ticks or --generator, not both');
  if (args.noGenerator === true && args.generator !== undefined) fail('--generator', 'give either --generator or --no-generator');
  if (file.ticks !== undefined && file.ticks.length > 0 && file.generator !== undefined && file.generator !== false) {
    fail('generator', 'give either ticks or generator, not both');
  }
  // A price source on the command line replaces the file's.
  let ticks: readonly TickSource[] = file.ticks ?? [];
  let generatorConfig: GeneratorConfig | false | undefined = file.generator;
  if (args.ticks !== undefined) {
    ticks = args.ticks.map((f) => {
      const s: { file: string; format?: FeedFormat; instrument?: string } = { file: resolve(f) };
      if (args.format !== undefined) s.format = args.format;
      if (args.instrument !== undefined) s.instrument = args.instrument;
      return s;
    });
    generatorConfig = undefined;
  } else if (args.generator !== undefined) {
    generatorConfig = { ...(file.generator === false || file.generator === undefined ? {} : file.generator), seed: args.generator };
    ticks = [];
  } else if (args.noGenerator === true) {
    generatorConfig = false;
  }
  if (args.ticks === undefined && (args.format !== undefined || args.instrument !== undefined)) fail('--format', '--format and --instrument apply to --ticks files');

  const clock = args.clock ?? file.clock ?? (ticks.length > 0 ? 'replay' : 'live');
  const clockField = args.clock !== undefined ? '--clock' : 'clock';
  if (clock === 'live' && ticks.length > 0) {
    fail(clockField, 'live runs on the wall clock with generated or pushed prices; replay tick files with --clock replay (or step through them with --clock manual)');
  }
  const explicit: GeneratorConfig | undefined = generatorConfig === undefined || generatorConfig === false ? undefined : generatorConfig;
  const seed = args.seed ?? file.seed ?? explicit?.seed ?? 1;
  let generator: GeneratorSettings | undefined;
  // Live with no price source of its own gets the seeded majors; replay and manual only on request.
  if (explicit !== undefined || (clock === 'live' && generatorConfig === undefined && ticks.length === 0)) {
    generator = {
      seed: explicit?.seed ?? seed,
      instruments: explicit?.instruments ?? MAJOR_PAIRS,
      meanIntervalMicros: Math.max(1, Math.round((explicit?.meanIntervalMs ?? DEFAULT_MEAN_INTERVAL_MS) * 1000)),
    };
  }
  if (clock === 'replay' && ticks.length === 0 && generator === undefined) fail(clockField, 'replay needs prices: --ticks FILE... or --generator SEED');

  const speedGiven = args.speed ?? file.speed;
  if (speedGiven !== undefined && clock !== 'replay') fail(args.speed !== undefined ? '--speed' : 'speed', `applies to --clock replay only (the clock is ${clock})`);

  const catalogue = buildCatalogue(file.instruments ?? []);
  if (generator !== undefined) {
    generator.instruments.forEach((name, i) => {
      if (!catalogue.has(name)) fail(`generator.instruments[${i}]`, `${name} is not an instrument of this server`);
    });
  }
  for (const s of ticks) if (s.instrument !== undefined && !catalogue.has(s.instrument)) fail('--instrument', `${s.instrument} is not an instrument of this server`);

  const generatedTokens: string[] = [];
  let tokens: TokenGrant[] = [...(file.tokens ?? [])];
  if (args.token !== undefined) {
    if (!TOKEN_RE.test(args.token)) fail('--token', 'must be 1 to 512 characters without spaces');
    // Appended, so the config's tokens keep their indices in messages.
    tokens = [...tokens.filter((t) => t.token !== args.token), { token: args.token, accounts: '*' }];
  }
  if (tokens.length === 0) {
    const token = newToken();
    generatedTokens.push(token);
    tokens.push({ token, accounts: '*' });
  }
  let adminToken = args.adminToken ?? file.adminToken;
  const adminTokenGenerated = adminToken === undefined;
  if (adminToken !== undefined && !TOKEN_RE.test(adminToken)) fail('--admin-token', 'must be 1 to 512 characters without spaces');
  adminToken ??= newToken();

  const settings: {
    -readonly [K in keyof ServeSettings]: ServeSettings[K]
  } = {
    host: args.host ?? file.host ?? DEFAULT_HOST,
    port: args.port ?? file.port ?? DEFAULT_PORT,
    fsync: args.fsync ?? file.fsync ?? false,
    accounts: file.accounts ?? DEFAULT_ACCOUNTS,
    tokens,
    generatedTokens,
    adminToken,
    adminTokenGenerated,
    instruments: file.instruments ?? [],
    ticks,
    clock,
    speed: speedGiven ?? 1,
    seed,
  };
  const dataDir = args.dataDir === undefined ? file.dataDir : resolve(args.dataDir);
  if (dataDir !== undefined) settings.dataDir = dataDir;
  if (generator !== undefined) settings.generator = generator;
  const start = args.start ?? file.start;
  if (start !== undefined) settings.start = start;
  if (file.heartbeatMs !== undefined) settings.heartbeatMs = file.heartbeatMs;
  if (configFile !== undefined) settings.configFile = resolve(configFile);
  return settings;
}

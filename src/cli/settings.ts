import { resolve } from 'node:path';
import type { TokenGrant } from '../api/context.js';
import { SERVE_LIMITS, type ApiLimits } from '../api/limits.js';
import { buildCatalogue } from '../domain/instruments.js';
import { formatRfc3339 } from '../domain/time.js';
import type { FeedFormat, TickWindow } from '../engine/feeds/index.js';
import {
  ConfigError,
  DEFAULT_ACCOUNTS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_RECORDS_IN_MEMORY,
  DEFAULT_TRANSACTIONS_IN_MEMORY,
  GENERATOR_HISTORY_DAYS,
  MAJOR_PAIRS,
  TOKEN_RE,
  type FileConfig,
  type GeneratorConfig,
  type GeneratorSettings,
  type ServeArgs,
  type ServeSettings,
  type TickSource,
} from './config.js';

const DEFAULT_MEAN_INTERVAL_MS = 250;

type Fail = (field: string, why: string) => never;

/** The price source: one on the command line replaces the file's. */
function priceSource(
  file: FileConfig,
  args: ServeArgs,
  fail: Fail,
): { ticks: readonly TickSource[]; generator: GeneratorConfig | false | undefined } {
  if (args.ticks !== undefined && args.generator !== undefined) fail('--ticks', 'give either --ticks or --generator, not both');
  if (args.noGenerator === true && args.generator !== undefined) fail('--generator', 'give either --generator or --no-generator');
  if (file.ticks !== undefined && file.ticks.length > 0 && file.generator !== undefined && file.generator !== false) {
    fail('generator', 'give either ticks or generator, not both');
  }
  if (args.ticks === undefined && (args.format !== undefined || args.instrument !== undefined))
    fail('--format', '--format and --instrument apply to --ticks files');
  if (args.ticks !== undefined) {
    const ticks = args.ticks.map((f) => {
      const s: { file: string; format?: FeedFormat; instrument?: string } = { file: resolve(f) };
      if (args.format !== undefined) s.format = args.format;
      if (args.instrument !== undefined) s.instrument = args.instrument;
      return s;
    });
    return { ticks, generator: undefined };
  }
  if (args.generator !== undefined) {
    return {
      ticks: [],
      generator: { ...(file.generator === false || file.generator === undefined ? {} : file.generator), seed: args.generator },
    };
  }
  return { ticks: file.ticks ?? [], generator: args.noGenerator === true ? false : file.generator };
}

/** The clock mode, the run seed and the generator settings, with the rules that tie them to the prices. */
function clockAndGenerator(
  file: FileConfig,
  args: ServeArgs,
  ticks: readonly TickSource[],
  generatorConfig: GeneratorConfig | false | undefined,
  fail: Fail,
) {
  const clock = args.clock ?? file.clock ?? (ticks.length > 0 ? 'replay' : 'live');
  const clockField = args.clock !== undefined ? '--clock' : 'clock';
  if (clock === 'live' && ticks.length > 0) {
    fail(
      clockField,
      'live runs on the wall clock with generated or pushed prices; replay tick files with --clock replay (or step through them with --clock manual)',
    );
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
      historyDays: explicit?.historyDays ?? GENERATOR_HISTORY_DAYS,
    };
  }
  if (clock === 'replay' && ticks.length === 0 && generator === undefined)
    fail(clockField, 'replay needs prices: --ticks FILE... or --generator SEED');
  const speed = args.speed ?? file.speed;
  if (speed !== undefined && clock !== 'replay')
    fail(args.speed !== undefined ? '--speed' : 'speed', `applies to --clock replay only (the clock is ${clock})`);
  // Live time is the wall clock: a start time there would be ignored, so it is refused like --speed.
  if (clock === 'live' && (args.start ?? file.start) !== undefined)
    fail(args.start !== undefined ? '--start' : 'start', 'applies to --clock replay or manual only (the clock is live)');
  const catalogue = buildCatalogue(file.instruments ?? []);
  generator?.instruments.forEach((name, i) => {
    if (!catalogue.has(name)) fail(`generator.instruments[${i}]`, `${name} is not an instrument of this server`);
  });
  for (const s of ticks)
    if (s.instrument !== undefined && !catalogue.has(s.instrument))
      fail('--instrument', `${s.instrument} is not an instrument of this server`);
  return { clock, seed, generator, speed: speed ?? 1 };
}

/** API tokens and the admin token: configured, given, or made up by `newToken` (and then printed). */
function tokensOf(file: FileConfig, args: ServeArgs, newToken: () => string, fail: Fail) {
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
  const adminTokenGiven = args.adminToken ?? file.adminToken;
  if (adminTokenGiven !== undefined && !TOKEN_RE.test(adminTokenGiven)) fail('--admin-token', 'must be 1 to 512 characters without spaces');
  return { tokens, generatedTokens, adminToken: adminTokenGiven ?? newToken(), adminTokenGenerated: adminTokenGiven === undefined };
}

/** The limits: none with --no-limits or `"limits": false`, else flags over the file over SERVE_LIMITS. */
function limitsOf(file: FileConfig, args: ServeArgs, fail: Fail): Required<ApiLimits> | undefined {
  if (args.noLimits === true || (file.limits === false && args.limit === undefined)) return undefined;
  const limits = { ...SERVE_LIMITS, ...(file.limits === false ? {} : file.limits), ...args.limit };
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs)
    fail(
      args.limit?.headersTimeoutMs !== undefined ? '--limit' : 'limits.headersTimeoutMs',
      'headersTimeoutMs must not exceed requestTimeoutMs',
    );
  return limits;
}

/** The period of the tick files replayed: flags over the file; only over tick files, its end after its start. */
function windowOf(file: FileConfig, args: ServeArgs, ticks: readonly TickSource[], fail: Fail): TickWindow | undefined {
  const from = args.from ?? file.from;
  const to = args.to ?? file.to;
  if (from === undefined && to === undefined) return undefined;
  const field = (key: 'from' | 'to'): string => (args[key] !== undefined ? `--${key}` : key);
  if (ticks.length === 0) fail(field(from !== undefined ? 'from' : 'to'), 'applies to tick files only (--ticks FILE...)');
  if (from !== undefined && to !== undefined && to <= from) fail(field('to'), `must be after ${field('from')} (${formatRfc3339(from)})`);
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/**
 * Flags over the file over the defaults, then the rules that tie fields together. `newToken` makes
 * up tokens nobody configured (the CLI passes a random one; tests a fixed one).
 */
export function resolveSettings(file: FileConfig, args: ServeArgs, newToken: () => string, configFile?: string): ServeSettings {
  const source = configFile === undefined ? 'options' : `config ${configFile}`;
  const fail: Fail = (field, why) => {
    throw new ConfigError(field, why, source);
  };
  const prices = priceSource(file, args, fail);
  const { clock, seed, generator, speed } = clockAndGenerator(file, args, prices.ticks, prices.generator, fail);
  const settings: { -readonly [K in keyof ServeSettings]: ServeSettings[K] } = {
    host: args.host ?? file.host ?? DEFAULT_HOST,
    port: args.port ?? file.port ?? DEFAULT_PORT,
    fsync: args.fsync ?? file.fsync ?? false,
    recoverTruncated: args.recoverTruncated ?? file.recoverTruncated ?? false,
    accounts: file.accounts ?? DEFAULT_ACCOUNTS,
    ...tokensOf(file, args, newToken, fail),
    instruments: file.instruments ?? [],
    ticks: prices.ticks,
    clock,
    speed,
    seed,
    transactionsInMemory: file.transactionsInMemory ?? DEFAULT_TRANSACTIONS_IN_MEMORY,
    recordsInMemory: file.recordsInMemory ?? DEFAULT_RECORDS_IN_MEMORY,
  };
  const dataDir = args.dataDir === undefined ? file.dataDir : resolve(args.dataDir);
  if (dataDir !== undefined) settings.dataDir = dataDir;
  if (generator !== undefined) settings.generator = generator;
  const start = args.start ?? file.start;
  if (start !== undefined) settings.start = start;
  const window = windowOf(file, args, prices.ticks, fail);
  if (window !== undefined) settings.window = window;
  if (file.heartbeatMs !== undefined) settings.heartbeatMs = file.heartbeatMs;
  const enumSpelling = args.enumSpelling ?? file.enumSpelling;
  if (enumSpelling !== undefined) settings.enumSpelling = enumSpelling;
  const throttleMs = args.priceStreamThrottleMs ?? file.priceStreamThrottleMs;
  if (throttleMs !== undefined) settings.priceStreamThrottleMs = throttleMs;
  const baseUrl = args.baseUrl ?? file.baseUrl;
  if (baseUrl !== undefined) settings.baseUrl = baseUrl;
  const allowedHosts = args.allowedHosts ?? file.allowedHosts;
  if (allowedHosts !== undefined) settings.allowedHosts = allowedHosts;
  const limits = limitsOf(file, args, fail);
  if (limits !== undefined) settings.limits = limits;
  if (configFile !== undefined) settings.configFile = resolve(configFile);
  return settings;
}

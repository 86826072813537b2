/**
 * The config file of `v20sim backtest` (--config FILE): JSON with any of the command's options,
 * paths relative to the file. Options on the command line win over it. Loaded only when a config
 * file is given: its schema needs TypeBox and ajv, which a plain backtest does not load.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { HOME_CONVERSION_FEE_PATTERN } from '../domain/conversion.js';
import { MARGIN_PRESET_NAMES } from '../domain/margin-presets.js';
import { FEED_FORMATS } from '../engine/feeds/index.js';
import { checkWorkers, type BacktestFileConfig } from './backtest-config.js';
import { UsageError } from './program.js';
import { schemaChecker } from './schema-check.js';

const text = Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' });

/** The backtest config file; `errorMessage` is what a failed check says after the field's name. */
const BacktestConfigSchema = Type.Object(
  {
    strategy: Type.Optional(text),
    ticks: Type.Optional(Type.Union([text, Type.Array(text, { minItems: 1 })], { errorMessage: 'must be a file name or a list of them' })),
    format: Type.Optional(
      Type.Union(
        FEED_FORMATS.map((f) => Type.Literal(f)),
        { errorMessage: `must be one of ${FEED_FORMATS.join(', ')}, got {value}` },
      ),
    ),
    instrument: Type.Optional(text),
    from: Type.Optional(text),
    to: Type.Optional(text),
    params: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object', errorMessage: 'must be an object' })),
    out: Type.Optional(text),
    accountCurrency: Type.Optional(text),
    balance: Type.Optional(Type.Union([Type.String(), Type.Number()], { errorMessage: 'must be a number or a decimal string' })),
    hedging: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
    marginPreset: Type.Optional(
      Type.Union(
        MARGIN_PRESET_NAMES.map((name) => Type.Literal(name)),
        { errorMessage: `must be one of ${MARGIN_PRESET_NAMES.join(', ')}, got {value}` },
      ),
    ),
    marginCloseout: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
    homeConversionFee: Type.Optional(
      Type.String({
        pattern: HOME_CONVERSION_FEE_PATTERN,
        errorMessage: 'must be a decimal string from 0 up to 0.1 (not included), such as "0.005"',
      }),
    ),
    equityInterval: Type.Optional(text),
    rank: Type.Optional(text),
    workers: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 256 }), Type.String({ pattern: '^\\d+$' })], {
        errorMessage: 'must be a whole number from 1 to 256, got {value}',
      }),
    ),
  },
  { additionalProperties: false, errorMessage: 'must hold a JSON object' },
);

const CONFIG_KEYS = Object.keys(BacktestConfigSchema.properties);
const checkShape = schemaChecker(
  BacktestConfigSchema,
  (segments) => `unknown key ${JSON.stringify(segments[0])}; known: ${CONFIG_KEYS.join(', ')}`,
);

function parseFile(file: string): Static<typeof BacktestConfigSchema> {
  if (!existsSync(file)) throw new UsageError(`config file not found: ${file}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`config ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const fault = checkShape(raw);
  if (fault === null) return raw as Static<typeof BacktestConfigSchema>;
  if (fault.field === '') throw new UsageError(`config ${file} ${fault.why}`);
  throw new UsageError(`config ${file}: ${fault.why.startsWith('unknown key') ? fault.why : `${fault.field} ${fault.why}`}`);
}

/** Reads and checks a backtest config file; paths in it resolve against its folder. */
export function readBacktestConfig(file: string): BacktestFileConfig {
  const doc = parseFile(file);
  const dir = path.dirname(file);
  const config: BacktestFileConfig = {};
  if (doc.strategy !== undefined) config.strategy = path.resolve(dir, doc.strategy);
  if (doc.ticks !== undefined) config.ticks = (typeof doc.ticks === 'string' ? [doc.ticks] : doc.ticks).map((t) => path.resolve(dir, t));
  if (doc.format !== undefined) config.format = doc.format;
  if (doc.instrument !== undefined) config.instrument = doc.instrument;
  if (doc.from !== undefined) config.from = doc.from;
  if (doc.to !== undefined) config.to = doc.to;
  if (doc.params !== undefined) config.params = doc.params;
  if (doc.out !== undefined) config.out = path.resolve(dir, doc.out);
  if (doc.accountCurrency !== undefined) config.accountCurrency = doc.accountCurrency;
  if (doc.balance !== undefined) config.balance = String(doc.balance);
  if (doc.hedging !== undefined) config.hedging = doc.hedging;
  if (doc.marginPreset !== undefined) config.marginPreset = doc.marginPreset;
  if (doc.marginCloseout !== undefined) config.marginCloseout = doc.marginCloseout;
  if (doc.homeConversionFee !== undefined) config.homeConversionFee = doc.homeConversionFee;
  if (doc.equityInterval !== undefined) config.equityInterval = doc.equityInterval;
  if (doc.rank !== undefined) config.rank = doc.rank;
  if (doc.workers !== undefined) config.workers = checkWorkers(doc.workers, `config ${file}: workers`);
  return config;
}

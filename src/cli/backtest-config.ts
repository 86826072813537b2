/**
 * The config file of `v20sim backtest` (--config FILE): JSON with any of the command's options,
 * paths relative to the file. Options on the command line win over it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FEED_FORMATS, type FeedFormat } from '../engine/feeds/index.js';
import { UsageError } from './program.js';

export interface BacktestFileConfig {
  strategy?: string;
  ticks?: string[];
  format?: FeedFormat;
  instrument?: string;
  params?: Record<string, unknown>;
  out?: string;
  accountCurrency?: string;
  balance?: string;
  hedging?: boolean;
  equityInterval?: string;
  rank?: string;
  workers?: number;
}

const CONFIG_KEYS = new Set(['strategy', 'ticks', 'format', 'instrument', 'params', 'out', 'accountCurrency', 'balance', 'hedging', 'equityInterval', 'rank', 'workers']);

export function checkFeedFormat(value: string): FeedFormat {
  if (!(FEED_FORMATS as readonly string[]).includes(value)) throw new UsageError(`--format must be one of ${FEED_FORMATS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as FeedFormat;
}

export function checkWorkers(value: unknown, where: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 256) throw new UsageError(`${where} must be a whole number from 1 to 256, got ${JSON.stringify(value)}`);
  return n;
}

function parseFile(file: string): Record<string, unknown> {
  if (!existsSync(file)) throw new UsageError(`config file not found: ${file}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`config ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`config ${file} must hold a JSON object`);
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) if (!CONFIG_KEYS.has(key)) throw new UsageError(`config ${file}: unknown key ${JSON.stringify(key)}; known: ${[...CONFIG_KEYS].join(', ')}`);
  return obj;
}

export function readBacktestConfig(file: string): BacktestFileConfig {
  const obj = parseFile(file);
  const dir = path.dirname(file);
  const fail = (why: string): never => {
    throw new UsageError(`config ${file}: ${why}`);
  };
  const str = (key: string): string | undefined => {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') fail(`${key} must be a non-empty string`);
    return v as string;
  };
  const config: BacktestFileConfig = {};
  const strategy = str('strategy');
  if (strategy !== undefined) config.strategy = path.resolve(dir, strategy);
  const ticks = obj['ticks'];
  if (ticks !== undefined) {
    const list = Array.isArray(ticks) ? ticks : [ticks];
    if (list.length === 0 || !list.every((t) => typeof t === 'string' && t !== '')) fail('ticks must be a file name or a list of them');
    config.ticks = (list as string[]).map((t) => path.resolve(dir, t));
  }
  const format = str('format');
  if (format !== undefined) config.format = checkFeedFormat(format);
  const instrument = str('instrument');
  if (instrument !== undefined) config.instrument = instrument;
  const params = obj['params'];
  if (params !== undefined) {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) fail('params must be an object');
    config.params = params as Record<string, unknown>;
  }
  const outDir = str('out');
  if (outDir !== undefined) config.out = path.resolve(dir, outDir);
  const currency = str('accountCurrency');
  if (currency !== undefined) config.accountCurrency = currency;
  const balance = obj['balance'];
  if (balance !== undefined) {
    if (typeof balance !== 'string' && typeof balance !== 'number') fail('balance must be a number or a decimal string');
    config.balance = String(balance);
  }
  const hedging = obj['hedging'];
  if (hedging !== undefined) {
    if (typeof hedging !== 'boolean') fail('hedging must be true or false');
    config.hedging = hedging as boolean;
  }
  const interval = str('equityInterval');
  if (interval !== undefined) config.equityInterval = interval;
  const rank = str('rank');
  if (rank !== undefined) config.rank = rank;
  if (obj['workers'] !== undefined) config.workers = checkWorkers(obj['workers'], `config ${file}: workers`);
  return config;
}

/**
 * The options of `v20sim backtest` that a config file (--config FILE, read by
 * backtest-config-file.ts) can also give, and the checks shared by both.
 */
import type { MarginPresetName } from '../domain/margin-presets.js';
import { FEED_FORMATS, type FeedFormat } from '../engine/feeds/index.js';
import { UsageError } from './program.js';
export interface BacktestFileConfig {
  strategy?: string;
  ticks?: string[];
  format?: FeedFormat;
  instrument?: string;
  /** The tick window's ends as written (checked with the command line's). */
  from?: string;
  to?: string;
  params?: Record<string, unknown>;
  out?: string;
  accountCurrency?: string;
  balance?: string;
  hedging?: boolean;
  marginPreset?: MarginPresetName;
  marginCloseout?: boolean;
  homeConversionFee?: string;
  equityInterval?: string;
  rank?: string;
  workers?: number;
}

export function checkFeedFormat(value: string): FeedFormat {
  if (!(FEED_FORMATS as readonly string[]).includes(value))
    throw new UsageError(`--format must be one of ${FEED_FORMATS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as FeedFormat;
}

export function checkWorkers(value: unknown, where: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 256)
    throw new UsageError(`${where} must be a whole number from 1 to 256, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * The options of `v20sim backtest` that a config file (--config FILE, read by
 * backtest-config-file.ts) can also give, and the checks shared by both.
 */
import type { MarginPresetName } from '../domain/margin-presets.js';
import { FEED_FORMATS, type FeedFormat } from '../engine/feeds/options.js';
import type { TickWindow } from '../engine/feeds/window.js';
import { UsageError } from './program.js';
import { datetimeOption } from './remote-options.js';
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

/** --from and --to (or the config file's from and to), checked: a period that holds some time. */
export function checkWindow(from: string | undefined, to: string | undefined, field: (key: string, flag: string) => string): TickWindow {
  const start = from === undefined ? undefined : datetimeOption(from, field('from', '--from'));
  const end = to === undefined ? undefined : datetimeOption(to, field('to', '--to'));
  if (start !== undefined && end !== undefined && end <= start)
    throw new UsageError(`${field('to', '--to')} must be after ${field('from', '--from')} (${from as string}), got ${to as string}`);
  return { ...(start === undefined ? {} : { from: start }), ...(end === undefined ? {} : { to: end }) };
}

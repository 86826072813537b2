/**
 * Option values shared by the commands that call a remote v20 server (download, record): URLs,
 * the token (option or environment), whole numbers, datetimes. Bad values are UsageErrors.
 */
import { parseDateTime, type Micros } from '../domain/time.js';
import { UsageError } from './program.js';

/** Environment variables read for the token when --token is absent, in this order. */
export const TOKEN_ENV = ['OANDA_TOKEN', 'V20_TOKEN'] as const;

export function stringOption(options: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = options[key];
  return typeof value === 'string' ? value : undefined;
}

export function requiredOption(options: Readonly<Record<string, unknown>>, key: string, flag: string, command: string): string {
  const value = stringOption(options, key);
  if (value === undefined || value === '') throw new UsageError(`${flag} is required (see v20sim ${command} --help)`);
  return value;
}

export function urlOption(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http(s) URL, got ${JSON.stringify(value)}`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export function tokenOption(options: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): string {
  const given = stringOption(options, 'token');
  if (given !== undefined && given !== '') return given;
  for (const name of TOKEN_ENV) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  throw new UsageError(`--token is required (or set ${TOKEN_ENV.join(' or ')})`);
}

export function wholeOption(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

export function secondsOption(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag} must be a positive number of seconds, got ${JSON.stringify(value)}`);
  return n;
}

/** RFC3339 with a zone, a date (midnight UTC) or UNIX seconds. */
export function datetimeOption(value: string, flag: string): Micros {
  const at = timeOption(value);
  if (at === null)
    throw new UsageError(
      `${flag} must be an RFC3339 datetime with a zone (2024-01-02T00:00:00Z), a date (2024-01-02) or UNIX seconds, got ${JSON.stringify(value)}`,
    );
  return at;
}

/** A time as the CLI's --from/--to take it: RFC3339 with a zone, YYYY-MM-DD (midnight UTC) or UNIX seconds; null otherwise. */
export function timeOption(value: string): Micros | null {
  return parseDateTime(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value, 'ANY');
}

/** Instruments named by --instrument (repeatable, each may list several separated by commas). */
export function instrumentsOption(options: Readonly<Record<string, unknown>>, command: string): string[] {
  const raw = options['instrument'];
  const values = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  const names = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (names.length === 0) throw new UsageError(`--instrument is required (see v20sim ${command} --help)`);
  for (const name of names)
    if (!/^[A-Za-z0-9]+_[A-Za-z0-9]+$/.test(name))
      throw new UsageError(`--instrument must name a v20 instrument such as EUR_USD, got ${JSON.stringify(name)}`);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new UsageError(`--instrument ${name} given twice`);
    seen.add(name);
  }
  return names;
}

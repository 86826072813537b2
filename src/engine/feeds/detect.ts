import { basename } from 'node:path';
import { readLines } from './lines.js';
import { looksLikeCandle } from './format-candles.js';
import type { FeedFormat } from './options.js';

const PEEK_CHUNK = 64 * 1024;

/** The first non-empty line of a (possibly compressed) file, reading no further than needed. */
export function firstLine(file: string): string | undefined {
  for (const line of readLines(file, PEEK_CHUNK)) if (line.trim() !== '') return line;
  return undefined;
}

/** The name as the rules read it: lower case, a trailing .gz dropped. */
function plainName(file: string): string {
  return basename(file).toLowerCase().replace(/\.gz$/, '');
}

/** True when the name alone says LEAN (`YYYYMMDD_quote.zip`, `YYYYMMDD_pair_tick_quote.csv`). */
export function leanByName(file: string): boolean {
  const name = plainName(file);
  return /^\d{8}_quote\.zip$/.test(name) || /^\d{8}_[a-z0-9]+_tick_quote\.csv$/.test(name);
}

function formatFromName(file: string): FeedFormat | undefined {
  const name = plainName(file);
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) {
    const line = firstLine(file);
    return line !== undefined && looksLikeCandle(line) ? 'candles' : 'ndjson';
  }
  if (leanByName(file)) return 'lean';
  if (/^dat_ascii_[a-z]{6}_t_/.test(name)) return 'histdata';
  return undefined;
}

const NUMBER = String.raw`\s*\d+(?:\.\d+)?\s*`;
const HISTDATA_RE = /^\d{8} \d{9},/;
const ISO_FIRST_FIELD_RE = /^\d{4}-\d{2}-\d{2}[T ][^,]*,[^,]*,[^,]*$/;
const TRUEFX_HEADER_RE = /^\s*timestamp\s*,\s*bid\s*,\s*ask\s*$/i;
const THREE_NUMBERS_RE = new RegExp(`^${NUMBER},${NUMBER},${NUMBER}$`);

/** Format by the shape of a first line; csv when nothing more specific fits. */
export function formatFromLine(line: string): FeedFormat {
  if (looksLikeCandle(line)) return 'candles';
  if (line.trimStart().startsWith('{')) return 'ndjson';
  if (HISTDATA_RE.test(line)) return 'histdata';
  // Three columns with a date first, or TrueFX's header: the csv format needs four without a header.
  if (ISO_FIRST_FIELD_RE.test(line) || TRUEFX_HEADER_RE.test(line)) return 'truefx';
  if (THREE_NUMBERS_RE.test(line)) return 'lean';
  return 'csv';
}

/**
 * Picks a format: first by name (`.ndjson`/`.jsonl`, candles when their first line is a v20 candle, LEAN's `YYYYMMDD_quote.zip`, HistData's
 * `DAT_ASCII_EURUSD_T_*`), a trailing `.gz` ignored; then by the first non-empty line (after
 * decompression). Pass `format` in the options when a file fits none of these.
 */
export function detectFormat(file: string): FeedFormat {
  const byName = formatFromName(file);
  if (byName !== undefined) return byName;
  const line = firstLine(file);
  return line === undefined ? 'csv' : formatFromLine(line);
}
